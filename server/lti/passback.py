"""Grade passback (LTI AGS): a verified pass becomes a score in the platform's line item.

A launch's first verified pass is queued in the database under its receipt's jti; once it is on its
way, sent or kept, the launch's later passes queue nothing (one score per launch: the grade is already
1/1). It is sent by threads of each process (the Sender), never by a request: a lane per platform (its
issuer), so a platform that does not answer holds only its own courses' grades. A lane sends at once
(a new pass wakes it), on Retry (which makes the launch's pending passes due now), and again after a
growing wait when the platform could not be reached, up to a last try (Schedule). A row is claimed
before it is sent, so no two processes send the same pass; once the platform has it, it is marked sent
and never sent again. A 409 (Moodle: "Refusing score with an earlier timestamp") is the platform's
final answer: it holds a newer grade, and the row is marked kept, not tried again. Any other 4xx but
408 and 429 (which say "later") is a final refusal: the row is marked failed with the reason, and the
page and the log say so. Only passes are sent (scoreGiven = 1), so a later failing Check never lowers
a grade: best, not latest.
"""

import logging
import threading
import time
from dataclasses import dataclass
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
LATER = {408, 429}  # the 4xx that say "not now" rather than "no"
LONGEST_WAIT_S = 3600


@dataclass(frozen=True)
class Schedule:
    """When a passback that did not reach its platform is tried again: first_s after the first try,
    doubling, at most an hour apart; the tries-th try is the last."""

    first_s: float
    tries: int

    def wait(self, attempts: int) -> float:
        """The wait after the attempts-th try (1 for the first)."""
        return min(self.first_s * 2 ** min(attempts - 1, 20), LONGEST_WAIT_S)


def takes_grades(launch: dict) -> bool:
    """Whether the launch's link takes a grade: AGS with the score scope and a line item."""
    ags = launch["ags"]
    scopes = ags.get("scope", []) if ags else []
    return bool(
        ags and "https://purl.imsglobal.org/spec/lti-ags/scope/score" in scopes and ags.get("lineitem")
    )


def queue_pass(store: Store, launch: dict, jti: str) -> str | None:
    """Queue a verified pass of a launch for its line item; the jti to send, or None (nothing queued: no
    grade service, or the launch's score is on its way, sent or kept)."""
    if not takes_grades(launch):
        return None
    timestamp = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return jti if store.add_passback(jti, launch["id"], SCORE_MAXIMUM, SCORE_MAXIMUM, timestamp) else None


def send(store: Store, keys: ToolKeys, jti: str, schedule: Schedule) -> str:
    """Try to send one passback now; its state afterwards: "sent", "kept", "failed" or "pending" (or
    "claimed": another process has it)."""
    row = store.claim(jti, CLAIM_S)
    if row is None:
        current = store.passback(jti)
        return current["state"] if current and current["state"] != "pending" else "claimed"
    launch = store.launch(row["launch_id"])
    registration = store.registration(launch["issuer"], launch["client_id"]) if launch else None
    if launch is None or registration is None:
        return given_up(store, jti, launch, "the launch or its platform's registration is gone", None)
    grade = (
        Grade()
        .set_score_given(row["score"])
        .set_score_maximum(row["maximum"])
        .set_timestamp(row["timestamp"])
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_user_id(launch["sub"])
    )
    try:
        with TimeoutSession() as session:  # closed after: no connection to the LMS left open
            connector = FlaskServiceConnector(registration_of(registration, keys), requests_session=session)
            AssignmentsGradesService(connector, launch["ags"]).put_grade(grade)
    except LtiServiceException as exc:
        status, answer = exc.response.status_code, exc.response.text[:200]
        if status == 409:
            store.kept(jti, f"{status}: {answer}")
            log.info("grade passback %s: %s holds a newer grade (409), kept", jti, launch["issuer"])
            return "kept"
        if refused(status):
            return given_up(store, jti, launch, f"{exc} {answer}", status)
        later = retry_after(exc.response.headers.get("Retry-After"))
        return failed(store, jti, row, launch, exc, schedule, status, later)
    except (LtiException, RequestException, ValueError, KeyError) as exc:  # ValueError: an answer not JSON
        return failed(store, jti, row, launch, exc, schedule)
    store.sent(jti)
    return "sent"


def refused(status: int | None) -> bool:
    """Whether an HTTP status is a platform's final "no" to a score: a 4xx but 408 and 429 ("later"); a
    409 (a newer grade held) is final too, and kept apart."""
    return status is not None and 400 <= status < 500 and status not in LATER


def retry_after(header: str | None) -> float:
    """A Retry-After in seconds (0 when absent or a date), at most an hour."""
    return min(float(header), LONGEST_WAIT_S) if header and header.strip().isdigit() else 0.0


