"""The exercise page."""

import hashlib
import json

from flask import Blueprint, Response, current_app, g, make_response, render_template, request

from engine.drawing import MAX_CALLS, MAX_LABEL_CHARS
from engine.errors import FILENAME, MAX_SOURCE
from engine.output import MAX_CHARS
from engine.picture import MAX_PICTURE
from engine.report import shape
from engine.scratch import MAX_DRAWINGS
from runtime.server import RUNTIME_FILES, lazy_stdlib, pyodide_fetched_bytes, runner_document
from server import ROOT
from server.exercises.registry import LEGACY
from server.exercises.value_sets import graded_cases
from server.page import course, i18n
from server.page.assets import engine_archive, engine_digest, grader_digest, revalidated
from server.page.embed import frame_refused, parent_origins, refused_framer
from server.page.exercise import Shown, served, shown
from server.page.first_paint import FRONT, READ_SNAPSHOT, RESTORE
from server.page.names import NAMES
from server.page.policy import page_headers
from server.page.static import page_url, pyodide_url, static_size, static_url

bp = Blueprint("page", __name__)

# The runtime's bundles, fetched by the page for the runner frame.
RUNTIME_BUNDLES = ("runtime/runner/runner.js", "runtime/worker/worker.js")
# After Stop or the time limit interrupts Python, a worker still running is ended after one grace period
# (the interrupt not taken) or two (taken, but the code has not left the learner's lines).
STOP_GRACE_MS = 1000
# An exercise's page, from the playground's root (under its prefix): its one home (tests build it too).
EXERCISE_RULE = "/exercises/<exercise>/"


def read(path: str) -> str:
    """Read a file of the project as text."""
    return (ROOT / path).read_text(encoding="utf-8")


def page_config(verdict: str | None = None, exercise: str | None = None) -> dict:
    """What the page's scripts need: the exercise (default: LEGACY's), its starter and cases, the limits,
    every URL, who hears its events; graded by verdict (an LTI activity's, server/lti/activity.py), or else
    the server's PLAYGROUND_VERDICT, where the exercise has that verdict (else by its first)."""
    return config_of(shown(exercise), verdict)


def config_of(view: Shown, verdict: str | None = None) -> dict:
    """page_config of one served exercise."""
    verdict = view.verdict(verdict or current_app.config["VERDICT"])
    cases = graded_cases(verdict) if view.seed else view.cases(verdict)  # the seed's: through its bridge
    config = {
        "exercise": view.id,  # its events, its report and its receipts name it
        "storage": view.storage(),  # what its keys in this browser end in (static/js/shared/storage.js)
        "grade": view.grade(),  # the names the learner writes, how each number is labelled
        "mistakes": view.mistakes(),  # each named mistake's title, says and hint (HTML), by key
        # its comments in the page's language
        "starter": view.starter(),
        "cases": cases,
        "expressions": view.groups(cases),  # each in words, for the statement
        "verdict": verdict,  # the rule the cases' extra flags follow (and /verify)
        "timeLimitMs": current_app.config["TIME_LIMIT_MS"],
        "stopGraceMs": STOP_GRACE_MS,
        "outputChars": MAX_CHARS,  # what the page and the runner keep of a Check's output
        "sourceChars": MAX_SOURCE,  # the longest code that runs (and so the most a share link carries)
        # the most a picture lays out: values, calls, drawings in one Run, characters of a label
        "picture": {
            "values": MAX_PICTURE,
            "calls": MAX_CALLS,
            "drawings": MAX_DRAWINGS,
            "label": MAX_LABEL_CHARS,
        },
        "learnerFile": FILENAME,  # the learner's code as Python's tracebacks name it (the worker reads them)
        "report": shape(
            view.id
        ),  # the report's kinds and fields: the page makes timeout and crash reports from it
        "loadStallMs": current_app.config["LOAD_STALL_MS"],
        # the progress bar's total: every file the page fetches for the runtime
        "loadBytes": pyodide_fetched_bytes()
        + len(engine_archive(view.id))
        + sum(static_size(entry) for entry in RUNTIME_BUNDLES),
        "solution": view.solution() if current_app.config["SHOW_SOLUTION"] else None,
        "scratch": view.scratch(),  # the scratch pad's code
        "parents": parent_origins(current_app.config),  # who hears the page's events when it is framed
        "home": page_url("page.index"),  # the front page, and the scope of sw.js (hosting/offline.js)
        "serviceWorker": service_worker_url(),  # None: offline use is off, and the page removes it
        "pyodideFiles": RUNTIME_FILES,  # fetched from urls.pyodide by the page, handed to the runner
        "runner": runner_document(),  # the sandboxed frame's srcdoc: learner code runs in its workers
        "publicPage": exercise_url(view.id),  # share links point here, never at a launch
        "urls": {
            "runner": static_url("runtime/runner/runner.js"),
            "worker": static_url("runtime/worker/worker.js"),
            "pyodide": pyodide_url(),
            "lazyStdlib": pyodide_url(lazy_stdlib() + "/"),  # the folder of the archives a worker may read
            "engine": archive_url(view.id),
        },
        "verify": verify_url(),  # None: the page does not ask the server to verify a pass
        "record": record_url(),  # None: the page records no Check (server/records/)
        "language": i18n.choice(),  # the page's language, what chose it, the others it speaks
        # its messages, for the page's scripts and the grader (server/page/i18n.py)
        "catalogue": i18n.catalogue(),
    }
    config["snapshotKey"] = snapshot_key(config)  # names the snapshot a browser keeps of this build
    return config


