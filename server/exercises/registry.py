"""The exercises this server serves, in order: the playground's own (exercises/, in exercises/course.json's
order) and a teacher's folder of exercise folders (PLAYGROUND_EXERCISES), each read and checked.

A teacher's folder may hold a course.json of its own ({"exercises": [ids], "title": ...}, the
playground's ids allowed; its schema: schemas/course.json): what is served, in that order, and the
course's title. Without one: the playground's course, then the folder's
exercises by name. An id the playground ships is refused in a teacher's folder. LEGACY is the exercise of
everything made before there were several (old launches, records, /verify posts without one, old share
links).
"""

import random
from dataclasses import dataclass, field
from pathlib import Path

from server.exercises import grading, languages, positions, runs
from server.exercises.folder import Exercise, Refused, load, read_json, where

SHIPPED = Path(__file__).resolve().parents[2] / "exercises"  # the playground's own exercises
COURSE = "course.json"
LEGACY = "backward"  # the exercise of whatever was made before exercises: its one home


class ExercisesRefused(Exception):
    """A served exercise that fails its check, or a folder that cannot be served: one line, as a bad
    setting's."""


@dataclass
class Course:
    """A folder's course.json, read: the ids it serves in order, its title by language (None: none given),
    the file, and the line each value is on."""

    path: Path
    ids: list[str]
    titles: dict[str, str] | None
    lines: dict[str, int] = field(default_factory=dict)

    def line(self, i: int) -> str:
        """The i-th id's place, as the check names it: path:line."""
        return where(self.path, positions.line_of(self.lines, ["exercises", i]))


def read_course(folder: Path) -> tuple[Course | None, list[str]]:
    """A folder's course.json held to its schema (schemas/course.json), no id twice: the course (None:
    it has none, or it is malformed) and every complaint, each `path:line: what`."""
    path = folder / COURSE
    if not path.is_file():
        return None, []
    complaints: list[str] = []
    data = read_json(path, "course", complaints)
    if data is None:
        return None, complaints
    title = data.get("title")
    titles = {"en": title} if isinstance(title, str) else title
    found = Course(path, data["exercises"], titles, positions.lines(path.read_text(encoding="utf-8")))
    seen: set[str] = set()
    for i, id_ in enumerate(found.ids):
        if id_ in seen:
            complaints.append(f"{found.line(i)}: {id_} is in the course twice")
        seen.add(id_)
    return (None if complaints else found), complaints


def course(folder: Path) -> Course | None:
    """A folder's course (None: it has none); ExercisesRefused with its first complaint."""
    found, complaints = read_course(folder)
    if complaints:
        raise ExercisesRefused(f"{complaints[0]}")
    return found


def title(teachers: Path | str | None = None, shipped: Path | None = None) -> dict[str, str] | None:
    """The served course's title by language: a teacher's course.json's, else (a teacher's folder with no
    course.json, or none) the playground's; None where the teacher's course gives none."""
    if teachers:
        theirs = course(Path(teachers))
        if theirs is not None:
            return theirs.titles
    own = course(shipped or SHIPPED)
    return own.titles if own else None


def served(teachers: Path | str | None = None, shipped: Path | None = None) -> list[tuple[Path, bool]]:
    """The folders served, in order, each with whether it is the playground's own."""
    shipped = shipped or SHIPPED
    playgrounds = course(shipped)
    own = {i: shipped / i for i in (playgrounds.ids if playgrounds else [])}
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
    theirs_course = course(teachers)
    if theirs_course is None:
        return [(folder, True) for folder in own.values()] + [(folder, False) for folder in theirs.values()]
    unknown = [i for i, id_ in enumerate(theirs_course.ids) if id_ not in own and id_ not in theirs]
    if unknown:
        i = unknown[0]
        raise ExercisesRefused(f"{theirs_course.line(i)}: no exercise folder {theirs_course.ids[i]}")
    return [(own[i], True) if i in own else (theirs[i], False) for i in theirs_course.ids]


class Registry:
    """The served exercises, read (files and words), by id, in order."""

    def __init__(
        self, folders: list[tuple[Path, bool]], offered: list[str], titles: dict[str, str] | None = None
    ) -> None:
        self.offered = offered
        self.titles = titles  # the course's title by language (None: none given)
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

    def title(self, lang: str) -> str | None:
        """The course's title in a language, else English's (None: the course gives none)."""
        return (self.titles.get(lang) or self.titles["en"]) if self.titles else None

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
