"""Grade passback (LTI AGS): a verified pass becomes a score in the platform's line item.

Every verified pass of a launched learner is queued in the database under its receipt's jti, then
sent by a thread of each process (the Sender), never by a request: at once (a new pass wakes it), on
Retry (which makes the launch's pending passes due now), and again after a growing wait when the
platform could not be reached. A row is claimed before it is sent, so no two processes send the same
pass; once the platform has it, it is marked sent and never sent again. A 409 (Moodle: "Refusing
score with an earlier timestamp") is the platform's final answer: it holds a newer grade, and the
row is marked kept, not tried again. Only passes are sent (scoreGiven = 1), so a later failing Check
never lowers a grade: best, not latest.
"""

import logging
import threading
import time
from datetime import UTC, datetime

from flask import Flask
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.flask import FlaskServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from requests import RequestException

from server.lti.store import Store
from server.lti.tool import TimeoutSession, ToolKeys, registration_of

log = logging.getLogger(__name__)
CLAIM_S = 60  # a claimed passback is another process's for this long (longer than a send takes)
SCORE_MAXIMUM = 1.0


def queue_pass(store: Store, launch: dict, jti: str) -> str | None:
    """Queue a verified pass of a launch for its line item; the jti to send, or None (no grade service)."""
    ags = launch["ags"]
    if not ags or "https://purl.imsglobal.org/spec/lti-ags/scope/score" not in ags.get("scope", []):
        return None
    if not ags.get("lineitem"):
        return None
    timestamp = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    store.add_passback(jti, launch["id"], SCORE_MAXIMUM, SCORE_MAXIMUM, timestamp)
    return jti


def send(store: Store, keys: ToolKeys, jti: str, retry_s: float) -> str:
    """Try to send one passback now; its state afterwards: "sent", "kept" or "pending" (or "claimed")."""
    row = store.claim(jti, CLAIM_S)
    if row is None:
        current = store.passback(jti)
        return current["state"] if current and current["state"] != "pending" else "claimed"
    launch = store.launch(row["launch_id"])
    registration = store.registration(launch["issuer"], launch["client_id"]) if launch else None
    if launch is None or registration is None:
        store.failed(jti, "the launch or its registration is gone", retry_s * 2 ** min(row["attempts"], 12))
        return "pending"
    grade = (
        Grade()
        .set_score_given(row["score"])
        .set_score_maximum(row["maximum"])
        .set_timestamp(row["timestamp"])
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_user_id(launch["sub"])
    )
    connector = FlaskServiceConnector(registration_of(registration, keys), requests_session=TimeoutSession())
    try:
        AssignmentsGradesService(connector, launch["ags"]).put_grade(grade)
    except LtiServiceException as exc:
        if exc.response.status_code != 409:
            return failed(store, jti, row, launch, exc, retry_s)
        store.kept(jti, f"{exc.response.status_code}: {exc.response.text[:200]}")
        log.info("grade passback %s: %s holds a newer grade (409), kept", jti, launch["issuer"])
        return "kept"
    except (LtiException, RequestException, ValueError, KeyError) as exc:  # ValueError: an answer not JSON
        return failed(store, jti, row, launch, exc, retry_s)
    store.sent(jti)
    return "sent"


def failed(store: Store, jti: str, row: dict, launch: dict, exc: Exception, retry_s: float) -> str:
    """Note a try that did not reach the platform; it is tried again after a growing wait."""
    wait = min(retry_s * 2 ** min(row["attempts"], 12), 3600)
    store.failed(jti, f"{type(exc).__name__}: {exc}", wait)
    log.warning("grade passback %s to %s failed (%s); retrying in %.0f s", jti, launch["issuer"], exc, wait)
    return "pending"


class Sender:
    """A thread that sends the passbacks that are due: when woken (a new pass, a Retry), and every retry_s.

    Each pass over them runs in an app context of its own: one database connection for the pass.
    """

    def __init__(self, app: Flask, store: Store, keys: ToolKeys, retry_s: float) -> None:
        self.app = app
        self.store = store
        self.keys = keys
        self.retry_s = retry_s
        self.stopped = False
        self.woken = threading.Event()
        self.thread = threading.Thread(target=self.run, name="lti-passback", daemon=True)

    def start(self) -> "Sender":
        """Start the thread."""
        self.thread.start()
        return self

    def wake(self) -> None:
        """Have the thread look for due passbacks now."""
        self.woken.set()

    def stop(self) -> None:
        """Stop the thread at its next wake."""
        self.stopped = True
        self.woken.set()

    def run(self) -> None:
        """Send all that is pending once at start (a restart is a new try), then what is due, in turn."""
        first = True
        while not self.stopped:
            self.woken.clear()
            try:
                with self.app.app_context():
                    for jti in self.store.due(now=None if first else time.time()):
                        if self.stopped:
                            return
                        send(self.store, self.keys, jti, self.retry_s)
            except Exception:  # a database hiccup: log it, keep the thread, try again next time
                log.exception("the passback loop failed; it goes on")
            first = False
            self.woken.wait(self.retry_s)
