"""The LTI 1.3 launch's endpoints: OIDC login, launch (the page, or Deep Linking), the tool's JWKS.

A refused login or launch gets a page from server/lti/refusals.py; a launched page's grade is
server/lti/grades.py's; Deep Linking's offer and the teacher's choice, server/lti/deep_linking.py's; a
teacher's launch opens what the class view registered (on_teacher_launch, server/lti/__init__.py).
"""

import time
import uuid

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
from pylti1p3.contrib.flask import FlaskRequest
from pylti1p3.exception import LtiException, OIDCException
from werkzeug.exceptions import RequestEntityTooLarge

from engine.words import N_
from server.http.bounds import body_limit, keepable
from server.lti import activity, state
from server.lti.claims import (
    AGS,
    CONTEXT,
    DEPLOYMENT,
    MESSAGE_TYPE,
    PRESENTATION,
    RESOURCE_LINK,
    ROLES,
    ClaimError,
    check_claims,
    may_deep_link,
    shared_name,
    text,
)
from server.lti.deep_linking import deep_link, deep_link_chosen
from server.lti.oidc import Launch, Login, tool_parts
from server.lti.refusals import UNREADABLE, refuse, refuse_launch, refuse_why, too_many
from server.lti.roles import learns, teaches
from server.lti.tool import TimeoutSession
from server.page.page import page_config, render_page
from server.page.policy import page_headers

bp = Blueprint("lti", __name__, url_prefix="/lti")

LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "lti_deployment_id", "client_id")
MAX_PARAM = 2048  # characters of one login parameter (Canvas's lti_message_hint, a JWT, is ~600)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_: RequestEntityTooLarge) -> Response:
    """Refuse a login or launch over its body limit (server/http/bounds.py) with a page, as any other
    refusal."""
    return refuse(
        413,
        N_("This request is not one an LMS sends"),
        N_(
            "It is over %(limit)s bytes, more than an LMS sends here. "
            "Open the exercise from the course again."
        ),
        limit=format_number(body_limit(request.endpoint)),
    )


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
        if value is not None and not keepable(value):
            return refuse(
                400,
                N_("This login request is not one an LMS sends"),
                N_(
                    "Its %(name)s holds a character that is not text. "
                    "Open the exercise from the course again."
                ),
                name=name,
            )
    kept = {k: v for k, v in params.items() if v}  # for a new window, should the cookie be lost
    tool = state()
    oidc = Login(flask_request, kept, tool["keys"], **tool_parts(tool, flask_request))
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
        return refuse_launch(exc)
    except ClaimError as exc:  # text no database keeps, found before anything was looked up
        return refuse(400, N_("The launch could not be read"), UNREADABLE, reason=str(exc))
    except (TypeError, AttributeError, KeyError, ValueError) as exc:  # a claim pylti1p3 could not read
        reason = f"a claim of the wrong kind: {exc}"
        return refuse(400, N_("The launch could not be read"), UNREADABLE, reason=reason)
    try:
        check_claims(data)
        presentation = data.get(PRESENTATION)
        g.launch_locale = (
            presentation.get("locale") if isinstance(presentation, dict) else None
        )  # server/page/i18n.py
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
    try:  # the teacher's choice for this activity (Deep Linking); none: the seed's exercise (LEGACY)
        exercise, rule, language = activity.chosen(data)
    except activity.UnknownChoice as exc:
        return unknown_choice(exc)
    if language:  # the activity's language, over the LMS's (the learner may still switch on the page)
        g.launch_locale = language
    context = data.get(CONTEXT) or {}
    registration = tool["store"].registration(data["iss"], message.get_client_id()) or {}
    course = context.get("title") or context.get("label") or registration.get("title") or data["iss"]
    launch_id = uuid.uuid4().hex
    teacher = teaches(data.get(ROLES))  # Instructor, TA, Administrator (server/lti/roles.py)
    learner = learns(data.get(ROLES))  # the class: a Learner, no teacher (an Observer, a Designer: not)
    link_title = data[RESOURCE_LINK].get("title")
    context_id = context.get("id") if text(context.get("id")) else None  # the course, as records name it
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
            "context_id": context_id,
            "teacher": teacher,
            "learner": learner,
            "activity_title": link_title if isinstance(link_title, str) else None,
            "exercise": exercise,
            "rule": rule,
            "language": language,
        }
    )
    if teacher:  # a teacher: the class view (server/classview/), one click from the exercise
        return tool["teacher_launch"](data, message.get_client_id(), launch_id)
    last_check = None  # the code of this learner's last Check here, for a browser that kept none
    if learner and "records" in current_app.extensions:  # the class view counts who opened it
        from server.db import database
        from server.records import store

        where = (data["iss"], context_id or "", data[RESOURCE_LINK]["id"], data["sub"])
        with database().connect() as conn:
            learner_id = tool["keys"].learner_id(data["iss"], context_id or "", data["sub"])  # per course
            store.opened(conn, *where, learner_id, shared_name(data))
            last_check = store.last_source(conn, *where, exercise)
    config = page_config(rule, exercise)  # its page: P3's, with the activity's verdict and language
    grades = bool((data.get(AGS) or {}).get("lineitem"))
    config["lti"] = {
        "launch": tool["keys"].launch_token(launch_id, current_app.config["LTI_LAUNCH_TOKEN_S"]),
        "course": course,
        "grades": grades,  # False: the course takes no grade from this link; the page says nothing of one
        "retry": url_for("lti_grades.retry"),
        "learner": tool["keys"].storage_key(data["iss"], data["sub"]),  # the page keys its storage by it
        # the editor's code where this browser kept none of the learner's (boot/restore-code.js)
        "lastCheck": last_check,
    }
    response = make_response(render_page(config))
    response.headers.update(page_headers(current_app.config))
    response.headers["Cache-Control"] = "no-store"  # the launch token is this learner's
    return response


# the teacher's choice of verdict and language, posted from the page deep_link offers (deep_linking.py)
bp.add_url_rule("/deep-link", "deep_link_chosen", deep_link_chosen, methods=["POST"])


@bp.get("/jwks.json")
def jwks() -> Response:
    """Publish the tool's public key, which platforms use to check its service requests."""
    response = jsonify(state()["keys"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def unknown_choice(exc: activity.UnknownChoice) -> Response:
    """The refusal of a launch whose activity asks for an exercise, verdict or language not offered here."""
    said = (
        N_(
            "Its custom parameter %(name)s is %(value)s; the playground has %(known)s. "
            "Tell your teacher: they can choose again in the activity's settings."
        )
        if exc.named
        else N_(
            "It names no exercise (it was added before the playground had several), so it opens "
            "%(value)s, which this playground does not offer; it has %(known)s. "
            "Tell your teacher: they can choose again in the activity's settings."
        )
    )
    return refuse(
        400,
        N_("This activity asks for something the playground does not have"),
        said,
        name=exc.name,
        value=repr(exc.value),
        known=", ".join(exc.known),
    )
