"""The course overview beside a class view: one row per activity of the teacher's course (the LTI context
their launch names), each with its exercise, the learners who tried it, passed and are stuck now, and its
most common mistake, linking to that activity's class view.

The course's activities are the resource links launched in it (launches of the token's issuer and course,
the LTI context's id, as the records scope a course), each with its latest launch's exercise, verdict,
language and title: a teacher's choice changed in the LMS since shows the new one, as an activity's own
class view does. Each number is the activity's own view's (server/classview/stats.py, in_order.py), of
its exercise's Checks. A row's link (`activity`, below) is authorised by the teacher's token and opens
only an activity of that token's course: it signs a token like the teacher's (their LMS, course,
deployment, roster, language, tutor or not, their launch) for that activity.
"""

import time

from flask import current_app
from sqlalchemy import Connection, distinct, func, select

from server.classview import in_order, mistakes
from server.classview.scope import in_activity
from server.classview.stats import checks_made
from server.classview.token import teacher_token
from server.db import database
from server.db.tables import attempts, launches, learners
from server.lti import activity as chosen
from server.lti import state
from server.page import i18n
from server.page.exercise import Shown


def activities(conn: Connection, issuer: str, course: str) -> list[dict]:
    """The course's activities, each by its latest launch: its id (the resource link's), title, exercise,
    verdict and language (None: not chosen)."""
    latest = (
        select(
            launches.c.resource_link_id.label("activity"),
            launches.c.activity_title.label("title"),
            launches.c.exercise,
            launches.c.rule,
            launches.c.language,
            func.row_number()
            .over(
                partition_by=launches.c.resource_link_id,
                order_by=(launches.c.created.desc(), launches.c.id.desc()),
            )
            .label("k"),
        )
        .where(launches.c.issuer == issuer, launches.c.context_id == course)
        .subquery()
    )
    rows = conn.execute(select(latest).where(latest.c.k == 1).order_by(latest.c.activity))
    return [{k: v for k, v in row._mapping.items() if k != "k"} for row in rows]


def numbers(conn: Connection, issuer: str, course: str, activity: str, exercise: str) -> dict:
    """An activity's learners who tried it, passed, are stuck now (the class view's: the same mistake at
    their last in_order.STUCK_RUN Checks, no pass), and its most common mistake (the one most learners
    made, ties by its key, as the class view's Mistakes lists it first; None: none made yet).

    Three statements, not the view's: each learner's Checks grouped, each learner's last Checks (the
    window the view's "Stuck now" reads, alone), each mistake's learners grouped."""
    made = checks_made(conn, in_activity(attempts, issuer, course, activity, exercise))
    who_opened = select(learners.c.sub).where(in_activity(learners, issuer, course, activity))
    last = in_order.each_learner(in_order.judged_checks(issuer, course, activity, exercise)).subquery()
    stuck = select(func.count()).select_from(last).where(last.c.a == 1, last.c.key.in_(who_opened))
    met = func.count(distinct(attempts.c.sub))
    most = (
        select(attempts.c.mistake)
        .where(
            in_activity(attempts, issuer, course, activity, exercise),
            attempts.c.state == "judged",
            attempts.c.mistake.is_not(None),
        )
        .group_by(attempts.c.mistake)
        .order_by(met.desc(), attempts.c.mistake)
        .limit(1)
    )
    return {
        "tried": len(made),
        "passed": sum(each["passed"] for each in made.values()),
        "stuck": conn.execute(stuck).scalar_one(),
        "mistake": conn.execute(most).scalar(),
    }


def overview(issuer: str, course: str, here: str) -> list[dict]:
    """The course overview's rows, in the course's order of their exercises (then by title): each
    activity with its exercise's title, its numbers, its most common mistake in the exercise's words (the
    teacher's language), and whether it is the one shown (here). None for a course of one activity."""
    place = {e.id: k for k, e in enumerate(chosen.served())}
    locale = i18n.select_locale()
    rows = []
    with database().connect() as conn:
        found = activities(conn, issuer, course)
        if len(found) < 2:  # the activity alone: no overview, nothing counted twice
            return []
        for row in found:
            exercise = chosen.exercise(row["exercise"])
            counted = numbers(conn, issuer, course, row["activity"], row["exercise"])
            mistake = counted["mistake"]
            rows.append(
                row
                | counted
                | {
                    "here": row["activity"] == here,
                    "exercise_title": Shown(exercise, locale).title() if exercise is not None else None,
                    "mistake_title": mistakes.title(mistake, exercise) if mistake else None,
                    "place": place.get(row["exercise"], len(place)),
                }
            )
    return sorted(rows, key=lambda r: (r["place"], r["title"] or "", r["activity"]))


def of_course(view: dict, activity: str) -> dict | None:
    """The course's activity by its id (None: not one of the course the teacher's token names)."""
    with database().connect() as conn:
        found = activities(conn, view["issuer"], view["course"])
    return next((a for a in found if a["activity"] == activity), None)


def token_for(view: dict, found: dict) -> str:
    """A teacher's token like view's (their LMS, course, deployment, roster, language, tutor or not, their
    launch), for the course's activity found (of_course's): its exercise, verdict and language; it ends
    when view's does."""
    exercise = chosen.exercise(found["exercise"])
    rule = found["rule"]
    if exercise is not None and rule not in exercise.verdicts():  # not chosen: the server's, as at launch
        rule = chosen.default_verdict(exercise)
    signed = ("exp", "iat", "nbf", "iss", "aud", "jti")  # the token's own claims, signed anew
    other = {k: v for k, v in view.items() if k not in signed} | {
        "activity": found["activity"],
        "exercise": found["exercise"],
        "rule": rule,
        "language": found["language"],
    }
    left = min(int(view["exp"] - time.time()), int(current_app.config["LTI_TEACHER_TOKEN_S"]))
    return teacher_token(state()["keys"], other, max(left, 1))
