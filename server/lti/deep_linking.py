"""LTI Deep Linking: the pages that offer a teacher adding an activity each served exercise, then that
exercise's verdicts and the languages, and the signed response that sends their choice to the LMS (its
route is on server/lti/views.py's blueprint).

The teacher's launch comes through server/lti/views.py's launch; the choice is kept in the activity's
custom parameters (server/lti/activity.py). Everything here speaks to a teacher.
"""

import re

from flask import Response, current_app, g, make_response, render_template, request, url_for
from flask_babel import gettext
from pylti1p3.contrib.flask import FlaskMessageLaunch
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from engine.words import N_
from server.exercises.folder import Exercise
from server.http.headers import response_headers
from server.lti import activity, state
from server.lti.claims import DEEP_LINKING, DEPLOYMENT, web_origin
from server.lti.refusals import refuse, too_many
from server.lti.tool import registration_of
from server.page.exercise import Shown
from server.page.i18n import languages, name_of, select_locale

# An activity's title, in the language of the teacher's Deep Linking launch (the LMS keeps it as given).
ACTIVITY_TITLE = N_("Backprop playground: %(title)s")
# An activity of the whole course, added together: its exercise's place in the course, and its title.
COURSE_ACTIVITY_TITLE = N_("Backprop playground %(place)s of %(count)s: %(title)s")
# The choice of the whole course on the first page: not an exercise's id (they start with a letter).
WHOLE_COURSE = "_course"


def accepts_several(settings: dict) -> bool:
    """Whether the LMS takes several items in one Deep Linking response: unless its settings'
    accept_multiple says false (a boolean, or the text some LMSs send)."""
    said = settings.get("accept_multiple")
    return not (said is False or (isinstance(said, str) and said.strip().lower() == "false"))


def title_of(exercise: Exercise) -> str:
    """An exercise's title as plain text, in the request's language (its statement's first line)."""
    return Shown(exercise, select_locale()).title()


def deep_link(message: FlaskMessageLaunch, data: dict) -> Response:
    """Offer the served exercises to a teacher adding an activity (one served: its verdicts at once), in a
    plain form that posts the choice back here (deep_link_chosen signs the LMS's response with it)."""
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
    served = activity.served()
    if len(served) == 1:
        return verdicts_page(token, served[0])
    offered = [{"id": e.id, "title": title_of(e)} for e in served]
    page = render_template(
        "lti-deep-link.html",
        title=gettext("Backprop playground"),
        token=token,
        exercises=offered,
        whole_course=WHOLE_COURSE,
        several=accepts_several(data[DEEP_LINKING]),
    )
    return deep_link_page(page, "'self'")


def verdicts_page(token: str, exercise: Exercise) -> Response:
    """The second step: the exercise's verdicts and the languages, for the offer token's teacher."""
    page = render_template(
        "lti-deep-link.html",
        title=gettext(ACTIVITY_TITLE, title=title_of(exercise)),
        token=token,
        exercise=exercise.id,
        exercise_title=title_of(exercise),
        verdicts=[(rule, activity.verdict_words(exercise, rule)) for rule in exercise.verdicts()],
        verdict=activity.default_verdict(exercise),
        languages=[(code, name_of(code)) for code in languages()],
        learners_own=activity.LEARNERS_OWN,
    )
    return deep_link_page(page, "'self'")