def snapshot_key(config: dict) -> str:
    """Name what a snapshot holds: Pyodide, the grader's modules (engine/), the runner, its worker. Not the
    exercise, its cases nor the language, which a runtime loads after it is restored (runtime/worker/
    grader.js): one snapshot serves every exercise of a build, so the next exercise's page restores it."""
    urls = config["urls"]
    held = [urls["pyodide"], grader_digest(), urls["runner"], urls["worker"]]
    return hashlib.sha256(json.dumps(held, sort_keys=True).encode()).hexdigest()[:24]


def verify_url() -> str | None:
    """Where the page sends a pass to be verified (server/verify/views.py), or None: off, or a static
    export."""
    if not current_app.config["VERIFY"] or g.get("relative_urls"):
        return None
    return page_url("verify.verify")


def record_url() -> str | None:
    """Where a launched or token-carrying page sends a Check that did not pass (server/records/), or None:
    records off, or a static export."""
    if "records" not in current_app.extensions or g.get("relative_urls"):
        return None
    return page_url("records.record")


def service_worker_url() -> str | None:
    """The service worker's URL (server/page/offline.py), or None when offline use is switched off."""
    return page_url("offline.service_worker") if current_app.config["OFFLINE"] else None


def exercise_url(exercise: str) -> str:
    """An exercise's page: `<prefix>/exercises/<id>/`."""
    return page_url("page.exercise", exercise=exercise)


def archive_url(exercise: str) -> str:
    """An exercise's archive (server/page/assets.py), its digest in its URL."""
    return page_url("assets.engine_zip", exercise=exercise, digest=engine_digest(exercise))


def render_page(config: dict, meta_policy: str | None = None) -> str:
    """Render an exercise's page; every URL in it and in its config comes from page_url."""
    view = shown(config["exercise"])
    return render_template(
        "index.html",
        config=config,
        exercise=view,
        statement=view.statement(),
        engine_source=view.engine_source(),
        # where it is in the course (None: a course of one; a launched page: its links would leave the LMS)
        place=None if "lti" in config else course.place(view.id),
        meta_policy=meta_policy,
        restore_script=RESTORE,  # the saved code into the editor's textarea before the first paint
        read_snapshot_script=READ_SNAPSHOT,  # the kept snapshot read while the page is parsed
        names=NAMES,
    )


def render_front(meta_policy: str | None = None) -> str:
    """Render the front page, the course map: the course's title, every served exercise in the course's
    order, a link each, with where this browser keeps its learner's state (static/js/page/map.js)."""
    exercises = served()
    seed = next((e for e in exercises if e.id == LEGACY), None)
    return render_template(
        "front.html",
        title=course.title(),
        exercises=course.entries(),
        seed_url=exercise_url(seed.id) if seed else "",
        meta_policy=meta_policy,
        front_script=FRONT,
        names=NAMES,
    )


def front_page(meta_policy: str | None = None) -> tuple[str, str | None]:
    """What `/` shows, and the exercise whose archive it loads: the list of the served exercises (None),
    or with one served, that exercise's page (its id)."""
    exercises = served()
    if len(exercises) == 1:
        return render_page(config_of(exercises[0]), meta_policy), exercises[0].id
    return render_front(meta_policy), None


def sent(html: str) -> Response:
    """A page as it is sent: its headers, revalidated each visit."""
    response = make_response(html)
    response.headers.update(page_headers(current_app.config))
    return revalidated(response)


@bp.get("/")
def index() -> Response:
    """The front page: a list of the served exercises; with one served, its page."""
    if framer := refused_framer(current_app.config):  # a site it may not be shown in: say so, not a blank box
        return frame_refused(framer, request.url)
    return sent(front_page()[0])


@bp.get(EXERCISE_RULE)
def exercise(exercise: str) -> Response:
    """Show an exercise: its statement, its engine and the editor."""
    if framer := refused_framer(current_app.config):
        return frame_refused(framer, request.url)
    return sent(render_page(config_of(shown(exercise))))
