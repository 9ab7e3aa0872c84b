"""The LTI 1.3 endpoints: OIDC login, launch (the page, or Deep Linking), the tool's JWKS, grade Retry."""

import re
import time
import uuid
from urllib.parse import urlsplit

import jwt
from flask import Blueprint, Response, current_app, jsonify, make_response, render_template, request, url_for
from pylti1p3.contrib.flask import FlaskMessageLaunch, FlaskOIDCLogin, FlaskRequest
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem

from server.headers import page_headers, response_headers
from server.lti import passback
from server.lti.tool import HTTP_TIMEOUT_S, DatabaseStorage, PartitionedCookies, TimeoutSession, ToolConf
from server.page import page_config, render_page

bp = Blueprint("lti", __name__, url_prefix="/lti")

CONTEXT = "https://purl.imsglobal.org/spec/lti/claim/context"
RESOURCE_LINK = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
DEPLOYMENT = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
MESSAGE_TYPE = "https://purl.imsglobal.org/spec/lti/claim/message_type"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "lti_deployment_id", "client_id")
NEW_WINDOW = (
    "Your browser blocked the cookie that ties this launch to its login inside the course's page. "
    "Open the exercise in a window of its own, where it can keep it."
)
EXERCISE_TITLE = "Backprop playground: write backward(out)"


def state() -> dict:
    """The LTI parts of the app: store, keys, settings."""
    return current_app.extensions["lti"]


def refuse(status: int, title: str, detail: str, new_window: str | None = None) -> tuple[str, int]:
    """A page that says why the launch was refused and what to do, with its status."""
    current_app.logger.info("LTI refused (%s): %s: %s", status, title, detail)
    return render_template("lti-refused.html", title=title, detail=detail, new_window=new_window), status


def new_window_url() -> str | None:
    """Where the learner can start this launch again in a window of its own (first-party cookies), or None.

    The login's parameters are kept in the database under its state, which the launch names.
    """
    kept = state()["store"].get("lti1p3-" + (request.form.get("state") or "")) or {}
    params = kept.get("login") if isinstance(kept, dict) else None
    return url_for("lti.login", **params, lti1p3_new_window="1") if params else None


def why(exc: Exception) -> tuple[int, str, str]:
    """The status, title and detail for what pylti1p3 refused."""
    text = str(exc) or type(exc).__name__
    if "Registration not found" in text or "Could not find registration" in text:
        return (
            403,
            "This course's platform is not registered here",
            (
                "The LMS (issuer and client id) that sent this launch is not registered with the playground. "
                "A teacher registers it with `flask --app server lti add-platform`."
            ),
        )
    if "Client id not registered" in text:
        return (
            403,
            "This launch was meant for another tool",
            f"Its audience is not a client registered here ({text}).",
        )
    if "deployment" in text.lower():
        return 403, "This deployment is not registered here", text
    if "State not found" in text or "Missing state" in text:
        return (
            400,
            "Your browser did not keep this launch's cookie",
            (
                "The launch could not be matched with its login: your browser blocked the cookie that "
                "ties them together. Open the exercise from the course again, or allow cookies for this site."
            ),
        )
    if "Nonce" in text:
        return (
            400,
            "This launch was already used",
            "A launch can be used once. Open the exercise from the course again.",
        )
    if "Resource Link" in text or "message type" in text.lower():
        return 400, "This launch does not name an activity", f"The LMS sent no resource link ({text})."
    return (
        400,
        "The launch could not be checked",
        (f"The LMS's launch message did not check out ({text}). Open the exercise from the course again."),
    )


WRONG_AUDIENCE = (
    "The LMS is registered here, but its launch names another client id (aud) than the one it registered."
)


def unverified_issuer() -> str:
    """The iss of the posted id_token, unchecked (only to choose the words of a refusal)."""
    try:
        return str(jwt.decode(request.form.get("id_token", ""), options={"verify_signature": False})["iss"])
    except (jwt.PyJWTError, KeyError):
        return ""


def tool_parts(tool: dict, flask_request: FlaskRequest) -> dict:
    """What pylti1p3's login and launch both take: the tool's config, its cookies, its launch storage."""
    return {
        "tool_config": ToolConf(tool["store"], tool["keys"]),
        "cookie_service": PartitionedCookies(flask_request),
        "launch_data_storage": DatabaseStorage(tool["store"]),
    }


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | tuple[str, int]:
    """Start the OIDC login an LMS initiates: check the platform, send the browser to its auth URL."""
    flask_request = FlaskRequest()
    oidc = FlaskOIDCLogin(flask_request, **tool_parts(state(), flask_request))
    params = {k: flask_request.get_param(k) for k in LOGIN_PARAMS}
    oidc.pass_params_to_launch({"login": {k: v for k, v in params.items() if v}})  # for a new window
    try:
        return oidc.redirect(url_for("lti.launch", _external=True))  # the redirect URI registered in the LMS
    except (OIDCException, LtiException) as exc:
        return refuse(*why(exc))