def given_up(store: Store, jti: str, launch: dict | None, reason: str, status: int | None) -> str:
    """Mark a passback failed for good, with its reason, and log it."""
    store.given_up(jti, reason, status)
    issuer = launch["issuer"] if launch else "its platform"
    log.warning("grade passback %s to %s failed for good: %s", jti, issuer, reason)
    return "failed"


def failed(
    store: Store,
    jti: str,
    row: dict,
    launch: dict,
    exc: Exception,
    schedule: Schedule,
    status: int | None = None,
    later: float = 0.0,
) -> str:
    """Note a try that did not reach the platform: tried again after a growing wait, or, the last try
    done, failed for good."""
    attempts = row["attempts"] + 1
    if attempts >= schedule.tries:
        return given_up(
            store, jti, launch, f"gave up after {attempts} tries: {type(exc).__name__}: {exc}", status
        )
    wait = max(schedule.wait(attempts), later)
    store.failed(jti, f"{type(exc).__name__}: {exc}", wait, status)
    log.warning("grade passback %s to %s failed (%s); retrying in %.0f s", jti, launch["issuer"], exc, wait)
    return "pending"


class Sender:
    """Sends the passbacks that are due, a lane (a thread) per platform: when woken (a new pass, a Retry),
    and every schedule.first_s. Its own thread finds the platforms with passbacks due and starts a lane
    for each that has none running; a lane sends its platform's due passbacks in turn until none is left,
    each pass over them in an app context of its own (one database connection), then ends.
    """

    def __init__(self, app: Flask, store: Store, keys: ToolKeys, schedule: Schedule) -> None:
        self.app = app
        self.store = store
        self.keys = keys
        self.schedule = schedule
        self.stopped = False
        self.woken = threading.Event()
        self.lock = threading.Lock()
        self.lanes: dict[str, Lane] = {}  # issuer -> its running lane
        self.thread = threading.Thread(target=self.run, name="lti-passback", daemon=True)

    def start(self) -> "Sender":
        """Start the thread."""
        self.thread.start()
        return self

    def wake(self) -> None:
        """Have the thread look for due passbacks now."""
        self.woken.set()

    def stop(self) -> None:
        """Stop the thread at its next wake, and each lane before its next send."""
        self.stopped = True
        self.woken.set()

    def run(self) -> None:
        """Send all that is pending once at start (a restart is a new try), then what is due."""
        first = True
        while not self.stopped:
            self.woken.clear()
            try:
                with self.app.app_context():
                    platforms = self.store.due_platforms(now=None if first else time.time())
                for issuer in platforms:
                    self.lane(issuer, first)
            except Exception:  # a database hiccup: log it, keep the thread, try again next time
                log.exception("the passback loop failed; it goes on")
            first = False
            self.woken.wait(self.schedule.first_s)

    def lane(self, issuer: str, first: bool) -> None:
        """Start a lane for a platform, or have its running lane look again before it ends."""
        with self.lock:
            running = self.lanes.get(issuer)
            if running is not None:
                running.again = True
                return
            self.lanes[issuer] = running = Lane(self, issuer, first)
        running.thread.start()


class Lane:
    """One platform's sending: its due passbacks in turn, until none is left."""

    def __init__(self, sender: Sender, issuer: str, first: bool) -> None:
        self.sender = sender
        self.issuer = issuer
        self.first = first  # at start: every pending passback, due or not
        self.again = True  # set by the sender: more may have come due since this lane last looked
        self.thread = threading.Thread(target=self.run, name=f"lti-passback {issuer}"[:60], daemon=True)

    def run(self) -> None:
        try:
            while self.more():
                self.send_due()
        except Exception:  # a database hiccup: the sender's next look starts the lane again
            log.exception("the passback lane of %s failed", self.issuer)
            self.end()

    def more(self) -> bool:
        """Whether to look (again) for due passbacks; if not, the lane ends, under the same lock as the
        sender's "look again", so no ask is lost between the two."""
        with self.sender.lock:
            if self.again and not self.sender.stopped:
                self.again = False
                return True
            self.drop()
            return False

    def end(self) -> None:
        with self.sender.lock:
            self.drop()

    def drop(self) -> None:
        """No longer the platform's running lane (the sender's lock held)."""
        if self.sender.lanes.get(self.issuer) is self:
            del self.sender.lanes[self.issuer]

    def send_due(self) -> None:
        """Send what is due, looking again after each batch: a try that fails is due later, not now."""
        sender, now = self.sender, None if self.first else time.time()
        self.first = False
        while not sender.stopped:
            with sender.app.app_context():
                due = sender.store.due(now, self.issuer)
                for jti in due:
                    if sender.stopped:
                        return
                    send(sender.store, sender.keys, jti, sender.schedule)
            if not due:
                return
            now = time.time()
