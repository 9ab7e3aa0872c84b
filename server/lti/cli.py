"""`flask --app server lti add-platform ...`: register an LMS and print the URLs to paste into it."""

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
    default=None,
    help="The playground's public URL (its prefix), for the URLs printed; else from PLAYGROUND_SERVER_NAME.",
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
    tool_url: str | None,
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
    click.echo(f"Registered {issuer} (client id {client_id}, deployment {deployment_id}).")
    base, source = public_url(tool_url)
    if base is None:
        click.echo(
            "The playground's public URL is not known here: give --tool-url https://<its host>/<its path>/ "
            "(or set PLAYGROUND_SERVER_NAME) to print them in full. Paste these into the LMS, after that URL:"
        )
        base = "<the playground's public URL>/"
    else:
        click.echo(f"The playground's public URL: {base} ({source}). Paste these into the LMS:")
    click.echo(f"  Tool URL / Target link URI:    {base}lti/launch")
    click.echo(f"  Initiate login URL:            {base}lti/login")
    click.echo(f"  Redirection URI(s):            {base}lti/launch")
    click.echo(f"  Public keyset URL (JWKS):      {base}lti/jwks.json")
    click.echo(f"  Deep linking (Content Selection) URL: {base}lti/launch")


def public_url(given: str | None) -> tuple[str | None, str]:
    """The playground's public URL, ending in /, and where it came from; None when nothing says it.

    --tool-url if given; else https:// (an LMS launches over HTTPS only), Flask's SERVER_NAME
    (PLAYGROUND_SERVER_NAME) and APPLICATION_ROOT (the prefix). Never a guess such as 127.0.0.1:5000.
    """
    if given:
        return (given if given.endswith("/") else given + "/"), "from --tool-url"
    config = current_app.config
    if not config.get("SERVER_NAME"):
        return None, ""
    root = "/" + str(config.get("APPLICATION_ROOT") or "/").strip("/")
    url = f"https://{config['SERVER_NAME']}{root.rstrip('/')}/"
    return url, "from PLAYGROUND_SERVER_NAME and PLAYGROUND_APPLICATION_ROOT, over https"


@lti_command.command("registration-url")
@click.option(
    "--tool-url",
    default=None,
    help="The playground's public URL (its prefix), as the LMS reaches it; else from PLAYGROUND_SERVER_NAME.",
)
def registration_url(tool_url: str | None) -> None:
    """Print a URL that registers one LMS by LTI Dynamic Registration: it works once, within a day."""
    from server.lti import open_state
    from server.lti.registration_token import TOKEN_S, make_token, when

    base, source = public_url(tool_url)
    if base is None:
        raise click.ClickException(
            "The playground's public URL is not known here: give --tool-url https://<its host>/<its path>/ "
            "(or set PLAYGROUND_SERVER_NAME). No registration URL was made."
        )
    token, expires = make_token(open_state(current_app)["store"])
    click.echo(f"The playground's public URL: {base} ({source}).")
    click.echo("Paste this registration URL into the LMS (Moodle: Manage tools > Tool URL >")
    click.echo("Add LTI Advantage; Canvas: Developer Keys > + Developer Key > + LTI Registration):")
    click.echo(f"  {base}lti/register?token={token}")
    click.echo(f"It registers one LMS, once, until {when(expires)} ({TOKEN_S // 3600} hours from now).")


@lti_command.command("registrations")
def list_registrations() -> None:
    """List the registered LMSs: issuer, client id, deployments (nothing secret)."""
    from server.db import database
    from server.lti import open_state
    from server.lti.registered import listed

    open_state(current_app)  # the LTI tables, made on first use
    with database().connect() as conn:
        found = listed(conn)
    if not found:
        click.echo("No LMS is registered.")
    for row in found:
        deployed = ", ".join(row["deployments"]) or "any (the LMS named none when it registered)"
        click.echo(f"{row['issuer']}  client id {row['client_id']}  deployments {deployed}")
        click.echo(f"    title {row['title']}; keys {row['key_set_url']}")


@lti_command.command("remove-registration")
@click.option("--issuer", required=True, help="The LMS's issuer, as `lti registrations` lists it.")
@click.option("--client-id", required=True, help="The client id, as `lti registrations` lists it.")
def remove_registration(issuer: str, client_id: str) -> None:
    """Remove an LMS's registration and its deployments: its launches are refused from then on."""
    from server.db import database
    from server.lti import open_state
    from server.lti.registered import remove

    open_state(current_app)
    with database().connect() as conn:
        gone = remove(conn, issuer, client_id)
    if gone is None:
        raise click.ClickException(f"No registration of {issuer} with client id {client_id}: nothing removed")
    click.echo(f"Removed {issuer} (client id {client_id}) and its {gone} deployment(s).")


@lti_command.command("export-attempts")
@click.option("--issuer", default=None, help="Only this LMS's (its issuer); default: every LMS's.")
@click.option("--course", default=None, help="Only this course's (the LTI context id); default: all.")
@click.option("--activity", default=None, help="Only this activity's (the resource link id); default: all.")
def export_attempts(issuer: str | None, course: str | None, activity: str | None) -> None:
    """Print every recorded Check as JSON Lines, one a line (docs/data.md names the fields)."""
    from server.records.export import attempt_rows, jsonl

    with records_database().connect() as conn:
        for text in jsonl(attempt_rows(conn, issuer, course, activity)):
            click.echo(text, nl=False)


@lti_command.command("forget-learner")
@click.option("--course", required=True, help="The course (the LTI context id), as the export names it.")
@click.option(
    "--learner", required=True, help="The learner's pseudonym, as the class view and export name it."
)
@click.option("--issuer", default=None, help="The LMS (its issuer), if the course id is not enough.")
def forget_learner(course: str, learner: str, issuer: str | None) -> None:
    """Delete one learner's records in one course: their Checks, results, learner rows and launches."""
    from sqlalchemy import select

    from server.db.tables import learners
    from server.records.retention import forgetting

    with records_database().connect() as conn:
        found = (
            select(learners.c.issuer)
            .distinct()
            .where(learners.c.course == course, learners.c.learner == learner)
        )
        if issuer is not None:
            found = found.where(learners.c.issuer == issuer)
        issuers = list(conn.execute(found).scalars())
        if not issuers:
            raise click.ClickException(f"no learner {learner} in course {course!r}: nothing deleted")
        if len(issuers) > 1:
            raise click.ClickException(
                f"learner {learner} is in course {course!r} at {len(issuers)} LMSs ({', '.join(issuers)}):"
                " say which with --issuer; nothing deleted"
            )
        removed = forgetting(conn, issuers[0], course, learner)
    click.echo(
        f"Deleted learner {learner} of course {course!r} at {issuers[0]}: Checks {removed['attempts']},"
        f" expression results {removed['results']}, learner rows {removed['learners']} (one per activity"
        f" opened), launches {removed['launches']}, grade passbacks {removed['passbacks']}."
        + (
            f" {removed['kept']} launch(es) kept, refused from now on, only until the grade earned before"
            " is sent to the LMS."
            if removed["kept"]
            else ""
        )
    )


def records_database():
    """The app's database, where the records are; none open: say which settings keep records."""
    if "db" not in current_app.extensions:
        raise click.ClickException(
            "no records here: they are kept with PLAYGROUND_LTI=1 or a learner token setting"
            " (run this with the server's settings, PLAYGROUND_DATABASE_URL among them)"
        )
    return current_app.extensions["db"]
