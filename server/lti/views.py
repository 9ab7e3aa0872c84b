"""The LTI 1.3 launch's endpoints: OIDC login, launch (the page, or Deep Linking), the tool's JWKS.

A refused login or launch gets a page from server/lti/refusals.py; a launched page's grade is
server/lti/grades.py's.
"""

import re
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
from pylti1p3.contrib.flask import FlaskMessageLaunch, FlaskRequest
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem
from werkzeug.exceptions import RequestEntityTooLarge

from engine.words import N_
from exercises.backward.seed import VERDICTS
from server.bounds import body_limit, keepable
from server.classview.roles import learns, teaches
from server.classview.views import opened_by_teacher
from server.headers import page_headers, response_headers
from server.i18n import languages, name_of
from server.lti import activity, state
from server.lti.claims import (
    AGS,
    CONTEXT,
    DEEP_LINKING,
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
    web_origin,
)
from server.lti.oidc import Launch, Login, tool_parts
from server.lti.refusals import UNREADABLE, refuse, refuse_launch, refuse_why, too_many
from server.lti.tool import TimeoutSession, registration_of
from server.page import page_config, render_page

bp = Blueprint("lti", __name__, url_prefix="/lti")

LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "lti_deployment_id", "client_id")
MAX_PARAM = 2048  # characters of one login parameter (Canvas's lti_message_hint, a JWT, is ~600)
# The activity's title, in the language of the teacher's Deep Linking launch (the LMS keeps it as given).
EXERCISE_TITLE = N_("Backprop playground: write backward(out)")


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_: RequestEntityTooLarge) -> Response:
    """Refuse a login or launch over its body limit (server/bounds.py) with a page, as any other refusal."""
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
    try:
        rule, language = activity.chosen(data)  # the teacher's choice for this activity (Deep Linking)
    except activity.UnknownChoice as exc:
        return refuse(
            400,
            N_("This activity asks for something the playground does not have"),
            N_(
                "Its custom parameter %(name)s is %(value)s; the playground has %(known)s. "
                "Tell your teacher: they can choose again in the activity's settings."
            ),
            name=exc.name,
            value=repr(exc.value),
            known=", ".join(exc.known),
        )
    if language:  # the activity's language, over the LMS's (the learner may still switch on the page)
        g.launch_locale = language
    context = data.get(CONTEXT) or {}
    registration = tool["store"].registration(data["iss"], message.get_client_id()) or {}
    course = context.get("title") or context.get("label") or registration.get("title") or data["iss"]
    launch_id = uuid.uuid4().hex
    teacher = teaches(data.get(ROLES))  # Instructor, TA, Administrator (server/classview/roles.py)
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
            "rule": rule,
            "language": language,
        }
    )
    if teacher:  # a teacher: the class view (server/classview/), one click from the exercise
        return opened_by_teacher(data, message.get_client_id(), launch_id)
    last_check = None  # the code of this learner's last Check here, for a browser that kept none
    if learner and "records" in current_app.extensions:  # the class view counts who opened it
        from server.db import database
        from server.records import store

        where = (data["iss"], context_id or "", data[RESOURCE_LINK]["id"], data["sub"])
        with database().connect() as conn:
            learner_id = tool["keys"].learner_id(data["iss"], context_id or "", data["sub"])  # per course
            store.opened(conn, *where, learner_id, shared_name(data))
            last_check = store.last_source(conn, *where)
    config = page_config(rule)
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


def deep_link(message: FlaskMessageLaunch, data: dict) -> Response:
    """Offer the exercise to a teacher adding an activity: the verdicts and languages to choose from, in a
    plain form that posts the choice back here (deep_link_chosen signs the LMS's response with it)."""
    title = gettext(EXERCISE_TITLE)
    token = activity.offer(
        state()["keys"],
        {
            "issuer": data["iss"],
            "client_id": message.get_client_id(),
            "deployment_id": data[DEPLOYMENT],
            "settings": data[DEEP_LINKING],
            "locale": g.get("launch_locale"),
        },
    )
    page = render_template(
        "lti-deep-link.html",
        title=title,
        token=token,
        verdicts=[(rule, gettext(words)) for rule, words in activity.VERDICT_WORDS.items()],
        verdict=current_app.config["VERDICT"],
        languages=[(code, name_of(code)) for code in languages()],
        learners_own=activity.LEARNERS_OWN,
    )
    return deep_link_page(page, "'self'")


@bp.post("/deep-link")
def deep_link_chosen() -> Response:
    """Sign the Deep Linking response with the teacher's choice; a page that sends it to the LMS."""
    if refused := too_many():
        return refused
    offer = activity.offered(state()["keys"], request.form.get("offer") or "")
    if offer is None:
        return refuse(
            403,
            N_("This choice did not come from the playground's page"),
            N_("Its offer is altered or over an hour old. Add the exercise from the course again."),
        )
    g.launch_locale = offer.get("locale")  # the teacher's LMS language, as on the page they chose on
    rule, language = request.form.get("verdict"), request.form.get("language")
    if rule not in VERDICTS or (language != activity.LEARNERS_OWN and language not in languages()):
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_("Choose a verdict and a language on the page, then add the exercise again."),
        )
    tool = state()
    row = tool["store"].registration(offer["issuer"], offer["client_id"])
    if row is None:
        return refuse(
            403,
            N_("This course's platform is not registered here"),
            N_("Its registration was removed since the page opened. Ask the playground's administrator."),
        )
    title = gettext(EXERCISE_TITLE)  # in the teacher's language: the LMS shows it to the course as given
    resource = (
        DeepLinkResource()
        .set_url(url_for("lti.launch", _external=True))
        .set_title(title)
        .set_lineitem(LineItem().set_label(title).set_score_maximum(1).set_resource_id("backward"))
        .set_custom_params(activity.custom_params(rule, language))
    )
    settings = offer["settings"]
    link = DeepLink(registration_of(row, tool["keys"]), offer["deployment_id"], settings)
    return_url = settings["deep_link_return_url"]  # an http(s) URL with a plain host (claims.py)
    page = render_template(
        "lti-deep-link.html",
        title=title,
        return_url=return_url,
        response_jwt=link.get_response_jwt([resource]),
        verdict=rule,
        verdict_words=gettext(activity.VERDICT_WORDS[rule]),
        language=name_of(language) if language else None,
    )
    return deep_link_page(page, web_origin(return_url))


def deep_link_page(page: str, form_action: str | None) -> Response:
    """A Deep Linking page whose form goes to form_action, and only there (the tool, or the LMS)."""
    response = make_response(page)
    policy = response_headers(current_app.config)["Content-Security-Policy"]
    policy = re.sub(r"form-action[^;]*", f"form-action {form_action}", policy)
    response.headers["Content-Security-Policy"] = policy
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/jwks.json")
def jwks() -> Response:
    """Publish the tool's public key, which platforms use to check its service requests."""
    response = jsonify(state()["keys"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response
