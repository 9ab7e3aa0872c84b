"""LTI Dynamic Registration: the one URL an administrator pastes into an LMS, and what opening it does.

`flask --app server lti registration-url` makes a one-time token (server/lti/registration_token.py) and
prints `<tool>lti/register?token=...`. The LMS opens that URL in its
window with its `openid_configuration` and `registration_token` added; the tool checks the token, reads
and checks the platform's configuration (server/lti/openid.py), posts its own registration there
(server/lti/tool_registration.py), stores the client and deployment ids it gets back and answers a page
that says what was registered, whose button tells the LMS's window it is done
(`org.imsglobal.lti.close`). Every refusal is a page that says why, and stores no registration. The
token is claimed, by one request only (a compare-and-swap of its record: of two LMSs opening the URL at
once, one registers and the other is told it was used), by the first platform whose configuration
checked out, just before the registration is posted; once the registration was sent to the LMS the
token is used up, whatever the LMS answers. A registration that never reached the LMS leaves the token
bound to that platform, to try again; a refusal before the claim leaves it as it was.
"""

import base64
import hashlib
import re
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, make_response, render_template, request, url_for
from flask_babel import gettext

from engine.words import N_
from server.db import database
from server.http.headers import response_headers
from server.http.limits import client, limits
from server.lti import state
from server.lti.claims import web_origin
from server.lti.openid import (
    CLAIMS,
    GRADE_SCOPES,
    ROSTER_SCOPE,
    RegistrationError,
    check_configuration,
    fetch_configuration,
)
from server.lti.refusals import refuse
from server.lti.registered import registered_with_other_keys
from server.lti.registration_token import claim, held_token, keep, token_key
from server.lti.store import Store
from server.lti.tool_registration import ToolRegistration, post_registration

REGISTRATION_TOKEN = re.compile(r"[\x21-\x7e]{1,4096}")  # the platform's bearer token: printable ASCII
TOOL_NAME = "Backprop playground"
TOOL_DESCRIPTION = "Learners write backpropagation for a small autograd engine; a verified pass is graded."
# The one script of the page: its button tells the LMS's window (opener or parent) the registration is done.
CLOSE_SCRIPT = (
    'document.getElementById("close").addEventListener("click", () => '
    '(window.opener || window.parent).postMessage({subject: "org.imsglobal.lti.close"}, "*"));'
)
CLOSE_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(CLOSE_SCRIPT.encode()).digest()).decode() + "'"

bp = Blueprint("lti_registration", __name__, url_prefix="/lti")


def other_urls(issuer: str, client_id: str, endpoint: str) -> RegistrationError:
    return RegistrationError(
        409,
        N_("This LMS is already registered with other URLs"),
        N_(
            "%(issuer)s is registered here with client id %(client_id)s and other login and token URLs, "
            "and the registration endpoint that named that client id (%(endpoint)s) is not on the LMS's "
            "own site, so nothing was changed. If the LMS moved them, remove the old registration first "
            "with `flask --app server lti remove-registration`, then make a new registration URL."
        ),
        reached=True,
        issuer=issuer,
        client_id=client_id,
        endpoint=endpoint,
    )


def replaces_others_urls(platform: dict, existing: dict | None) -> bool:
    """Whether a registration would change a registered client's login or token URLs on the word of a
    registration endpoint off the LMS's own site (the issuer's): its key set URL, public, proves nothing."""
    if existing is None or web_origin(platform["registration_endpoint"]) == web_origin(platform["issuer"]):
        return False
    urls = ("auth_login_url", "auth_token_url")
    return any(existing[url] != platform[url] for url in urls)


def tool_urls() -> dict:
    """The tool's own LTI URLs, as the platform will reach them (this request's host and prefix)."""
    return {
        "launch": url_for("lti.launch", _external=True),
        "login": url_for("lti.login", _external=True),
        "jwks": url_for("lti.jwks", _external=True),
    }


def platform_title(issuer: str, existing: dict | None) -> str:
    """What the pages call the LMS where a launch names no course: the title it has, else its host."""
    return existing["title"] if existing else urlsplit(issuer).netloc


