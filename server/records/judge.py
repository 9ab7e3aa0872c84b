"""The judge: a recorded Check run in /verify's sandbox, its verdict decided and diagnosed here.

The task takes a queued attempt, runs its source in a sandbox exactly as /verify does, with the exercise
it was made in (server/sandbox/judging.py's run_source and judge_passes, the same Slots, so verification
and judging share the machine's sandboxes), and keeps the server's verdict: passed (from the numbers
only), the named mistake, and each expression's result. The mistake is the server's: an exercise's
mistakes are named by their numbers (engine/named.py, in the judged report); for the seed's, the sandbox
hands back each value set's _backward pass as data (its plugin's, exercises/backward/plugin/trace.py),
and its diagnosis names it here, outside the sandbox, once its shape is checked
(server/sandbox/graded.py). A source judged before in the same exercise under the same rule is not run
again (an endless loop costs its time limit once); a source another worker is
judging now waits for that verdict. Whose Check a free sandbox judges next is turns.py's: one sandbox per
learner at a time, round robin across learners, endless loops in a lane of their own.
"""

import time
from dataclasses import dataclass

from flask import current_app
from huey.exceptions import RetryTask
from sqlalchemy.exc import SQLAlchemyError

from server.db import database
from server.db.unreachable import is_unreachable
from server.exercises.registry import LEGACY
from server.learners.who import Who
from server.queue import queue
from server.records import of_the_class, quota, store, turns
from server.records.pseudonyms import pseudonym
from server.sandbox.graded import NotServed, graded
from server.sandbox.judging import judge_passes, run_source

BUSY_RETRY_S = 1  # every sandbox busy, or no waiting Check's turn now: look again after this long
FAULT_RETRY_S = 5  # a sandbox that could not start: its Check is taken again after this long
SWEEP_MINUTES = 5  # a Check queued this long, with no worker on it, is queued again (its task was lost)
SWEEP_AT_MOST = 200  # Checks queued again in one sweep (the oldest; the next sweep takes more)


@dataclass(frozen=True)
class Verdict:
    """The server's verdict on a Check: passed; the Check's mistake (the seed's kinds.MISTAKES) or error kind
    (report.KINDS'), None when it passed; each counted expression's (passed, mistake or error kind)."""

    passed: bool
    mistake: str | None
    results: dict[str, tuple[bool, str | None]]


def verdict_of(cases: list[dict], report: dict, passes: list, exercise: str = LEGACY) -> Verdict:
    """The verdict of a judged report: each expression's mistake read from its first wrong value set that
    ran and has a pass (the seed's diagnosis, as the page explains its first wrong one), else the one the
    numbers rule named in the report (engine/named.py), else the error's kind, else `wrong`."""
    which = graded(exercise)
    error = report["error"]["kind"] if report["error"] else None
    expressions = {e["name"]: e for e in report["expressions"]}
    found: dict[str, str] = {}
    seen: dict[str, int] = {}
    for i, case in enumerate(cases):
        name = case["group"]
        number, seen[name] = seen.get(name, 0), seen.get(name, 0) + 1
        result = expressions[name]["cases"][number]
        if name in found or result["passed"] or "got" not in result or i >= len(passes):
            continue
        if kind := which.diagnosed(passes[i], case["leaves"]):
            found[name] = kind
    for name, expr in expressions.items():  # named by its numbers (the seed's have no named mistakes)
        if name not in found and not expr["passed"] and expr["mistake"]:
            found[name] = expr["mistake"]["kind"]
    unnamed = None if exercise == LEGACY else "wrong"  # the seed's: its diagnosis names a pass it reads
    results = {
        name: (expr["passed"], None if expr["passed"] else found.get(name) or error or unnamed)
        for name, expr in expressions.items()
        if not expr["extra"]
    }
    first = next((kind for ok, kind in results.values() if not ok and kind), None)
    return Verdict(report["passed"], None if report["passed"] else error or first, results)


def record_judged(
    who: Who | None, source: str, cases: list[dict], report: dict, passes: list, exercise: str = LEGACY
) -> None:
    """Record a Check of an exercise /verify judged (its pass, or the server's refusal of it), with its
    verdict, when a learner of the class made it. A database that cannot be reached now raises (the
    request's 503: the page sends the Check again, server/db/unreachable.py); any other failure is
    logged, and the learner still gets their answer."""
    if not of_the_class(who):
        return
    verdict = verdict_of(cases, report, passes, exercise)
    try:
        keep_judged(who, source, exercise, report["rule"], verdict)
    except SQLAlchemyError as exc:
        if is_unreachable(exc):
            raise
        current_app.logger.error("a verified Check could not be recorded: %s", exc)


