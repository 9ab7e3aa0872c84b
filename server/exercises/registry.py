"""The exercises this server serves, in order: the playground's own (exercises/, in exercises/course.json's
order) and a teacher's folder of exercise folders (PLAYGROUND_EXERCISES), each read and checked.

A teacher's folder may hold a course.json of its own ({"exercises": [ids]}, the playground's ids
allowed): what is served, in that order. Without one: the playground's course, then the folder's
exercises by name. An id the playground ships is refused in a teacher's folder. LEGACY is the exercise of
everything made before there were several (old launches, records, /verify posts without one, old share
links).
"""

import json
import random
from pathlib import Path

from server.exercises import grading, languages, runs
from server.exercises.folder import Exercise, Refused, load

SHIPPED = Path(__file__).resolve().parents[2] / "exercises"  # the playground's own exercises
COURSE = "course.json"
LEGACY = "backward"  # the exercise of whatever was made before exercises: its one home


class ExercisesRefused(Exception):
    """A served exercise that fails its check, or a folder that cannot be served: one line, as a bad
    setting's."""


def course(folder: Path) -> list[str] | None:
    """A folder's course.json: the ids it serves, in order (None: it has none)."""
    path = folder / COURSE
    if not path.is_file():
        return None
    try:
        ids = json.loads(path.read_text(encoding="utf-8"))["exercises"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ExercisesRefused(f'{path}: not a course ({{"exercises": [ids]}}): {exc}') from None
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ExercisesRefused(f'{path}: not a course ({{"exercises": [ids]}})')
    return ids


def served(teachers: Path | str | None = None, shipped: Path | None = None) -> list[tuple[Path, bool]]:
    """The folders served, in order, each with whether it is the playground's own."""
    shipped = shipped or SHIPPED
    own = {i: shipped / i for i in course(shipped) or []}
    if not teachers:
        return [(folder, True) for folder in own.values()]
    teachers = Path(teachers)
    if not teachers.is_dir():
        raise ExercisesRefused(f"PLAYGROUND_EXERCISES: {teachers} is not a folder")
    theirs = {p.name: p for p in sorted(teachers.iterdir()) if (p / "exercise.json").is_file()}
    for name in theirs.keys() & own.keys():
        raise ExercisesRefused(
            f"PLAYGROUND_EXERCISES: {teachers / name}: the playground ships an exercise {name}"
        )
    ids = course(teachers)
    if ids is None:
        ids = [*own, *theirs]
    unknown = [i for i in ids if i not in own and i not in theirs]
    if unknown:
        raise ExercisesRefused(f"{teachers / COURSE}: no exercise folder {', '.join(unknown)}")
    return [(own[i], True) if i in own else (theirs[i], False) for i in dict.fromkeys(ids)]


class Registry:
    """The served exercises, read (files and words), by id, in order."""

    def __init__(self, folders: list[tuple[Path, bool]], offered: list[str]) -> None:
        self.offered = offered
        self.by_id: dict[str, Exercise] = {}
        self.numbered: dict[tuple[str, str], list[dict]] = {}
        for folder, own in folders:
            try:
                exercise = load(folder, own)
            except Refused as refused:
                raise ExercisesRefused(f"{folder} fails its check: {refused.complaints[0]}") from None
            complaints, _notes = languages.check(exercise, offered)
            if complaints:
                raise ExercisesRefused(f"{folder} fails its check: {complaints[0]}")
            self.by_id[exercise.id] = exercise

    def exercises(self) -> list[Exercise]:
        return list(self.by_id.values())

    def exercise(self, id_: str) -> Exercise | None:
        return self.by_id.get(id_)

    def cases(self, id_: str, verdict: str) -> list[dict]:
        """The page's cases under a verdict, with the reference's numbers and each mistake's (trusted runs,
        once per exercise and verdict)."""
        if (id_, verdict) not in self.numbered:
            exercise = self.by_id[id_]
            cases = runs.fixed_cases(exercise)
            for case in cases:
                case["extra"] = case["group"] not in exercise.verdicts()[verdict]
            self.numbered[id_, verdict] = with_numbers(exercise, cases)
        return [dict(case) for case in self.numbered[id_, verdict]]

    def fresh(self, id_: str, verdict: str, rng: random.Random) -> list[dict]:
        """Cases no page has shown, drawn for one request, with their numbers."""
        exercise = self.by_id[id_]
        drawn = runs.drawn(exercise, exercise.fresh_count, rng)
        cases = [c for c in drawn if c["group"] in exercise.fresh_groups(verdict)]
        return with_numbers(exercise, cases)


def with_numbers(exercise: Exercise, cases: list[dict]) -> list[dict]:
    """Cases with the reference's numbers (`expected`) and each named mistake's (`wrong`)."""
    read = grading.read(exercise)
    reference = grading.numbers(read, exercise.code["reference.py"], cases)
    wrong = {k: grading.numbers(read, exercise.code[f"mistakes/{k}.py"], cases) for k in exercise.keys}
    for i, case in enumerate(cases):
        case["expected"] = reference[i]
        case["wrong"] = {key: numbers[i] for key, numbers in wrong.items()}
    return cases
