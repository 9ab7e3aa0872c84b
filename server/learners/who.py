"""Who a Check is of: the learner a request's tokens name (a course page's learner token, or an LTI
launch's), the one reading /verify and POST /record share, and the verdict rule that learner is judged by.

A launch token is read by LTI's own reader, which server/lti registers with its state
(`launch_from_token`) when LTI is on: this folder imports nothing of LTI's.
"""

from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext

from server.http.bounds import keepable
from server.learners.tokens import MAX_SUB, LearnerTokenError


class TokenRefused(Exception):
    """A learner or launch token did not check out (the message says so, to the learner)."""


@dataclass(frozen=True)
class Who:
    """The learner a request's token names, and where: the LTI platform, course (context) and activity
    (resource link) of a launch; a course page's learner token: its issuer and course claims ("" when it
    has none) and no activity ("")."""

    sub: str
    issuer: str
    course: str
    activity: str
    launch: dict | None = None


def claim_text(value: object) -> str:
    """A token's claim as a name records keep: short text, or "" for anything else."""
    return value if isinstance(value, str) and len(value) <= MAX_SUB and keepable(value) else ""


def learner_of(payload: dict, state: dict) -> Who | None:
    """The learner (and LTI launch) the request's tokens name, or None; TokenRefused when one is refused,
    or when the course configured learner tokens and neither names a learner."""
    token = payload.get("learner")
    who = None
    if token is not None and state["learners"] is not None:  # without a course's keys, no learner is known
        if not isinstance(token, str):
            raise TokenRefused(gettext("The learner token must be text."))
        try:
            claims = state["learners"].claims(token)
        except LearnerTokenError as exc:
            refused = gettext(
                "The learner token was refused (%(reason)s); reload the course's page.", reason=exc
            )
            raise TokenRefused(refused) from exc
        who = Who(claims["sub"], claim_text(claims.get("iss")), claim_text(claims.get("course")), "")
    # LTI hook (server/lti): a launched page's token names the learner, the course and the activity
    if payload.get("launch") is not None and "lti" in current_app.extensions:
        launch = current_app.extensions["lti"]["launch_from_token"](payload["launch"])
        if launch is None:
            raise TokenRefused(launch_over())
        context = launch.get("context_id") or ""
        who = Who(launch["sub"], launch["issuer"], context, launch["resource_link_id"], launch)
    if who is None and state["learners"] is not None:  # a course that names its learners: no anonymous pass
        raise TokenRefused(
            gettext(
                "This course names its learners, and this page came without your learner token: "
                "open the exercise from your course's page again."
            )
        )
    return who


def launch_over() -> str:
    """What a launched page is told when its launch token no longer acts for its learner."""
    return gettext(
        "This page's launch is no longer valid: it expired, or was altered, or your records or your "
        "course's registration were deleted since it opened. Open the exercise from the course again."
    )


def rule_of(who: Who | None) -> str:
    """The verdict a learner's Check is judged by: their LTI activity's (its teacher's choice, kept with
    the launch: server/lti/activity.py), else the server's PLAYGROUND_VERDICT."""
    rule = who.launch.get("rule") if who is not None and who.launch is not None else None
    return rule or current_app.config["VERDICT"]
