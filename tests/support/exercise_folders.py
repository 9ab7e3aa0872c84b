"""The playground's own exercises' folders, for the exercises' tests."""

import json
from pathlib import Path

from server import ROOT
from server.exercises import grading
from server.exercises.folder import load
from server.exercises.runs import fixed_cases

SHIPPED = ROOT / "exercises"


def line_of(path: Path, text: str) -> int:
    """The line (from 1) a text first appears on in a file."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def course() -> list[str]:
    """The shipped course's exercise ids, in its order (exercises/course.json)."""
    return json.loads((SHIPPED / "course.json").read_text(encoding="utf-8"))["exercises"]


def title(exercise: str, lang: str = "en") -> str:
    """A shipped exercise's title: its statement's first line."""
    first = (SHIPPED / exercise / f"statement.{lang}.md").read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("# ")


def graded(exercise: str, source: str) -> dict:
    """A Check's report of source on a shipped exercise's fixed cases, as the page grades it: each case's
    expected numbers the reference's, its wrong ones each named mistake's (the server's trusted runs)."""
    folder = load(SHIPPED / exercise, own=True)
    read = grading.read(folder)
    cases = fixed_cases(folder)
    expected = grading.numbers(read, folder.code["reference.py"], cases)
    wrong = {key: grading.numbers(read, folder.code[f"mistakes/{key}.py"], cases) for key in folder.keys}
    for i, case in enumerate(cases):
        case["expected"] = expected[i]
        case["wrong"] = {key: numbers[i] for key, numbers in wrong.items()}
    return grading.grade(read, source, cases)


def named(report: dict) -> dict[str, str | None]:
    """Each failing group of a report and the mistake it is named by (None: none)."""
    return {
        e["name"]: e["mistake"] and e["mistake"]["kind"] for e in report["expressions"] if not e["passed"]
    }


def engine_with(exercise: str, source: str) -> dict:
    """A shipped exercise's engine with source (its reference, say) run beside it, as a namespace."""
    namespace: dict = {"__name__": "engine"}
    exec((SHIPPED / exercise / "engine.py").read_text(encoding="utf-8"), namespace)  # noqa: S102 - our own
    exec(source, namespace)  # noqa: S102 - the exercise's own code
    return namespace