@bp.post("/launch")
def launch() -> Response | tuple[str, int]:
    """Check the LMS's launch and show the exercise to the learner it names."""
    tool = state()
    flask_request = FlaskRequest()
    message = FlaskMessageLaunch(
        flask_request, **tool_parts(tool, flask_request), requests_session=TimeoutSession()
    )
    try:
        data = message.get_launch_data()
    except (LtiException, OIDCException) as exc:
        if "Registration not found" in str(exc) and tool["store"].registrations(unverified_issuer()):
            return refuse(403, "This launch was meant for another tool", WRONG_AUDIENCE)
        status, title, detail = why(exc)
        if "State not found" in str(exc) and (url := new_window_url()):
            return refuse(status, title, NEW_WINDOW, url)
        return refuse(status, title, detail)
    if not isinstance(data.get("sub"), str) or not data["sub"]:
        return refuse(400, "This launch names no learner", "The LMS sent an anonymous launch (no sub).")
    if message.is_deep_link_launch():
        return deep_link(message, data)
    if data.get(MESSAGE_TYPE) != "LtiResourceLinkRequest":
        return refuse(
            400, "This launch does not open an activity", "Only resource link launches open the exercise."
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
    grades = bool(data.get(AGS, {}).get("lineitem"))
    config["lti"] = {
        "launch": tool["keys"].launch_token(launch_id, current_app.config["LTI_LAUNCH_TOKEN_S"]),
        "course": course,
        "grades": grades,  # False: the course takes no grade from this link; the page says nothing of one
        "retry": url_for("lti.retry"),
    }
    response = make_response(render_page(config))
    response.headers.update(page_headers(current_app.config))
    response.headers["Cache-Control"] = "no-store"  # the launch token is this learner's
    return response


def deep_link(message: FlaskMessageLaunch, data: dict) -> Response:
    """Offer the exercise to a teacher adding an activity: a signed Deep Linking response, sent on a click."""
    resource = (
        DeepLinkResource()
        .set_url(url_for("lti.launch", _external=True))
        .set_title(EXERCISE_TITLE)
        .set_lineitem(LineItem().set_label(EXERCISE_TITLE).set_score_maximum(1).set_resource_id("backward"))
    )
    settings = data[DEEP_LINKING]
    return_url = settings["deep_link_return_url"]
    response = make_response(
        render_template(
            "lti-deep-link.html",
            title=EXERCISE_TITLE,
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


def grade_state(launch: dict, jti: str | None, outcome: str | None) -> dict:
    """What the page says of the grade: sent, pending (Retry), or none (the course takes none)."""
    course = launch["course"]
    if jti is None or outcome is None:
        return {"state": "none", "course": course, "message": ""}
    if outcome == "sent":
        return {"state": "sent", "course": course, "message": f"Sent to {course}."}
    return {"state": "pending", "course": course, "message": f"Could not reach {course}."}


def record_pass(launch: dict, report: dict, jti: str) -> dict:
    """After /verify: queue and send a verified pass of a launched learner; what the page says of it."""
    if report.get("passed") is not True:
        return grade_state(launch, None, None) | {"state": "unchanged"}
    tool = state()
    queued = passback.queue_pass(tool["store"], launch, jti)
    if queued is None:
        return grade_state(launch, None, None)
    return grade_state(launch, queued, passback.send(tool["store"], tool["keys"], queued, tool["retry_s"]))


@bp.post("/grade")
def retry() -> tuple[Response, int]:
    """Send this launch's pending grades now (the learner's Retry); say where they are."""
    payload = request.get_json(silent=True)
    launch = launch_from_token(payload.get("launch") if isinstance(payload, dict) else None)
    if launch is None:
        return jsonify(error="This launch has expired; open the exercise from the course again."), 400
    tool = state()
    rows = tool["store"].passbacks_of(launch["id"])
    if not rows:
        return jsonify(grade_state(launch, None, None)), 200
    for row in rows:
        if row["state"] == "sent":
            continue
        if passback.send(tool["store"], tool["keys"], row["jti"], tool["retry_s"]) == "claimed":
            passback.settled(tool["store"], row["jti"], 2 * HTTP_TIMEOUT_S)  # another process is sending it
    sent = all(r["state"] == "sent" for r in tool["store"].passbacks_of(launch["id"]))
    return jsonify(grade_state(launch, rows[-1]["jti"], "sent" if sent else "pending")), 200


@bp.get("/jwks.json")
def jwks() -> Response:
    """Publish the tool's public key, which platforms use to check its service requests."""
    response = jsonify(state()["keys"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response
