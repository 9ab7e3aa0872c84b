"""`flask --app server lti add-platform ...`: register an LMS and print the URLs to paste into it."""

from urllib.parse import urljoin

import click
from flask import current_app
from flask.cli import AppGroup

lti_command = AppGroup("lti", help="LTI 1.3: register a course's LMS (platform).")


@lti_command.command("add-platform")
@click.option("--issuer", required=True, help="The platform's issuer (Moodle: its site URL).")
@click.option("--client-id", required=True, help="The client id the LMS gave this tool.")
@click.option("--deployment-id", required=True, help="The deployment id the LMS gave this tool.")
@click.option("--auth-login-url", required=True, help="The LMS's OIDC authentication request URL.")
@click.option("--auth-token-url", required=True, help="The LMS's OAuth 2 access token URL.")
@click.option("--key-set-url", required=True, help="The LMS's public keyset (JWKS) URL.")
@click.option("--auth-audience", default=None, help="The token URL's audience, when the LMS names one.")
@click.option("--title", default=None, help="The name learners know the course's LMS by.")
@click.option(
    "--tool-url",
    default="http://127.0.0.1:5000/",
    show_default=True,
    help="The playground's public URL (its prefix), for the URLs printed.",
)
def add_platform(
    issuer: str,
    client_id: str,
    deployment_id: str,
    auth_login_url: str,
    auth_token_url: str,
    key_set_url: str,
    auth_audience: str | None,
    title: str | None,
    tool_url: str,
) -> None:
    """Store the platform's registration in the database and print the tool's URLs for the LMS."""
    from server.lti import open_state

    state = open_state(current_app)
    state["store"].add_platform(
        {
            "issuer": issuer,
            "client_id": client_id,
            "title": title or issuer,
            "auth_login_url": auth_login_url,
            "auth_token_url": auth_token_url,
            "key_set_url": key_set_url,
            "auth_audience": auth_audience,
        },
        deployment_id,
    )
    base = tool_url if tool_url.endswith("/") else tool_url + "/"
    click.echo(f"Registered {issuer} (client id {client_id}, deployment {deployment_id}).")
    click.echo("Paste these into the LMS:")
    click.echo(f"  Tool URL / Target link URI:    {urljoin(base, 'lti/launch')}")
    click.echo(f"  Initiate login URL:            {urljoin(base, 'lti/login')}")
    click.echo(f"  Redirection URI(s):            {urljoin(base, 'lti/launch')}")
    click.echo(f"  Public keyset URL (JWKS):      {urljoin(base, 'lti/jwks.json')}")
    click.echo(f"  Deep linking (Content Selection) URL: {urljoin(base, 'lti/launch')}")
