"""When the database (or the queue in it) cannot be reached: a 503 that says so, never a traceback.

PostgreSQL stopped or restarting, a connection cut, a SQLite file another process holds locked past
BUSY_TIMEOUT_MS: any request that meets it gets a 503 with Retry-After. A JSON request (/verify, /record,
lti/grade: the page's) gets JSON, {"error": ..., "retry": seconds}, as the 429s' `retry`, and the page
keeps what it sent and sends it again (static/js/page/verify.js, record.js, lti.js); a page gets a short
page. Nothing is lost that the request was for: /verify answers 503 when the pass it judged could not be
recorded or its grade queued (server/verify/views.py), so the page sends it again and it is judged again.

The log has one line per outage per process, not a traceback per request (nor one a second from each
of the queue's consumer threads, which keep asking for work: Quiet): the first failure says why (the
driver's first line, never the statement or its parameters: they carry what learners sent), and more
of the same within LOG_EVERY_S are counted into the next line said.
"""

import logging
import math
import sqlite3
import threading
import time

import psycopg
import sqlalchemy.exc
from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from flask_babel import gettext

# What "the database cannot be reached" is: a connection refused, cut or timed out, a lock waited out;
# SQLAlchemy's wrappers of the drivers', and the drivers' own (the queue, Huey, uses them unwrapped).
UNREACHABLE = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
)
RETRY_S = 5  # Retry-After of the 503: a restart takes seconds; the page sends its pass again after it
LOG_EVERY_S = 60  # a failure is said once in this long (the others counted into the next line)


def is_unreachable(exc: BaseException) -> bool:
    """Whether exc says the database (or the queue in it) cannot be reached now."""
    return isinstance(exc, UNREACHABLE)


def reason(exc: BaseException) -> str:
    """Why, in one short line: the driver's first line, without SQLAlchemy's statement and parameters."""
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0][:300] if lines else ''}"


class Said:
    """This process's last line about the database, and how many failures since went unsaid."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at = -math.inf
        self.unsaid = 0

    def line(self, why: str) -> str | None:
        """The line to log for a failure (None: said lately, counted)."""
        with self.lock:
            now = time.monotonic()
            if now - self.at < LOG_EVERY_S:
                self.unsaid += 1
                return None
            more = f" (and {self.unsaid} more since the last line)" if self.unsaid else ""
            self.at, self.unsaid = now, 0
            return f"the database cannot be reached: {why}{more}; requests get 503 with Retry-After"


said = Said()


def log(exc: BaseException) -> None:
    """Say in the app's log that the database cannot be reached, once as one line (see Said)."""
    if line := said.line(reason(exc)):
        current_app.logger.error(line)


class Quiet(logging.Filter):
    """On the queue's consumer's loggers: its "Error reading from queue" (each thread, each second) with
    an unreachable database said as Said's one line, or not at all; no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_unreachable(exc):
            return True
        line = said.line(reason(exc))
        record.msg, record.args, record.exc_info, record.exc_text = line, (), None, None
        return line is not None


def quiet_consumer() -> None:
    """Put Quiet on Huey's consumer's loggers (its workers' and its scheduler's), once a process."""
    for name in ("huey.consumer.Worker", "huey.consumer.Scheduler"):
        logger = logging.getLogger(name)
        if not any(isinstance(each, Quiet) for each in logger.filters):
            logger.addFilter(Quiet())


def answer(exc: BaseException) -> Response:
    """The 503 a request that met an unreachable database gets: JSON for the page's posts, else a page."""
    log(exc)
    message = gettext("The server's database cannot be reached now.")
    if request.is_json:
        response = jsonify(error=message, retry=RETRY_S)
    else:
        detail = gettext("Reload this page in a moment.")
        response = make_response(render_template("unavailable.html", title=message, detail=detail))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_S)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Answer every route's unreachable database with answer()."""
    for kind in UNREACHABLE:
        app.register_error_handler(kind, answer)
