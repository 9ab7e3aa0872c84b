"""Grade passback (LTI AGS): a verified pass becomes a score in the platform's line item.

A launch's first verified pass is queued in the database under its receipt's jti; once it is on its
way, sent or kept, the launch's later passes queue nothing (one score per launch: the grade is already
1/1). It is sent by a task on the app's queue (server/queue.py: any process that takes work, never a
request): a try at once, on Retry, and again after a growing wait when the platform could not be
reached, up to a last try (Schedule); every pending one when a consumer starts (a restart is a new
try). One task at a time sends to a platform (its issuer's turn, across processes), and a task that
finds its platform busy asks again shortly instead of waiting: a platform that does not answer holds
one worker at most, and only its own courses' grades. A row is claimed before it is sent, so no two
processes send the same pass; once the platform has it, it is marked sent and never sent again. A 409
(Moodle: "Refusing score with an earlier timestamp") is the platform's final answer: it holds a newer
grade, and the row is marked kept, not tried again. Any other 4xx but 408 and 429 (which say "later")
is a final refusal: the row is marked failed with the reason, and the page and the log say so. Only
passes are sent (scoreGiven = 1), so a later failing Check never lowers a grade: best, not latest.
"""

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from huey import crontab
from huey.exceptions import RetryTask
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.flask import FlaskServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from requests import RequestException

from server import lti
from server.lti.store import Store
from server.lti.tool import TimeoutSession, ToolKeys, registration_of
from server.queue import TaskQueue, queue

log = logging.getLogger(__name__)
CLAIM_S = 60  # a claimed passback is another process's for this long (longer than a send takes)
SCORE_MAXIMUM = 1.0
FINAL = ("sent", "kept", "failed")  # a passback in one of these states is never tried again
LATER = {408, 429}  # the 4xx that say "not now" rather than "no"
LONGEST_WAIT_S = 3600
BUSY_S = 2.0  # a try that finds its platform busy with another asks again after this long
SWEEP_MINUTES = 5  # how often each consumer looks for passbacks whose try was lost
CATCH_UP_AT_MOST = 10_000  # passbacks enqueued by one look (more: the next look)


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


class Passbacks:
    """The passbacks' tasks on the app's queue: a try of one passback (try_passback), every pending one
    when a consumer starts (a restart is a new try), and every five minutes those overdue (a try lost
    with a process that died mid-way)."""

    def __init__(self, tasks: TaskQueue) -> None:
        self.try_task = tasks.task()(try_passback)
        self.catch_up_task = tasks.task()(catch_up)
        tasks.periodic(crontab(minute=f"*/{SWEEP_MINUTES}"))(sweep)
        tasks.on_start(lambda: self.catch_up_task(True))

    def send(self, jti: str, attempts: int = 0, delay: float = 0.0) -> None:
        """Enqueue the try of a passback that follows its attempts-th (0: its first), after delay seconds."""
        if delay > 0:
            self.try_task.schedule((jti, attempts), delay=delay)
        else:
            self.try_task(jti, attempts)

    def retry(self, store: Store, launch_id: str) -> None:
        """Enqueue a try now of each of a launch's pending passbacks (the learner's Retry)."""
        for row in store.passbacks_of(launch_id):
            if row["state"] == "pending":
                self.send(row["jti"], row["attempts"])


def try_passback(jti: str, attempts: int) -> None:
    """The queue's task: try a passback whose attempts-th try failed (0: its first), unless it was tried
    since (by another task: this one is stale), is under way, or is no longer pending. One task at a time
    sends to a platform (its issuer's turn, in every process); one that finds it busy asks again in
    BUSY_S rather than keep a worker waiting on a platform that may not answer, and the turn's holder
    sends the platform's other due passbacks (for half of CLAIM_S at most) before it lets go."""
    tool = lti.state()
    store = tool["store"]
    row = store.passback(jti)
    if not untried(row, attempts):
        return
    launch = store.launch(row["launch_id"])
    issuer = launch["issuer"] if launch else ""
    tasks = queue()
    with tasks.turn(f"lti-passback {issuer}", CLAIM_S) as ours:
        if not ours:
            raise RetryTask(delay=BUSY_S)
        attempt(tool, jti)
        until = time.monotonic() + CLAIM_S / 2  # its turn ends at CLAIM_S: no new send past half of it
        while not tasks.stopping() and time.monotonic() < until:  # the platform's other due passbacks
            due = store.due(time.time(), issuer) if launch else []
            for other in due:
                attempt(tool, other)
            if not due:
                return


def untried(row: dict | None, attempts: int) -> bool:
    """Whether a passback is pending, not under way, and has had attempts tries (none since the task)."""
    return (
        row is not None
        and row["state"] == "pending"
        and row["attempts"] == attempts
        and row["claimed_until"] <= time.time()
    )


def attempt(tool: dict, jti: str) -> None:
    """Send one passback now; if it did not reach its platform, enqueue its next try at its next_try.
    Done with (sent, kept, failed), a launch whose learner's records were deleted meanwhile goes with it:
    it was kept for this grade only (server/records/retention.py)."""
    store = tool["store"]
    outcome = send(store, tool["keys"], jti, tool["schedule"])
    row = store.passback(jti)
    if outcome == "pending" and row is not None:
        tool["passbacks"].send(jti, row["attempts"], delay=max(0.0, row["next_try"] - time.time()))
    elif outcome in FINAL and row is not None:
        store.drop_if_forgotten(row["launch_id"])


def catch_up(every: bool) -> None:
    """Enqueue a try of the pending passbacks not under way: every one (every=True), or those overdue by
    the sweep's interval (their try was lost)."""
    tool = lti.state()
    now = None if every else time.time() - SWEEP_MINUTES * 60
    for jti in tool["store"].due(now, limit=CATCH_UP_AT_MOST):
        if (row := tool["store"].passback(jti)) is not None:
            tool["passbacks"].send(jti, row["attempts"])


def sweep() -> None:
    """The periodic task: the overdue passbacks' tries enqueued again."""
    catch_up(False)
