"""A shipped exercise graded as the page grades it, on its fixed cases: for the tests of one exercise's
rule (tests/exercises/test_<id>.py)."""

from functools import cache

from engine.grade import grade
from server.exercises import runs
from server.exercises.folder import load
from tests.support.exercise_folders import SHIPPED


@cache
def numbered(exercise: str) -> tuple:
    """The exercise read by the grader, and its fixed cases with the reference's and each mistake's
    numbers (as the check and the page have them)."""
    found = runs.Findings()
    made = runs.numbered(load(SHIPPED / exercise, own=True), 0, found)
    assert made is not None, found.failures
    return made


def graded(exercise: str, source: str) -> dict:
    """A Check's report of source as the learner's code."""
    read, done = numbered(exercise)
    return grade(read, source, done.cases)


def named(report: dict) -> dict[str, str | None]:
    """Each failing group's named mistake (None: no named mistake)."""
    failed = [e for e in report["expressions"] if not e["passed"]]
    return {e["name"]: e["mistake"] and e["mistake"]["kind"] for e in failed}


def engine_with(exercise: str, source: str) -> dict:
    """The exercise's engine with source run beside it (a trusted run: the exercise's own code)."""
    namespace: dict = {"__name__": "engine"}
    exec((SHIPPED / exercise / "engine.py").read_text(encoding="utf-8"), namespace)  # noqa: S102
    exec(source, namespace)  # noqa: S102 - the exercise's own reference, or a test's variant of it
    return namespace


def code(exercise: str, name: str) -> str:
    return (SHIPPED / exercise / name).read_text(encoding="utf-8")