def keep_judged(who: Who, source: str, exercise: str, rule: str, verdict: Verdict) -> None:
    with database().connect() as conn:
        if who.launch is None:
            learner = pseudonym(who.issuer, who.course, who.sub)  # in this course
            store.opened(conn, who.issuer, who.course, who.activity, who.sub, learner, None)
        bounds = quota.Bounds.of(current_app.config)  # what the learner keeps: counted, never refused
        attempt_id = store.add_verified(
            conn,
            bounds,
            who.issuer,
            who.course,
            who.activity,
            who.sub,
            source,
            exercise,
            rule,
            verdict.passed,
        )
        if attempt_id is None:  # their records were deleted as it was judged: it goes with them
            return
        store.judged(conn, attempt_id, verdict.passed, verdict.mistake, verdict.results)


def sweep() -> None:
    """The periodic task: queue again each Check that has waited SWEEP_MINUTES with no worker on it (its
    task was lost with a process that stopped mid-way). Without it such a Check would wait for good, and
    count against its learner's bound of queued Checks, so their later Checks would all be skipped."""
    with database().connect() as conn:
        lost = store.lost(conn, time.time() - SWEEP_MINUTES * 60, SWEEP_AT_MOST)
    for attempt_id in lost:
        current_app.extensions["records"]["judge"](attempt_id)
    if lost:
        current_app.logger.warning("queued %s recorded Checks again, their tasks lost", len(lost))


def judge_attempt(attempt_id: int) -> None:
    """The task queued with each recorded Check (attempt_id, for the log): judge the queued Checks in
    their fair order (turns.py), one after another while a sandbox is free and one may be judged. Which
    task judges which Check does not matter: a task ends only when no Check waits, so every Check that
    waits has a task that will judge it (every sandbox busy with a judging task: each carries on when
    done, so this one ends). A sandbox is taken only when no /verify request waits for one (a learner
    waiting for their answer goes first); every sandbox busy otherwise, or every waiting Check waiting for
    its learner's own, its source's verdict or the loops' lane: the task looks again after BUSY_RETRY_S."""
    state = current_app.extensions["verify"]
    loops = turns.loops_at_most(state["slots"].count)
    while True:
        with database().connect() as conn:
            if not turns.waiting(conn):
                return
        if queue().stopping():  # the process is stopping: the task is kept for another
            raise RetryTask(delay=BUSY_RETRY_S)
        with state["queue"].spare(state["slots"]) as slot:
            if slot is None:
                with database().connect() as conn:
                    if turns.judging(conn) >= state["slots"].count:  # each carries on when done
                        return
                raise RetryTask(delay=BUSY_RETRY_S)
            with database().connect() as conn:
                taken = turns.next_turn(conn, loops)
            if taken is None:
                raise RetryTask(delay=BUSY_RETRY_S)
            judge_one(taken, slot)


def judge_one(attempt_id: int, slot: int) -> None:
    """Judge a Check this worker took, in slot (or give it the verdict of its source, judged before), and
    keep the verdict."""
    with database().connect() as conn:
        row = store.attempt(conn, attempt_id)
        if row is None or row.state != "queued":  # deleted meanwhile (retention, a learner forgotten)
            return
        if (before := store.verdict_before(conn, row)) is not None:
            store.judged(conn, attempt_id, *before)
            return
    try:
        cases, outcome, fault = run_source(row.source, row.rule, slot, None, row.exercise)
    except NotServed:  # its exercise is no longer served here: nothing can judge it (said, never lost)
        current_app.logger.error(
            "recorded Check %s is of exercise %r, not served: skipped", attempt_id, row.exercise
        )
        with database().connect() as conn:
            store.skip(conn, attempt_id)
        return
    if fault:  # the server's, not the learner's code's: tried again later
        current_app.logger.error("a recorded Check could not be judged: %s", fault)
        with database().connect() as conn:
            turns.let_go(conn, attempt_id, FAULT_RETRY_S)
        raise RetryTask(delay=FAULT_RETRY_S)
    with current_app.test_request_context():  # the report's words (English: only kinds are kept)
        report, passes = judge_passes(cases, outcome, row.rule, row.exercise)
    verdict = verdict_of(cases, report, passes, row.exercise)
    with database().connect() as conn:
        store.judged(conn, attempt_id, verdict.passed, verdict.mistake, verdict.results)
    current_app.logger.info("judged recorded Check %s in the sandbox: %s", attempt_id, verdict.mistake)
