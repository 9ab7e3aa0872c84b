"""The LTI 1.3 endpoints: OIDC login, launch (the page, or Deep Linking), the tool's JWKS, grade Retry."""

import math
import re
import time
import uuid
from urllib.parse import urlsplit

import jwt
from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    jsonify,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_babel import format_number, gettext
from pylti1p3.contrib.flask import FlaskMessageLaunch, FlaskOIDCLogin, FlaskRequest
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem

from engine.words import N_
from server.headers import page_headers, response_headers
from server.keysets import KeySetError, key_sets
from server.limits import client, limits
from server.lti import passback
from server.lti.claims import ClaimError, check_claims, may_deep_link
from server.lti.tool import DatabaseStorage, PartitionedCookies, TimeoutSession, ToolConf
from server.page import page_config, render_page

bp = Blueprint("lti", __name__, url_prefix="/lti")

CONTEXT = "https://purl.imsglobal.org/spec/lti/claim/context"
PRESENTATION = (
    "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"  # its locale: the page's language
)
RESOURCE_LINK = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
DEPLOYMENT = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
MESSAGE_TYPE = "https://purl.imsglobal.org/spec/lti/claim/message_type"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "lti_deployment_id", "client_id")
MAX_PARAM = 2048  # characters of one login parameter (Canvas's lti_message_hint, a JWT, is ~600)
NEW_WINDOW = N_(
    "Your browser blocked the cookie that ties this launch to its login inside the course's page. "
    "Open the exercise in a window of its own, where it can keep it."
)
# The activity's title, in the language of the teacher's Deep Linking launch (the LMS keeps it as given).
EXERCISE_TITLE = N_("Backprop playground: write backward(out)")
# A launch the tool could not read: what the learner can do, then the check's own words (for the LMS's
# admin, as the check or pylti1p3 says them, in English) in its %(reason)s.
UNREADABLE = N_(
    "The playground could not read what the LMS sent (%(reason)s). "
    "Open the exercise from the course again; if it happens again, tell your teacher."
)


def state() -> dict:
    """The LTI parts of the app: store, keys, settings."""
    return current_app.extensions["lti"]


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
    """The refusal of a login or launch over the client's limit (server/limits.py), or None."""
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


COOKIE_LOST = (
    400,
    N_("Your browser did not keep this launch's cookie"),
    N_(
        "The launch could not be matched with its login: your browser blocked the cookie that "
        "ties them together. Open the exercise from the course again, or allow cookies for this site."
    ),
)


WRONG_AUDIENCE = N_(
    "The LMS is registered here, but its launch names another client id (aud) than the one it registered."
)


def unverified_issuer() -> str:
    """The iss of the posted id_token, unchecked (only to choose the words of a refusal)."""
    try:
        return str(jwt.decode(request.form.get("id_token", ""), options={"verify_signature": False})["iss"])
    except (jwt.PyJWTError, KeyError):
        return ""


class Login(FlaskOIDCLogin):
    """pylti1p3's login, whose state carries the login's parameters, signed (nothing stored but a nonce)."""

    def __init__(self, flask_request: FlaskRequest, params: dict, **parts) -> None:
        super().__init__(flask_request, **parts)
        self.params = params

    def _get_uuid(self) -> str:  # pylti1p3 makes the state "state-" + this
        return state()["keys"].seal(self.params)


class Launch(FlaskMessageLaunch):
    """pylti1p3's launch, with the LMS's key set from server/keysets.py and no launch data stored."""

    def fetch_public_key(self, key_set_url: str) -> dict:
        try:
            return key_sets().get(key_set_url, self._jwt.get("header", {}).get("kid"))
        except KeySetError as exc:
            raise LtiException(f"the LMS's keys could not be had: {exc}") from exc

    def save_launch_data(self) -> "Launch":
        return self  # the tool keeps its own record of a launch (store.add_launch), nothing of pylti1p3's


