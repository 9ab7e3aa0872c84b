"""A launched page's grade: the launch its token names, a verified pass queued, what the page says of it.

/verify (server/verify/views.py) asks launch_from_token who a launched page's learner is and hands their
verified pass to record_pass; the page asks lti/grade how it went, and has it tried again (Retry).
Nothing here waits on the LMS: a task on the queue (server/lti/passback.py) sends.
"""

import math
import time

import jwt
from flask import Blueprint, Response, current_app, jsonify
from flask_babel import gettext

from server.http.bounds import json_body
from server.http.limits import limits
from server.lti import passback, state

bp = Blueprint("lti_grades", __name__, url_prefix="/lti")


def launch_from_token(token: object) -> dict | None:
    """The launch a page's token names, or None when the token does not check out, or the launch is
    over: its learner's records deleted since, or its platform's registration removed (Store.live_launch)."""
    if not isinstance(token, str):
        return None
    try:
        launch_id = state()["keys"].launch_of(token)
    except jwt.PyJWTError:
        return None
    return state()["store"].live_launch(launch_id)


def grade_state(launch: dict, rows: list[dict] | None) -> dict:
    """What the page says of the grade, from the launch's passbacks (none: the course takes none).

    sent: the LMS has it; kept: the LMS answered that it has a newer grade (a 409, final); sending: its
    first try is yet to come, the learner's Retry asked for one now (next_try 0), or a try is under way
    (the page asks again in a moment); pending: the last try failed, and it says so until a try gets
    through or is asked for (a scheduled try's time coming changes nothing: the queue takes a due try
    within a second or so, and "sending" meanwhile would hide that the LMS could not be reached);
    failed: the LMS refused it (a 4xx, final), or its last try went unanswered (a later pass queues
    the grade again).
    """
    course = launch["course"]
    if not rows:
        return {"state": "none", "course": course, "message": ""}
    waiting = [r for r in rows if r["state"] == "pending"]
    now = time.time()
    if any(r["attempts"] == 0 or r["next_try"] == 0 or r["claimed_until"] > now for r in waiting):
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
    states = {r["state"] for r in rows}
    if "sent" in states:
        return {"state": "sent", "course": course, "message": gettext("Sent to %(course)s.", course=course)}
    if "kept" in states:
        message = gettext(
            "%(course)s already has a newer grade for this activity, and keeps it.", course=course
        )
        return {"state": "kept", "course": course, "message": message}
    status = rows[-1]["status"]  # failed, each: the latest says why
    if passback.refused(status):
        message = gettext(
            "%(course)s refused this grade (error %(status)s); tell your teacher.",
            course=course,
            status=status,
        )
    else:
        message = gettext("This grade could not be sent to %(course)s; tell your teacher.", course=course)
    return {"state": "failed", "course": course, "message": message}


def record_pass(launch: dict, report: dict, jti: str) -> dict:
    """After /verify: queue a verified pass of a launched learner and enqueue its sending (the launch's
    first, or one after a score that failed); what the page says of the launch's grade."""
    tool = state()
    if report.get("passed") is not True:
        return grade_state(launch, None) | {"state": "unchanged"}
    if launch.get("teacher") or not passback.takes_grades(launch):  # a teacher's try (the class view's
        return grade_state(launch, None)  # Open the exercise) goes to no gradebook
    if passback.queue_pass(tool["store"], launch, jti) is not None:  # None: its score is sent or on its way
        tool["passbacks"].send(jti)
    return grade_state(launch, tool["store"].passbacks_of(launch["id"]))


@bp.post("/grade")
def retry() -> tuple[Response, int]:
    """Say where this launch's grades are; with {"retry": true}, have the pending ones sent now."""
    payload = json_body()  # within the route's limit (server/http/bounds.py); odd JSON is a 400 there
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
        tool["passbacks"].retry(tool["store"], launch["id"])
    return jsonify(grade_state(launch, tool["store"].passbacks_of(launch["id"]))), 200
