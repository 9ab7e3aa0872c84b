"""LTI Deep Linking: the page that offers a teacher adding the exercise its verdicts and languages, and the
signed response that sends their choice to the LMS (its route is on server/lti/views.py's blueprint).

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
from exercises.backward.seed import VERDICTS
from server.http.headers import response_headers
from server.lti import activity, state
from server.lti.claims import DEEP_LINKING, DEPLOYMENT, web_origin
from server.lti.refusals import refuse, too_many
from server.lti.tool import registration_of
from server.page.i18n import languages, name_of

# The activity's title, in the language of the teacher's Deep Linking launch (the LMS keeps it as given).
EXERCISE_TITLE = N_("Backprop playground: write backward(out)")


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
