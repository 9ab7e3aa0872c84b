"""The class view's pages: the overview of one activity, a learner's timeline, deleting a learner's records
(the records' downloads: downloads.py; the exercise: exercise.py). Each is authorised by the teacher's
token (token.py) its link or form carries, while the LMS's registration it names is still there, and
shows only the (issuer, course, activity) that token names.
"""

import datetime
import functools
import re
from collections.abc import Callable

from babel import dates
from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_date, format_decimal, format_number, get_locale, get_timezone, gettext

from engine.words import N_
from server.classview import kept, mistakes, roles, stats, waiting
from server.classview.token import teacher_token, view_of
from server.db import database
from server.http.headers import response_headers
from server.lti import activity, state
from server.lti.claims import CONTEXT, DEPLOYMENT, PRESENTATION, RESOURCE_LINK, ROLES
from server.lti.refusals import refuse
from server.page import i18n
from server.page.policy import page_headers
from server.records.retention import forget_learner

bp = Blueprint("classview", __name__, url_prefix="/lti/class")

NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
PSEUDONYM = re.compile(r"[A-Za-z0-9_-]{1,64}")


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
    rule, language = activity.chosen(data)  # the teacher's choice for the activity (checked at launch)
    view = {
        "issuer": data["iss"],
        "course": str(context.get("id") or ""),
        "activity": link["id"],
        "client_id": client_id,
        "deployment_id": data[DEPLOYMENT],  # checked, with the registration, on every request
        "memberships": memberships if isinstance(memberships, str) else None,
        "locale": presentation.get("locale") if isinstance(presentation, dict) else None,
        "launch": launch_id,  # its titles (titles(): the launch's row, not the address)
        # what a pass means here: the teacher's choice, else the server's setting
        "rule": rule or current_app.config["VERDICT"],
        "language": language,  # the activity's exercise's (exercise.py); None: not chosen
    }
    if roles.assists(data.get(ROLES)):  # a teaching assistant: the class view, not Delete (roles.py)
        view["tutor"] = True
    token = teacher_token(state()["keys"], view, int(current_app.config["LTI_TEACHER_TOKEN_S"]))
    return private(redirect(url_for("classview.overview", t=token), 303))


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


@bp.after_request
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


def said_once() -> dict:
    """The page's formatters for what it says many times (a row per learner), made once a request: the
    teacher's language and time zone looked up once, each mistake's words and each count said once."""
    if "said" not in g:
        locale, zone = get_locale(), get_timezone()

        def when(seconds: float | None) -> str:
            if seconds is None:
                return ""
            moment = datetime.datetime.fromtimestamp(seconds, datetime.UTC)  # a date and time in UTC
            return dates.format_datetime(moment, "short", tzinfo=zone, locale=locale) + " UTC"

        g.said = {
            "when": when,
            "title": functools.cache(mistakes.title),
            "about": functools.cache(mistakes.about),
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
        mine = launch is not None and (launch["issuer"], launch["resource_link_id"]) == (
            view["issuer"],
            view["activity"],
        )
        g.launch_row = launch if mine else None
    return g.launch_row


def titles(view: dict) -> dict:
    """The course's and the activity's titles, from the launch the token names (None: not known)."""
    launch = launch_of(view)
    if launch is None:
        return {"course_title": None, "activity_title": None}
    return {"course_title": launch["course"], "activity_title": launch["activity_title"]}


def may_delete(view: dict) -> bool:
    """Whether this teacher may delete a learner's records: not a tutor (roles.py's tutors: a teaching
    assistant at launch, or one the course's roster, as kept, lists without a teacher's role)."""
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


@bp.get("/")
def overview() -> Response:
    """The activity's class: counts, mistakes, who is stuck, expressions, first passes, days, learners."""
    with database().connect() as conn:
        summary = stats.class_summary(conn, *scope())
    found = roster_of(g.class_view)
    members = found.members if found else []
    names = {m["sub"]: m.get("name") for m in members if m.get("name")}
    for row in summary["learners"] + summary["stuck"]:
        row["shown"] = row["name"] or names.get(row["sub"]) or row["learner"]
    opened = {row["sub"] for row in summary["learners"]}
    keys = state()["keys"]
    issuer, course, _ = scope()
    with database().connect() as conn:
        not_opened, deleted = waiting.not_opened(
            conn, issuer, course, members, opened, lambda sub: keys.learner_id(issuer, course, sub)
        )
    highest = max([b["learners"] for b in summary["first_pass"]["buckets"]] + [1])
    rule = g.class_view.get("rule")
    rule = rule if rule in activity.VERDICT_WORDS else current_app.config["VERDICT"]
    busiest = max([d["checks"] for d in summary["days"]] + [1])
    return render(
        "classview/overview.html",
        summary=summary,
        roster=found,
        waiting=not_opened,
        deleted=deleted,
        highest=highest,
        busiest=busiest,
        forgotten=request.args.get("forgotten") == "1",
        rule=rule,
        rule_words=gettext(activity.VERDICT_WORDS[rule]),
        language_by=i18n.chosen()[1],  # "launch": the teacher's LMS's (authorised() set it)
    )


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
        summary_row = stats.learner_row(conn, *scope(), learner)
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
        checks = stats.timeline(conn, *scope(), learner)
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


def init_app(app) -> None:
    """The class view's pages, under the LTI endpoints (LTI on: create_app has opened the database)."""
    from server.classview import downloads, exercise  # noqa: F401  (their routes, on bp)

    kept.init_app(app)  # the roster's fetch, on the queue
    app.register_blueprint(bp)
