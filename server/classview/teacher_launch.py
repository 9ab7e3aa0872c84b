"""The class view's answer to a teacher's launch: a teacher's token for the launch's activity, and the
overview it opens (registered with the launch by server/classview/__init__.py's init_app: the launch, in
server/lti/, never imports the class view).
"""

from flask import Response, current_app, redirect, url_for

from server.classview.pages import private
from server.classview.token import teacher_token
from server.lti import activity, roles, state
from server.lti.claims import CONTEXT, DEPLOYMENT, PRESENTATION, RESOURCE_LINK, ROLES

NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"


def opened_by_teacher(data: dict, client_id: str, launch_id: str) -> Response:
    """A teacher's launch (server/lti/views.py): the class view of the launch's activity, not the exercise.

    Its token names the launch, whose row (server/lti/store.py) holds the course's and the activity's
    titles: an LMS's titles can be long (a few thousand bytes of UTF-8), and the view's every address
    carries the token, which a server takes in a request line of 4 KB at most (gunicorn's)."""
    context = data.get(CONTEXT) or {}
    nrps = data.get(NRPS)
    memberships = nrps.get("context_memberships_url") if isinstance(nrps, dict) else None
    presentation = data.get(PRESENTATION)
    link = data[RESOURCE_LINK]
    choice = activity.chosen(data)  # the teacher's choice for the activity (checked at launch)
    exercise = activity.exercise(choice.exercise)
    view = {
        "issuer": data["iss"],
        "course": str(context.get("id") or ""),
        "activity": link["id"],
        "client_id": client_id,
        "deployment_id": data[DEPLOYMENT],  # checked, with the registration, on every request
        "memberships": memberships if isinstance(memberships, str) else None,
        "locale": presentation.get("locale") if isinstance(presentation, dict) else None,
        "launch": launch_id,  # its titles (titles(): the launch's row, not the address)
        "exercise": choice.exercise,  # the activity's: the view counts its Checks, in its words
        # what a pass means here: the teacher's choice, else the server's setting (where the exercise has it)
        "rule": choice.rule or activity.default_verdict(exercise),
        "language": choice.language,  # the activity's exercise's (exercise.py); None: not chosen
    }
    if roles.assists(data.get(ROLES)):  # a teaching assistant: the class view, not Delete (lti/roles.py)
        view["tutor"] = True
    token = teacher_token(state()["keys"], view, int(current_app.config["LTI_TEACHER_TOKEN_S"]))
    return private(redirect(url_for("classview.overview", t=token), 303))
