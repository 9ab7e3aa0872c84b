"""The class view's "Open the exercise": the exercise its learners get, for their teacher to try.

The activity's exercise (its page, as server/page/ makes it), its verdict and language (the teacher's
choice in Deep Linking, server/lti/activity.py; kept in the teacher's token at launch), else the server's
PLAYGROUND_VERDICT (where the exercise has it) and the teacher's LMS's language. The page carries a launch
token of the teacher's own launch, so /verify judges a pass of that exercise by the activity's verdict
as it judges its learners' (code a teacher pastes from a learner's timeline is judged as the learner's
was); a teacher's launch is not one of the class, so nothing of it is recorded (server/records/), and it
takes no grade (server/lti/grades.py).
"""

from flask import Response, current_app, g, make_response, url_for

from server.classview.pages import exercise_id
from server.classview.views import bp
from server.lti import state
from server.page.page import page_config, render_page
from server.page.policy import page_headers


def teachers_lti(view: dict) -> dict | None:
    """The page's LTI part for the teacher's own launch (None: its row is gone, so no launch token)."""
    tool = state()
    launch = tool["store"].live_launch(view["launch"]) if isinstance(view.get("launch"), str) else None
    if launch is None or (launch["issuer"], launch["resource_link_id"]) != (view["issuer"], view["activity"]):
        return None
    return {
        "launch": tool["keys"].launch_token(launch["id"], current_app.config["LTI_LAUNCH_TOKEN_S"]),
        "course": launch["course"],
        "grades": False,  # a teacher's pass goes to no gradebook
        "retry": url_for("lti_grades.retry"),
        "learner": tool["keys"].storage_key(launch["issuer"], launch["sub"]),  # their code kept apart
        "lastCheck": None,
    }


@bp.get("/exercise")
def exercise() -> Response:
    """The activity's exercise, as its learners get it: its verdict, its language."""
    view = g.class_view
    if isinstance(view.get("language"), str):  # the activity's, over the teacher's LMS's (before_request)
        g.launch_locale = view["language"]
    # the activity's exercise, its verdict (checked at launch; the server's when none was chosen)
    config = page_config(view.get("rule"), exercise_id(view))
    if lti := teachers_lti(view):
        config["lti"] = lti
    response = make_response(render_page(config))
    response.headers.update(page_headers(current_app.config))
    return response  # never kept, no referrer: the class view's (pages.py's private)