def tool_parts(tool: dict, flask_request: FlaskRequest) -> dict:
    """What pylti1p3's login and launch both take: the tool's config, its cookies, its launch storage."""
    return {
        "tool_config": ToolConf(tool["store"], tool["keys"]),
        "cookie_service": PartitionedCookies(flask_request),
        "launch_data_storage": DatabaseStorage(tool["store"]),
    }


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response:
    """Start the OIDC login an LMS initiates: check the platform, send the browser to its auth URL."""
    if refused := too_many():
        return refused
    flask_request = FlaskRequest()
    params = {k: flask_request.get_param(k) for k in LOGIN_PARAMS}
    for name, value in params.items():
        if value is not None and (not isinstance(value, str) or len(value) > MAX_PARAM):
            return refuse(
                400,
                N_("This login request is not one an LMS sends"),
                N_("Its %(name)s is over %(limit)s characters. Open the exercise from the course again."),
                name=name,
                limit=format_number(MAX_PARAM),
            )
    kept = {k: v for k, v in params.items() if v}  # for a new window, should the cookie be lost
    oidc = Login(flask_request, kept, **tool_parts(state(), flask_request))
    try:
        return oidc.redirect(url_for("lti.launch", _external=True))  # the redirect URI registered in the LMS
    except (OIDCException, LtiException) as exc:
        return refuse_why(exc)


@bp.get("/launch")
def launch_opened() -> str:
    """Say that the exercise opens from the course (an LMS's link check, or the address in a browser)."""
    return render_template(
        "lti-refused.html",
        title=gettext("Open the exercise from your course"),
        detail=gettext(
            "This is the address a course's LMS launches the exercise at. Open the activity in the course; "
            "the exercise opens here, with your grade going to the course."
        ),
        new_window=None,
    )


@bp.post("/launch")
def launch() -> Response:
    """Check the LMS's launch and show the exercise to the learner it names."""
    if refused := too_many():
        return refused
    tool = state()
    flask_request = FlaskRequest()
    message = Launch(flask_request, **tool_parts(tool, flask_request), requests_session=TimeoutSession())
    try:
        data = message.get_launch_data()
    except (LtiException, OIDCException) as exc:
        if "Registration not found" in str(exc) and tool["store"].registrations(unverified_issuer()):
            return refuse(403, N_("This launch was meant for another tool"), WRONG_AUDIENCE)
        if "State not found" in str(exc) and tool["keys"].unseal(request.form.get("state") or "") is not None:
            status, title, _detail = COOKIE_LOST  # a login of this tool's: the browser lost its cookie
            return refuse(status, title, NEW_WINDOW, new_window_url())
        return refuse_why(exc)
    except (TypeError, AttributeError, KeyError, ValueError) as exc:  # a claim pylti1p3 could not read
        reason = f"a claim of the wrong kind: {exc}"
        return refuse(400, N_("The launch could not be read"), UNREADABLE, reason=reason)
    try:
        check_claims(data)
        presentation = data.get(PRESENTATION)
        g.launch_locale = (
            presentation.get("locale") if isinstance(presentation, dict) else None
        )  # server/i18n.py
    except ClaimError as exc:
        return refuse(400, N_("The launch could not be read"), UNREADABLE, reason=str(exc))
    if message.is_deep_link_launch():
        if not may_deep_link(data):
            return refuse(
                403,
                N_("Only a teacher can add the exercise"),
                N_("Adding the exercise to a course is for its instructors and the LMS's administrators."),
            )
        return deep_link(message, data)
    if data.get(MESSAGE_TYPE) != "LtiResourceLinkRequest":
        return refuse(
            400,
            N_("This launch does not open an activity"),
            N_("Only resource link launches open the exercise."),
        )
    context = data.get(CONTEXT) or {}
    registration = tool["store"].registration(data["iss"], message.get_client_id()) or {}
    course = context.get("title") or context.get("label") or registration.get("title") or data["iss"]
    launch_id = uuid.uuid4().hex
    tool["store"].add_launch(
        {
            "id": launch_id,
            "issuer": data["iss"],
            "client_id": message.get_client_id(),
            "deployment_id": data[DEPLOYMENT],
            "sub": data["sub"],
            "resource_link_id": data[RESOURCE_LINK]["id"],
            "course": course,
            "ags": data.get(AGS),
            "created": time.time(),
        }
    )
    config = page_config()
    grades = bool((data.get(AGS) or {}).get("lineitem"))
    config["lti"] = {
        "launch": tool["keys"].launch_token(launch_id, current_app.config["LTI_LAUNCH_TOKEN_S"]),
        "course": course,
        "grades": grades,  # False: the course takes no grade from this link; the page says nothing of one
        "retry": url_for("lti.retry"),
        "learner": tool["keys"].learner_id(data["iss"], data["sub"]),  # the page keys its storage by it
    }
    response = make_response(render_page(config))
    response.headers.update(page_headers(current_app.config))
    response.headers["Cache-Control"] = "no-store"  # the launch token is this learner's
    return response


