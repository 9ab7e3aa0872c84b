"""Grade passback (LTI AGS): a verified pass becomes a score in the platform's line item.

Every verified pass of a launched learner is queued in the database under its receipt's jti, then
sent: at once, by Retry, and by a thread in each process that retries what is due, with a growing
wait. A row is claimed before it is sent, so no two processes send the same pass; once the
platform has it, it is marked sent and never sent again. Only passes are sent (scoreGiven = 1), so
a later failing Check never lowers a grade: best, not latest.
"""

import logging
import threading
import time
from datetime import UTC, datetime

from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.flask import FlaskServiceConnector
from pylti1p3.exception import LtiException
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
    """Try to send one passback now; its state afterwards: "sent" or "pending" (or "claimed": busy)."""
    row = store.claim(jti, CLAIM_S)
    if row is None:
        current = store.passback(jti)
        return current["state"] if current and current["state"] == "sent" else "claimed"
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
    except (LtiException, RequestException, ValueError, KeyError) as exc:  # ValueError: an answer not JSON
        wait = min(retry_s * 2 ** min(row["attempts"], 12), 3600)
        store.failed(jti, f"{type(exc).__name__}: {exc}", wait)
        log.warning(
            "grade passback %s to %s failed (%s); retrying in %.0f s", jti, launch["issuer"], exc, wait
        )
        return "pending"
    store.sent(jti)
    return "sent"


def settled(store: Store, jti: str, timeout_s: float) -> str:
    """The passback's state once no process is sending it (waiting up to timeout_s for one that is)."""
    deadline = time.monotonic() + timeout_s
    row = store.passback(jti)
    while (
        row and row["state"] != "sent" and row["claimed_until"] > time.time() and time.monotonic() < deadline
    ):
        time.sleep(0.05)  # another process holds it for one send: its answer is a moment away
        row = store.passback(jti)
    return row["state"] if row else "pending"


class Retrier:
    """A thread that sends the passbacks that are due, every retry_s seconds, until stopped."""

    def __init__(self, store: Store, keys: ToolKeys, retry_s: float) -> None:
        self.store = store
        self.keys = keys
        self.retry_s = retry_s
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="lti-passback-retry", daemon=True)

    def start(self) -> "Retrier":
        """Start the thread."""
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread at its next wake."""
        self.stopped.set()

    def run(self) -> None:
        """Send all that is pending once at start (a restart is a new try), then what is due, in turn."""
        first = True
        while first or not self.stopped.wait(self.retry_s):
            try:
                for jti in self.store.due(now=None if first else time.time()):
                    send(self.store, self.keys, jti, self.retry_s)
            except Exception:  # a database hiccup: log it, keep the thread, try again next time
                log.exception("the passback retry loop failed; it goes on")
            first = False
