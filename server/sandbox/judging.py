"""A Check run in a fresh sandbox and judged here: the one way /verify and the records' judge do it.

The learner's source runs in a fresh sandbox (server/sandbox/box.py; what it is given and what is read
back: server/sandbox/sandbox_io.py) with its exercise's archive, on that exercise's counted cases and on
fresh ones drawn for this run (server/sandbox/graded.py); the sandbox hands back only the numbers it got.
This process judges them against the reference's (engine/judge.py, the page's grader's own judging),
names a failing group's mistake by its numbers, and builds the report, so nothing the learner's code
prints, patches or forges changes the verdict; it can only spoil its own report. /verify
(server/verify/views.py) signs a receipt of it; the records' judge (server/records/judge.py) keeps its
verdict.
"""

import math
import random

from flask import current_app

from engine.judge import Judging
from server.exercises.registry import LEGACY
from server.sandbox import box
from server.sandbox.bwrap import sandbox_uid
from server.sandbox.graded import graded
from server.sandbox.sandbox_io import (
    numbers,
    printed,
    read_result,
    sandbox_error,
    sandbox_files,
    server_fault,
)
from server.sandbox.terms import Limits, Outcome


def judge(cases: list[dict], outcome: Outcome, verdict: str, exercise: str = LEGACY) -> dict:
    """Decide from the numbers the sandbox returned, here: the report, in the browser's shape."""
    return judge_passes(cases, outcome, verdict, exercise)[0]


def judge_passes(
    cases: list[dict], outcome: Outcome, verdict: str, exercise: str = LEGACY
) -> tuple[dict, list]:
    """judge's report, and each value set's plugin data as the sandbox sent it back (the seed's: its
    pass, exercises/backward/plugin/trace.py's plain pass, unchecked: whoever diagnoses it checks it,
    server/sandbox/graded.py). A group that fails is named by the numbers rule (engine/named.py) where
    the cases carry the exercise's wrong numbers."""
    data, err = read_result(outcome)
    got = data["got"] if data else []
    judging = Judging(graded(exercise).exercise)
    for i, case in enumerate(cases):
        judging.add(case, numbers(got[i], len(case["leaves"])) if i < len(got) else None)
    judged = judging.report(err or (sandbox_error(data) if data else None), verdict)
    judged["output"] = printed(data.get("output") if data else None)
    passes = data.get("data") if data else None
    return judged, passes if isinstance(passes, list) else []


def run_source(
    source: str, verdict: str, slot: int, catalogue: dict | None, exercise: str = LEGACY
) -> tuple[list, Outcome | None, str | None]:
    """Run source in a fresh sandbox in slot on an exercise's counted cases, fresh ones drawn now: the
    cases, the outcome, and the server's fault when the sandbox could not run it (for the log; None: it
    ran). graded.NotServed for an exercise this server does not serve."""
    config = current_app.config
    which = graded(exercise)
    cases = which.cases(verdict, random.SystemRandom())
    try:
        outcome = box.run(
            sandbox_files(source, cases, catalogue, which.sandbox),
            "driver.py",
            limits_of(config),
            sandbox_uid(slot, config["SANDBOX_UID"]),
        )
    except OSError as exc:  # bwrap or prlimit missing, no file descriptor left
        return cases, None, str(exc)
    return cases, outcome, server_fault(outcome)


def limits_of(config) -> Limits:
    """The sandbox's limits from the app's settings."""
    seconds = config["VERIFY_TIME_LIMIT_MS"] / 1000
    return Limits(wall_s=seconds, cpu_s=max(1, math.ceil(seconds)))
