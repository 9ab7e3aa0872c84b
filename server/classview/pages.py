"""What every page of the class view is given and sent with: the scope its token names (and the activity's
exercise), the titles, the teacher's formatters, the roster as kept, who may delete, and the headers that
keep it private.
"""

import datetime
import functools
import re
from collections.abc import Callable

from babel import dates
from flask import Response, current_app, g, make_response, render_template, request, url_for
from flask_babel import format_date, format_decimal, format_number, get_locale, get_timezone, gettext
from sqlalchemy import select

from engine.words import N_
from server.classview import kept, mistakes
from server.db import database
from server.db.tables import launches
from server.exercises.folder import Exercise
from server.exercises.registry import LEGACY
from server.http.headers import response_headers
from server.lti import roles, state
from server.lti.refusals import refuse
from server.page.policy import page_headers

PSEUDONYM = re.compile(r"[A-Za-z0-9_-]{1,64}")


def private(response: Response) -> Response:
    """No page of the class view is kept by a browser or a proxy; its forms post back here only."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.update(page_headers(current_app.config))  # framed by a course as the exercise is
    policy = response.headers.get("Content-Security-Policy")
    if policy is None:
        policy = response_headers(current_app.config)["Content-Security-Policy"]
    response.headers["Content-Security-Policy"] = re.sub(r"form-action[^;]*", "form-action 'self'", policy)
    return response


def scope() -> tuple[str, str, str]:
    view = g.class_view
    return view["issuer"], view["course"], view["activity"]


def exercise_id(view: dict) -> str:
    """The activity's exercise, as the teacher's launch named it (a token made before exercises: LEGACY)."""
    named = view.get("exercise")
    return named if isinstance(named, str) else LEGACY


def exercise_of(view: dict) -> Exercise | None:
    """The activity's exercise as served here (its words, its groups), or None: no longer served."""
    return current_app.extensions["exercises"].exercise(exercise_id(view))


def said_once() -> dict:
    """The page's formatters for what it says many times (a row per learner), made once a request: the
    teacher's language and time zone looked up once, each mistake's words and each count said once."""
    if "said" not in g:
        locale, zone = get_locale(), get_timezone()
        exercise = exercise_of(g.class_view)  # its mistakes' words, in the teacher's language

        def when(seconds: float | None) -> str:
            if seconds is None:
                return ""
            moment = datetime.datetime.fromtimestamp(seconds, datetime.UTC)  # a date and time in UTC
            return dates.format_datetime(moment, "short", tzinfo=zone, locale=locale) + " UTC"

        g.said = {
            "when": when,
            "title": functools.cache(lambda mistake: mistakes.title(mistake, exercise)),
            "about": functools.cache(lambda mistake: mistakes.about(mistake, exercise)),
            "format_number": functools.cache(format_number),
        }
    return g.said


def learner_link(token: str | None) -> Callable[[str], str]:
    """The link to a learner's timeline (with the teacher's token): url_for's, its path built once a page
    for the pseudonyms a path holds as they are (PSEUDONYM), url_for itself for any other."""
    marker = "PSEUDONYM"
    prefix, _, suffix = url_for("classview.timeline", learner=marker, t=token).partition(marker)

    def link(learner: str) -> str:
        if PSEUDONYM.fullmatch(learner):
            return prefix + learner + suffix
        return url_for("classview.timeline", learner=learner, t=token)

    return link


def bucket(counts: dict) -> str:
    """A bar's label in the distribution of Checks to the first pass: 3, 6-10, 21 or more."""
    if counts["high"] is None:
        return gettext("%(low)s or more", low=counts["low"])
    if counts["low"] == counts["high"]:
        return str(counts["low"])
    return f"{counts['low']}–{counts['high']}"


def day(iso: str) -> str:
    """A day (2026-12-01) as the teacher's language writes it, with its weekday."""
    return format_date(datetime.date.fromisoformat(iso), "EEE d MMM y")


def roster_of(view: dict) -> kept.Roster | None:
    """The course's members from the LMS (NRPS) as last read, when the launch offered them (kept.py: never
    waits on the LMS)."""
    if not view.get("memberships"):
        return None
    if "roster" not in g:  # read once a request (the overview and who may delete)
        g.roster = kept.roster_of(view)
    return g.roster


def launch_of(view: dict) -> dict | None:
    """The teacher's launch the token names (its row: titles, sub), or None (not known, or not this one's)."""
    if "launch_row" not in g:
        launch = state()["store"].launch(view["launch"]) if isinstance(view.get("launch"), str) else None
        # the teacher's launch of this activity, or of this course (a token for another of its activities,
        # signed by the course overview's link: server/classview/course.py)
        mine = (
            launch is not None
            and launch["issuer"] == view["issuer"]
            and (view["activity"] == launch["resource_link_id"] or view["course"] == launch["context_id"])
        )
        g.launch_row = launch if mine else None
    return g.launch_row


def titles(view: dict) -> dict:
    """The course's and the activity's titles, from the launch the token names (None: not known)."""
    launch = launch_of(view)
    if launch is None:
        return {"course_title": None, "activity_title": None}
    if launch["resource_link_id"] == view["activity"]:
        return {"course_title": launch["course"], "activity_title": launch["activity_title"]}
    with database().connect() as conn:  # another activity of the course: its latest launch's title
        title = conn.execute(
            select(launches.c.activity_title)
            .where(
                launches.c.issuer == view["issuer"],
                launches.c.context_id == view["course"],
                launches.c.resource_link_id == view["activity"],
            )
            .order_by(launches.c.created.desc())
            .limit(1)
        ).scalar()
    return {"course_title": launch["course"], "activity_title": title}


def may_delete(view: dict) -> bool:
    """Whether this teacher may delete a learner's records: not a tutor (server/lti/roles.py's tutors: a
    teaching assistant at launch, or one the course's roster, as kept, lists without a teacher's role)."""
    if view.get("tutor"):
        return False
    launch = launch_of(view)
    found = roster_of(view)
    return not roles.tutors(False, launch["sub"] if launch else None, found.members if found else [])


def tutors_may_not_delete() -> Response:
    return refuse(
        403,
        N_("Deleting records is for the course's teachers"),
        N_(
            "The LMS names you a tutor in this course, not one of its teachers: you see the class, and "
            "its teachers can delete a learner's records."
        ),
    )


def render(template: str, **values) -> Response:
    view = g.class_view
    return make_response(
        render_template(
            template,
            view=view,
            **titles(view),
            token=request.values.get("t"),
            **said_once(),
            timeline_of=learner_link(request.values.get("t")),
            may_delete=may_delete(view),
            decimal=format_decimal,
            bucket=bucket,
            day=day,
            **values,
        )
    )
