"""The class view's pages: the overview of one activity, a learner's timeline, deleting a learner's records
(the records' downloads: downloads.py; the exercise: exercise.py; what every page is given and sent with:
pages.py). Each is authorised by the teacher's token (token.py) its link or form carries, while the LMS's
registration it names is still there, and shows only the (issuer, course, activity) that token names.
"""

from flask import Blueprint, Response, current_app, g, redirect, request, url_for

from engine.words import N_
from server.classview import course, figures, stats, waiting
from server.classview.pages import (
    PSEUDONYM,
    exercise_id,
    exercise_of,
    may_delete,
    private,
    render,
    roster_of,
    scope,
    tutors_may_not_delete,
)
from server.classview.token import view_of
from server.db import database
from server.exercises.folder import Exercise
from server.lti import activity, state
from server.lti.refusals import refuse
from server.page import i18n
from server.page.exercise import Shown
from server.records.retention import forget_learner

bp = Blueprint("classview", __name__, url_prefix="/lti/class")


@bp.before_request
def authorised() -> Response | None:
    """Refuse any request without a good teacher's token, or whose platform's registration (and the
    deployment the teacher launched from) was removed since; else keep what it names for the request."""
    tool = state()
    view = view_of(tool["keys"], request.values.get("t") or "")
    deployment = view.get("deployment_id") if view is not None else None
    if view is None or not tool["store"].takes_launches(
        view["issuer"], view["client_id"], deployment if isinstance(deployment, str) else None
    ):
        return private(
            refuse(
                403,
                N_("This class view is not open to you"),
                N_(
                    "The class view opens from the course, for its teachers, and only for a few hours. "
                    "Open the activity from the course again."
                ),
            )
        )
    g.class_view = view
    g.launch_locale = view.get("locale")  # server/page/i18n.py: the teacher's LMS language
    return None


bp.after_request(private)  # no page of the class view is kept by a browser or a proxy


@bp.get("/")
def overview() -> Response:
    """The activity's class: counts, mistakes, who is stuck, expressions, first passes, days, learners."""
    exercise = exercise_of(g.class_view)  # its groups' order and words (None: no longer served)
    with database().connect() as conn:
        order = figures.order_of(exercise) if exercise is not None else None
        summary = stats.class_summary(conn, *scope(), exercise_id(g.class_view), order)
    for row in summary["expressions"]:  # what each group tests, in the exercise's words where it has them
        row["about"] = group_about(exercise, row["expr"])
    found = roster_of(g.class_view)
    members = found.members if found else []
    names = {m["sub"]: m.get("name") for m in members if m.get("name")}
    for row in summary["learners"] + summary["stuck"]:
        row["shown"] = row["name"] or names.get(row["sub"]) or row["learner"]
    opened = {row["sub"] for row in summary["learners"]}
    keys = state()["keys"]
    issuer, course_id, _ = scope()
    with database().connect() as conn:
        not_opened, deleted = waiting.not_opened(
            conn, issuer, course_id, members, opened, lambda sub: keys.learner_id(issuer, course_id, sub)
        )
    highest = max([b["learners"] for b in summary["first_pass"]["buckets"]] + [1])
    rule = g.class_view.get("rule")
    if exercise is not None and rule not in exercise.verdicts():  # checked at launch: the server's, else
        rule = activity.default_verdict(exercise)
    busiest = max([d["checks"] for d in summary["days"]] + [1])
    return render(
        "classview/overview.html",
        course=course.overview(issuer, course_id, g.class_view["activity"]),
        summary=summary,
        roster=found,
        waiting=not_opened,
        deleted=deleted,
        highest=highest,
        busiest=busiest,
        forgotten=request.args.get("forgotten") == "1",
        rule=rule,
        rule_words=activity.verdict_words(exercise, rule) if exercise is not None else rule,
        exercise=exercise_id(g.class_view),
        exercise_title=Shown(exercise, i18n.select_locale()).title() if exercise is not None else None,
        language_by=i18n.chosen()[1],  # "launch": the teacher's LMS's (authorised() set it)
    )


def group_about(exercise: Exercise | None, group: str) -> str:
    """What a group tests, in its exercise's words (the teacher's language, else English); "" where its
    words come from elsewhere (the seed's groups: their role says it)."""
    if exercise is None:
        return ""
    said = (exercise.words.get(i18n.select_locale()) or {}).get("groups", {}).get(group)
    said = said or exercise.words.get("en", {}).get("groups", {}).get(group) or {}
    return said.get("about", "")


@bp.get("/activity/<path:activity>")
def other_activity(activity: str) -> Response:
    """Another activity of the teacher's course (the course overview's links): its class view, with a
    token for it (server/classview/course.py); 404 for an activity not of this course."""
    found = course.of_course(g.class_view, activity)
    if found is None:
        return refuse(
            404,
            N_("No such activity in this course"),
            N_("This course has no activity by that name. Open the activity from the course again."),
        )
    return redirect(url_for("classview.overview", t=course.token_for(g.class_view, found)), 303)


class NoSuchLearner(Exception):
    """No learner of the token's activity has this pseudonym."""


@bp.errorhandler(NoSuchLearner)
def no_such_learner(_: NoSuchLearner) -> Response:
    return refuse(
        404,
        N_("No such learner in this class"),
        N_("This activity has no learner by that name: their records may have been deleted."),
    )


def learner_of(learner: str) -> dict:
    """The activity's learner with this pseudonym (NoSuchLearner, a 404 page, for another's or none)."""
    if not PSEUDONYM.fullmatch(learner):
        raise NoSuchLearner
    with database().connect() as conn:
        summary_row = stats.learner_row(conn, *scope(), learner, exercise_id(g.class_view))
    if summary_row is None:
        raise NoSuchLearner
    return summary_row


@bp.get("/learner/<learner>")
def timeline(learner: str) -> Response:
    """One learner's Checks, each with what changed from the one before."""
    who = learner_of(learner)
    found = roster_of(g.class_view)
    members = found.members if found else []
    who["shown"] = who["name"] or next((m.get("name") for m in members if m["sub"] == who["sub"]), None)
    who["shown"] = who["shown"] or who["learner"]
    with database().connect() as conn:
        checks = stats.timeline(conn, *scope(), learner, exercise_id(g.class_view))
    return render("classview/timeline.html", who=who, checks=checks)


@bp.get("/learner/<learner>/delete")
def confirm_delete(learner: str) -> Response:
    """Ask before deleting a learner's records."""
    who = learner_of(learner)
    if not may_delete(g.class_view):
        return tutors_may_not_delete()
    who["shown"] = who["name"] or who["learner"]
    return render("classview/delete.html", who=who)


@bp.post("/learner/<learner>/delete")
def delete(learner: str) -> Response:
    """Delete every record of the learner in the course (server/records/retention.py's forget_learner)."""
    learner_of(learner)
    if not may_delete(g.class_view):
        return tutors_may_not_delete()
    issuer, course, _ = scope()
    with database().connect() as conn:
        deleted = forget_learner(conn, issuer, course, learner)
    current_app.logger.info("class view: deleted %s records of a learner of %s %s", deleted, issuer, course)
    return redirect(url_for("classview.overview", t=request.values["t"], forgotten="1"), 303)
