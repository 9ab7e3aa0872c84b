"""The seed's exercise (backward(out)) for the tests: the general grader and the scratch pad bound to it."""

from engine import grade as grading
from engine import scratch
from exercises.backward.seed import exercise


def grade(source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """engine.grade.grade on the seed's exercise."""
    return grading.grade(exercise(), source, cases, sink, stopping)


def run_scratch(code: str, backward: str | None, sink=None, stopping=None) -> dict:
    """engine.scratch.run_scratch beside the seed's engine."""
    return scratch.run_scratch(exercise(), code, backward, sink, stopping)
