"""The pages a refused login or launch gets: why, in the learner's language, and what they can do."""

import math

import jwt
from flask import Response, current_app, make_response, render_template, request, url_for
from flask_babel import gettext

from engine.words import N_
from server.http.limits import client, limits
from server.lti import state

NEW_WINDOW = N_(
    "Your browser blocked the cookie that ties this launch to its login inside the course's page. "
    "Open the exercise in a window of its own, where it can keep it."
)
# A launch the tool could not read: what the learner can do, then the check's own words (for the LMS's
# admin, as the check or pylti1p3 says them, in English) in its %(reason)s.
UNREADABLE = N_(
    "The playground could not read what the LMS sent (%(reason)s). "
    "Open the exercise from the course again; if it happens again, tell your teacher."
)
WRONG_AUDIENCE = N_(
    "The LMS is registered here, but its launch names another client id (aud) than the one it registered."
)


def refuse(
    status: int,
    title: str,
    detail: str,
    new_window: str | None = None,
    retry_after: float | None = None,
    **params: object,
) -> Response:
    """A page that says why the launch was refused and what to do, with its status.

    title and detail are messages (N_), said in the page's language with params filled; the log has them
    in English.
    """
    current_app.logger.info("LTI refused (%s): %s: %s", status, title % params, detail % params)
    title, detail = gettext(title, **params), gettext(detail, **params)
    page = render_template("lti-refused.html", title=title, detail=detail, new_window=new_window)
    response = make_response(page, status)
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


def too_many() -> Response | None:
    """The refusal of a login or launch over the client's limit (server/http/limits.py), or None."""
    config = current_app.config
    if wait := limits().hit("lti", config["LTI_RATE_LIMIT"], config["LTI_RATE_WINDOW_S"], client()):
        return refuse(
            429,
            N_("Too many launches from your network"),
            N_(
                "This network opened the exercise more often than the playground allows in a minute. "
                "Wait a minute, then open it from the course again."
            ),
            retry_after=wait,
        )
    return None


def new_window_url() -> str | None:
    """Where the learner can start this launch again in a window of its own (first-party cookies), or None.

    The login's parameters travel in its state, signed by the tool (nothing of a login is stored).
    """
    params = state()["keys"].unseal(request.form.get("state") or "")
    return url_for("lti.login", **params, lti1p3_new_window="1") if params else None


def why(exc: Exception) -> tuple[int, str, str, dict]:
    """The status, title, detail and the detail's params for what pylti1p3 refused (its words: reason)."""
    text = str(exc) or type(exc).__name__
    said = {"reason": text}
    if "Registration not found" in text or "Could not find registration" in text:
        return (
            403,
            N_("This course's platform is not registered here"),
            N_(
                "The LMS (issuer and client id) that sent this launch is not registered with the playground. "
                "A teacher registers it with `flask --app server lti add-platform`."
            ),
            {},
        )
    if "Client id not registered" in text:
        return (
            403,
            N_("This launch was meant for another tool"),
            N_("Its audience is not a client registered here (%(reason)s)."),
            said,
        )
    if "deployment" in text.lower():
        return (
            403,
            N_("This deployment is not registered here"),
            N_(
                "The LMS's deployment that sent this launch is not registered with the playground "
                "(%(reason)s)."
            ),
            said,
        )
    if '"id_token" field is empty' in text or "Missing state" in text:
        return (
            400,
            N_("This is not a launch from a course"),
            N_("This address takes the launches a course's LMS sends. Open the exercise from the course."),
            {},
        )
    if "State not found" in text:
        return (
            400,
            N_("This launch did not start here"),
            N_(
                "The launch names a login this playground did not start, or one too old. "
                "Open the exercise from the course again."
            ),
            {},
        )
    if "Nonce" in text:
        return (
            400,
            N_("This launch was already used"),
            N_("A launch can be used once. Open the exercise from the course again."),
            {},
        )
    if "Resource Link" in text or "message type" in text.lower():
        return (
            400,
            N_("This launch does not name an activity"),
            N_("The LMS sent no resource link (%(reason)s)."),
            said,
        )
    return (
        400,
        N_("The launch could not be checked"),
        N_(
            "The LMS's launch message did not check out (%(reason)s). "
            "Open the exercise from the course again."
        ),
        said,
    )


def refuse_why(exc: Exception) -> Response:
    """The refusal page for what pylti1p3 refused."""
    status, title, detail, params = why(exc)
    return refuse(status, title, detail, **params)


def refuse_launch(exc: Exception) -> Response:
    """The refusal page for a launch pylti1p3 refused, told apart where the tool knows more than it."""
    tool = state()
    if "Registration not found" in str(exc) and tool["store"].registrations(unverified_issuer()):
        return refuse(403, N_("This launch was meant for another tool"), WRONG_AUDIENCE)
    if "State not found" in str(exc) and tool["keys"].unseal(request.form.get("state") or "") is not None:
        # a login of this tool's: the browser lost its cookie
        return refuse(400, N_("Your browser did not keep this launch's cookie"), NEW_WINDOW, new_window_url())
    return refuse_why(exc)


def unverified_issuer() -> str:
    """The iss of the posted id_token, unchecked (only to choose the words of a refusal)."""
    try:
        return str(jwt.decode(request.form.get("id_token", ""), options={"verify_signature": False})["iss"])
    except (jwt.PyJWTError, KeyError):
        return ""