def deep_link(message: FlaskMessageLaunch, data: dict) -> Response:
    """Offer the exercise to a teacher adding an activity: a signed Deep Linking response, sent on a click."""
    title = gettext(EXERCISE_TITLE)  # in the teacher's language: the LMS shows it to the course as given
    resource = (
        DeepLinkResource()
        .set_url(url_for("lti.launch", _external=True))
        .set_title(title)
        .set_lineitem(LineItem().set_label(title).set_score_maximum(1).set_resource_id("backward"))
    )
    settings = data[DEEP_LINKING]
    return_url = settings["deep_link_return_url"]
    response = make_response(
        render_template(
            "lti-deep-link.html",
            title=title,
            return_url=return_url,
            response_jwt=message.get_deep_link().get_response_jwt([resource]),
        )
    )
    target = urlsplit(return_url)
    policy = response_headers(current_app.config)["Content-Security-Policy"]
    policy = re.sub(r"form-action[^;]*", f"form-action {target.scheme}://{target.netloc}", policy)
    response.headers["Content-Security-Policy"] = policy  # the form goes back to the LMS, and only there
    response.headers["Cache-Control"] = "no-store"
    return response


def launch_from_token(token: object) -> dict | None:
    """The launch a page's token names, or None when the token does not check out."""
    if not isinstance(token, str):
        return None
    try:
        launch_id = state()["keys"].launch_of(token)
    except jwt.PyJWTError:
        return None
    return state()["store"].launch(launch_id)


def grade_state(launch: dict, rows: list[dict] | None) -> dict:
    """What the page says of the grade, from the launch's passbacks (none: the course takes none).

    sent: the LMS has it; kept: the LMS answered that it has a newer grade (a 409, final); sending: a
    try is due or under way (the page asks again in a moment); pending: the last try failed (Retry).
    """
    course = launch["course"]
    if not rows:
        return {"state": "none", "course": course, "message": ""}
    waiting = [r for r in rows if r["state"] == "pending"]
    now = time.time()
    if any(r["attempts"] == 0 or r["next_try"] <= now or r["claimed_until"] > now for r in waiting):
        return {
            "state": "sending",
            "course": course,
            "message": gettext("Sending to %(course)s…", course=course),
        }
    if waiting:
        return {
            "state": "pending",
            "course": course,
            "message": gettext("Could not reach %(course)s.", course=course),
        }
    if all(r["state"] == "kept" for r in rows):
        message = gettext(
            "%(course)s already has a newer grade for this activity, and keeps it.", course=course
        )
        return {"state": "kept", "course": course, "message": message}
    return {"state": "sent", "course": course, "message": gettext("Sent to %(course)s.", course=course)}


def record_pass(launch: dict, report: dict, jti: str) -> dict:
    """After /verify: queue a verified pass of a launched learner for the sender; what the page says of it.

    Nothing here waits on the LMS: the sender thread (server/lti/passback.py) sends it, and the page
    asks lti/grade how it went.
    """
    tool = state()
    if report.get("passed") is not True:
        return grade_state(launch, None) | {"state": "unchanged"}
    if passback.queue_pass(tool["store"], launch, jti) is None:
        return grade_state(launch, None)
    tool["sender"].wake()
    return grade_state(launch, tool["store"].passbacks_of(launch["id"]))


@bp.post("/grade")
def retry() -> tuple[Response, int]:
    """Say where this launch's grades are; with {"retry": true}, have the pending ones sent now."""
    payload = request.get_json(silent=True)
    launch = launch_from_token(payload.get("launch") if isinstance(payload, dict) else None)
    if launch is None:
        return jsonify(
            error=gettext("This launch has expired; open the exercise from the course again.")
        ), 400
    config = current_app.config
    if wait := limits().hit("lti-grade", config["LTI_GRADE_RATE_LIMIT"], 60, launch["id"]):
        response = jsonify(error=gettext("Asked too often; try again in a moment."))
        response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        return response, 429
    tool = state()
    if payload.get("retry") is True and tool["store"].retry_now(launch["id"]):
        tool["sender"].wake()
    return jsonify(grade_state(launch, tool["store"].passbacks_of(launch["id"]))), 200


@bp.get("/jwks.json")
def jwks() -> Response:
    """Publish the tool's public key, which platforms use to check its service requests."""
    response = jsonify(state()["keys"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response