def deep_link_chosen() -> Response:
    """The teacher's choice: an exercise (then its verdicts' page), or its verdict and language too (then
    the signed Deep Linking response, in a page that sends it to the LMS)."""
    if refused := too_many():
        return refused
    token = request.form.get("offer") or ""
    offer = activity.offered(state()["keys"], token)
    if offer is None:
        return refuse(
            403,
            N_("This choice did not come from the playground's page"),
            N_("Its offer is altered or over an hour old. Add the exercise from the course again."),
        )
    g.launch_locale = offer.get("locale")  # the teacher's LMS language, as on the page they chose on
    asked = request.form.get("exercise")
    if asked == WHOLE_COURSE:
        return course_chosen(token, offer)
    exercise = activity.exercise(asked)
    if exercise is None:
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_(
                "The playground serves no exercise %(exercise)s; it serves %(known)s. "
                "Choose one on the page, then add the exercise again."
            ),
            exercise=repr(str(asked)[:100]),
            known=", ".join(e.id for e in activity.served()),
        )
    if "verdict" not in request.form:  # the exercise chosen: now its verdicts and the language
        return verdicts_page(token, exercise)
    rule, language = request.form.get("verdict"), request.form.get("language")
    if rule not in exercise.verdicts():
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_(
                "The exercise %(exercise)s has no verdict %(verdict)s; it has %(known)s. "
                "Choose one on the page, then add the exercise again."
            ),
            exercise=exercise.id,
            verdict=repr(str(rule)[:100]),
            known=", ".join(exercise.verdicts()),
        )
    if language != activity.LEARNERS_OWN and language not in languages():
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_("Choose a verdict and a language on the page, then add the exercise again."),
        )
    # in the teacher's language: the LMS shows it to the course as given
    title = gettext(ACTIVITY_TITLE, title=title_of(exercise))
    response_jwt = signed_response(offer, [resource_of(title, exercise, rule, language)])
    if isinstance(response_jwt, Response):
        return response_jwt
    return_url = offer["settings"]["deep_link_return_url"]  # an http(s) URL with a plain host (claims.py)
    page = render_template(
        "lti-deep-link.html",
        title=title,
        return_url=return_url,
        response_jwt=response_jwt,
        exercise=exercise.id,
        exercise_title=title_of(exercise),
        verdict=rule,
        verdict_words=activity.verdict_words(exercise, rule),
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


def resource_of(title: str, exercise: Exercise, rule: str, language: str) -> DeepLinkResource:
    """One activity of the response: a resource link to the launch, titled title, with a line item of
    1 point (its resource id: the exercise's), and the choice as its custom parameters."""
    return (
        DeepLinkResource()
        .set_url(url_for("lti.launch", _external=True))
        .set_title(title)
        .set_lineitem(LineItem().set_label(title).set_score_maximum(1).set_resource_id(exercise.id))
        .set_custom_params(activity.custom_params(exercise.id, rule, language))
    )


def signed_response(offer: dict, resources: list[DeepLinkResource]) -> str | Response:
    """The Deep Linking response's JWT, signed with the tool's key, for the offer's LMS (a refusal page:
    its registration is gone)."""
    tool = state()
    row = tool["store"].registration(offer["issuer"], offer["client_id"])
    if row is None:
        return refuse(
            403,
            N_("This course's platform is not registered here"),
            N_("Its registration was removed since the page opened. Ask the playground's administrator."),
        )
    link = DeepLink(registration_of(row, tool["keys"]), offer["deployment_id"], offer["settings"])
    return link.get_response_jwt(resources)


def course_chosen(token: str, offer: dict) -> Response:
    """The whole course chosen: the page that lists its activities and offers the language, then (the
    language chosen) the signed response with one activity per served exercise, in the course's order,
    each with its exercise's default verdict."""
    served = activity.served()
    if len(served) < 2 or not accepts_several(offer["settings"]):
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_("This course's LMS takes one activity at a time here: choose one exercise on the page."),
        )
    items = [
        {
            "exercise": e,
            "id": e.id,
            "title": gettext(COURSE_ACTIVITY_TITLE, place=k, count=len(served), title=title_of(e)),
            "verdict": activity.default_verdict(e),
            "verdict_words": activity.verdict_words(e, activity.default_verdict(e)),
        }
        for k, e in enumerate(served, 1)
    ]
    if "language" not in request.form:
        page = render_template(
            "lti-deep-link.html",
            title=gettext("Backprop playground"),
            token=token,
            exercise=WHOLE_COURSE,
            course_items=items,
            languages=[(code, name_of(code)) for code in languages()],
            learners_own=activity.LEARNERS_OWN,
        )
        return deep_link_page(page, "'self'")
    language = request.form.get("language")
    if language != activity.LEARNERS_OWN and language not in languages():
        return refuse(
            400,
            N_("This choice is not one the page offers"),
            N_("Choose a language on the page, then add the course again."),
        )
    resources = [resource_of(i["title"], i["exercise"], i["verdict"], language) for i in items]
    response_jwt = signed_response(offer, resources)
    if isinstance(response_jwt, Response):
        return response_jwt
    return_url = offer["settings"]["deep_link_return_url"]  # an http(s) URL with a plain host (claims.py)
    page = render_template(
        "lti-deep-link.html",
        title=gettext("Backprop playground"),
        return_url=return_url,
        response_jwt=response_jwt,
        course_items=items,
        language=name_of(language) if language else None,
    )
    return deep_link_page(page, web_origin(return_url))