def register_platform(token: str, configuration_url: str, registration_token: str | None) -> dict:
    """Register the platform that opened the URL, and the tool with it; what was registered."""
    store: Store = state()["store"]
    held = held_token(store, token)
    if registration_token is not None and not REGISTRATION_TOKEN.fullmatch(registration_token):
        raise RegistrationError(
            400,
            N_("This registration was not opened by an LMS"),
            N_("Its registration_token is not one an LMS sends. Start the registration from the LMS."),
        )
    platform = check_configuration(configuration_url, fetch_configuration(configuration_url))
    issuer = platform["issuer"]
    with database().connect() as conn:
        other = registered_with_other_keys(conn, issuer, platform["key_set_url"])
    if other:
        raise RegistrationError(
            409,
            N_("This LMS is already registered with other keys"),
            N_(
                "%(issuer)s is registered here with its keys at %(other)s, and this registration names "
                "%(keys)s. If the LMS moved its keys, remove the old registration first with "
                "`flask --app server lti remove-registration`."
            ),
            issuer=issuer,
            other=other,
            keys=platform["key_set_url"],
        )
    held = claim(store, token, held, issuer)
    body = ToolRegistration(
        TOOL_NAME, TOOL_DESCRIPTION, tool_urls(), platform["scopes"], platform["deep_linking"]
    ).lti_registration_data()
    try:
        ids = post_registration(platform["registration_endpoint"], registration_token, body)
        existing = store.registration(issuer, ids["client_id"])
        if replaces_others_urls(platform, existing):
            raise other_urls(issuer, ids["client_id"], platform["registration_endpoint"])
    except RegistrationError as exc:
        if exc.reached:  # the LMS had it: the token is used up
            keep(store, token, held | {"outcome": "refused"})
        else:  # never reached: still this platform's, to try again
            store.swap(token_key(token), held, held | {"used": None, "outcome": None})
        raise
    registration = {
        "issuer": issuer,
        "client_id": ids["client_id"],
        "title": platform_title(issuer, existing),
        "auth_login_url": platform["auth_login_url"],
        "auth_token_url": platform["auth_token_url"],
        "key_set_url": platform["key_set_url"],
        "auth_audience": platform["auth_audience"],
    }
    store.add_platform(registration, ids["deployment_id"])
    keep(store, token, held | {"outcome": "registered", "client_id": ids["client_id"]})
    current_app.logger.info(
        "LTI registration: %s (client id %s, deployment %s)%s",
        issuer,
        ids["client_id"],
        ids["deployment_id"],
        " updated" if existing else "",
    )
    return platform | ids | {"updated": existing is not None}


@bp.get("/register")
def register() -> Response:
    """The URL an LMS opens to register the playground (LTI Dynamic Registration's initiation)."""
    config = current_app.config
    if wait := limits().hit("lti", config["LTI_RATE_LIMIT"], config["LTI_RATE_WINDOW_S"], client()):
        return refuse(
            429,
            N_("Too many registrations from your network"),
            N_("Wait a minute, then start the registration from the LMS again."),
            retry_after=wait,
        )
    try:
        done = register_platform(
            request.args.get("token", ""),
            request.args.get("openid_configuration", ""),
            request.args.get("registration_token"),
        )
    except RegistrationError as exc:
        return refuse(exc.status, exc.title, exc.detail, **exc.params)
    response = make_response(
        render_template(
            "lti-registered.html",
            registered=done,
            grades=all(scope in done["scopes"] for scope in GRADE_SCOPES),
            roster=ROSTER_SCOPE in done["scopes"],
            names=[claim for claim in CLAIMS if claim not in ("iss", "sub")],  # what the page says it asked
            close_script=CLOSE_SCRIPT,
            title=gettext("The playground is registered with %(issuer)s", issuer=done["issuer"]),
        )
    )
    policy = response_headers(config)["Content-Security-Policy"]
    policy = re.sub(r"script-src[^;]*", f"script-src {CLOSE_HASH}", policy)  # its one script, no other
    response.headers["Content-Security-Policy"] = policy
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """The registration URL's endpoint (LTI on: create_app has opened the database, server/db)."""
    app.register_blueprint(bp)
