"""A Check run in a fresh sandbox and judged here: the one way /verify and the records' judge do it.

The learner's source runs in a fresh sandbox (server/sandbox/box.py; what it is given and what is read
back: server/sandbox/sandbox_io.py) on the page's value sets and on fresh ones drawn for this run
(server/exercises/value_sets.py); the sandbox hands back only the gradients it got. This process judges
them against the reference's (engine/judge.py, the page's grader's own judging) and builds the report,
so nothing the learner's code prints, patches or forges changes the verdict; it can only spoil its own
report. /verify (server/verify/views.py) signs a receipt of it; the records' judge
(server/records/judge.py) keeps its verdict.
"""

import math
import random

from flask import current_app

from engine.judge import Judging
from exercises.backward.seed import exercise
from server.exercises.value_sets import value_sets
from server.sandbox import box
from server.sandbox.bwrap import sandbox_uid
from server.sandbox.sandbox_io import (
    numbers,
    printed,
    read_result,
    sandbox_error,
    sandbox_files,
    server_fault,
)
from server.sandbox.terms import Limits, Outcome


def judge(cases: list[dict], outcome: Outcome, verdict: str) -> dict:
    """Decide from the numbers the sandbox returned, here: the report, in the browser's shape."""
    return judge_passes(cases, outcome, verdict)[0]


def judge_passes(cases: list[dict], outcome: Outcome, verdict: str) -> tuple[dict, list]:
    """judge's report, and each value set's pass as the sandbox sent it back (the seed's plugin's data,
    exercises/backward/plugin/trace.py's plain pass, unchecked: whoever diagnoses it checks it,
    server/records/judge.py)."""
    data, err = read_result(outcome)
    got = data["got"] if data else []
    judging = Judging(exercise())
    for i, case in enumerate(cases):
        judging.add(case, numbers(got[i], len(case["leaves"])) if i < len(got) else None)
    judged = judging.report(err or (sandbox_error(data) if data else None), verdict)
    judged["output"] = printed(data.get("output") if data else None)
    passes = data.get("data") if data else None
    return judged, passes if isinstance(passes, list) else []


def run_source(
    source: str, verdict: str, slot: int, catalogue: dict | None
) -> tuple[list, Outcome | None, str | None]:
    """Run source in a fresh sandbox in slot on the counted value sets, fresh ones drawn now: the cases,
    the outcome, and the server's fault when the sandbox could not run it (for the log; None: it ran)."""
    config = current_app.config
    cases = value_sets(
        verdict, config["VERIFY_FRESH_SETS"], random.SystemRandom(), config["VERIFY_FRESH_GRAPHS"]
    )
    try:
        outcome = box.run(
            sandbox_files(source, cases, catalogue),
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
