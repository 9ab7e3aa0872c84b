"""The exercise page."""

import hashlib
import json

from flask import Blueprint, Response, current_app, g, make_response, render_template, request
from flask_babel import gettext

from engine.drawing import MAX_CALLS, MAX_LABEL_CHARS
from engine.errors import FILENAME, MAX_SOURCE
from engine.output import MAX_CHARS
from engine.picture import MAX_PICTURE
from engine.report import shape
from engine.scratch import MAX_DRAWINGS
from exercises.backward.seed import exercise
from runtime.server import RUNTIME_FILES, lazy_stdlib, pyodide_fetched_bytes, runner_document
from server import ROOT
from server.exercises import comments, presets
from server.exercises.value_sets import graded_cases
from server.page import i18n
from server.page.assets import engine_archive, engine_digest, revalidated
from server.page.embed import frame_refused, parent_origins, refused_framer
from server.page.first_paint import READ_SNAPSHOT, RESTORE
from server.page.names import NAMES
from server.page.policy import page_headers
from server.page.static import page_url, pyodide_url, static_size, static_url

bp = Blueprint("page", __name__)

# The runtime's bundles, fetched by the page for the runner frame.
RUNTIME_BUNDLES = ("runtime/runner/runner.js", "runtime/worker/worker.js")
# After Stop or the time limit interrupts Python, a worker still running is ended after one grace period
# (the interrupt not taken) or two (taken, but the code has not left the learner's lines).
STOP_GRACE_MS = 1000


def read(path: str) -> str:
    """Read a file of the project as text."""
    return (ROOT / path).read_text(encoding="utf-8")


def solution() -> str:
    """Give the reference backward's source, for a server configured to show a solution."""
    return comments.said(read("exercises/backward/reference.py"), gettext)


def scratch() -> dict:
    """The scratch pad's starting code and examples, their comments in the page's language."""
    examples = [{**preset, "code": comments.said(preset["code"], gettext)} for preset in presets.PRESETS]
    return {"starter": comments.said(presets.STARTER, gettext), "presets": examples}


def page_config(verdict: str | None = None) -> dict:
    """What the page's scripts need: the starter, the cases, the limits, every URL, who hears its events;
    graded by verdict (an LTI activity's, server/lti/activity.py), or else the server's PLAYGROUND_VERDICT."""
    verdict = verdict or current_app.config["VERDICT"]
    cases = graded_cases(verdict)
    config = {
        # its comments in the page's language
        "starter": comments.said(read("exercises/backward/starter.py"), gettext),
        "cases": cases,
        "expressions": expressions(cases),  # each in words, for the statement
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
        "report": shape(),  # the report's kinds and fields: the page makes timeout and crash reports from it
        "loadStallMs": current_app.config["LOAD_STALL_MS"],
        # the progress bar's total: every file the page fetches for the runtime
        "loadBytes": pyodide_fetched_bytes()
        + len(engine_archive())
        + sum(static_size(entry) for entry in RUNTIME_BUNDLES),
        "solution": solution() if current_app.config["SHOW_SOLUTION"] else None,
        "scratch": scratch(),  # the scratch pad's code
        "parents": parent_origins(current_app.config),  # who hears the page's events when it is framed
        "serviceWorker": service_worker_url(),  # None: offline use is off, and the page removes it
        "pyodideFiles": RUNTIME_FILES,  # fetched from urls.pyodide by the page, handed to the runner
        "runner": runner_document(),  # the sandboxed frame's srcdoc: learner code runs in its workers
        "publicPage": page_url("page.index"),  # share links point here, never at a launch
        "urls": {
            "runner": static_url("runtime/runner/runner.js"),
            "worker": static_url("runtime/worker/worker.js"),
            "pyodide": pyodide_url(),
            "lazyStdlib": pyodide_url(lazy_stdlib() + "/"),  # the folder of the archives a worker may read
            "engine": page_url("assets.engine_zip", digest=engine_digest()),
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
    """Name what a snapshot holds: Pyodide, the engine, the runner, its worker, the cases, the language."""
    urls = config["urls"]
    held = [
        urls["pyodide"],
        urls["engine"],
        urls["runner"],
        urls["worker"],
        config["cases"],
        config["catalogue"],
    ]
    return hashlib.sha256(json.dumps(held, sort_keys=True).encode()).hexdigest()[:24]


def expressions(cases: list[dict]) -> list[dict]:
    """Name each expression the cases grade, in order, with its formula, its role and whether it is extra."""
    served = exercise()
    names = dict.fromkeys(case["group"] for case in cases)
    extra = {case["group"]: case["extra"] for case in cases}
    with i18n.speaking():
        return [
            {"name": name, **served.words(name), "extra": extra[name], "role": served.role(name)}
            for name in names
        ]


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


def render_page(config: dict, meta_policy: str | None = None) -> str:
    """Render the page; every URL in it and in its config comes from page_url."""
    return render_template(
        "index.html",
        config=config,
        engine_source=exercise().engine_source,
        meta_policy=meta_policy,
        restore_script=RESTORE,  # the saved code into the editor's textarea before the first paint
        read_snapshot_script=READ_SNAPSHOT,  # the kept snapshot read while the page is parsed
        names=NAMES,
    )


@bp.get("/")
def index() -> Response:
    """Show the exercise, the engine and the editor."""
    if framer := refused_framer(current_app.config):  # a site it may not be shown in: say so, not a blank box
        return frame_refused(framer, request.url)
    response = make_response(render_page(page_config()))
    response.headers.update(page_headers(current_app.config))
    return revalidated(response)
