"""A shipped exercise graded as the page grades it, in CPython: its fixed cases with the reference's and
each named mistake's numbers, and a source's failing groups by the mistake each is named."""

from dataclasses import dataclass

from engine.descriptor import Descriptor
from engine.grade import grade
from engine.outputs import compute
from server.exercises import grading
from server.exercises.folder import Exercise, load
from server.exercises.runs import fixed_cases
from tests.support.exercise_folders import SHIPPED


@dataclass
class Graded:
    folder: Exercise
    exercise: Descriptor
    cases: list[dict]

    def report(self, source: str) -> dict:
        """A Check of source on the fixed cases."""
        return grade(self.exercise, source, self.cases)

    def failing(self, source: str) -> dict[str, str | None]:
        """Each failing group of source's Check, and the mistake it is named (None: none)."""
        report = self.report(source)
        assert report["passed"] is False
        return {
            e["name"]: e["mistake"] and e["mistake"]["kind"] for e in report["expressions"] if not e["passed"]
        }

    def code(self, name: str) -> str:
        return self.folder.code[name]


def numbers(exercise: Descriptor, source: str, cases: list[dict]) -> list:
    result = compute(exercise, source, cases)
    assert result["error"] is None, result["error"]
    return result["got"]


def graded(id_: str) -> Graded:
    """The shipped exercise id_, its fixed cases' right and wrong numbers added as the page adds them."""
    folder = load(SHIPPED / id_, own=True)
    exercise = grading.read(folder)
    cases = fixed_cases(folder)
    expected = numbers(exercise, folder.code["reference.py"], cases)
    wrong = {key: numbers(exercise, folder.code[f"mistakes/{key}.py"], cases) for key in folder.keys}
    for i, case in enumerate(cases):
        case["expected"] = expected[i]
        case["wrong"] = {key: got[i] for key, got in wrong.items()}
    return Graded(folder, exercise, cases)
