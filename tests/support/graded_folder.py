"""A shipped exercise graded as the page grades it, held as one object: its folder, what the grader read,
its fixed cases with the reference's and each named mistake's numbers (graded_exercise.numbered's), and a
source's failing groups by the mistake each is named."""

from dataclasses import dataclass

from engine.descriptor import Descriptor
from engine.grade import grade
from server.exercises.folder import Exercise, load
from tests.support.exercise_folders import SHIPPED
from tests.support.graded_exercise import named, numbered


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
        return named(report)

    def code(self, name: str) -> str:
        return self.folder.code[name]


def graded(id_: str) -> Graded:
    """The shipped exercise id_, its fixed cases' right and wrong numbers added as the page adds them."""
    exercise, done = numbered(id_)
    return Graded(load(SHIPPED / id_, own=True), exercise, done.cases)
