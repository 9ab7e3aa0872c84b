"""An exercise's own code run on its cases (the check's stages 3 to 6): the reference passes every case
and gives any numbers the teacher stated, the starter does not pass, each named mistake's code fails and
is named as itself, and the cases tell every two of them apart.

Every run here is a trusted one (grading.py): the exercise's own code, in this process.
"""

import math
import random
from dataclasses import dataclass, field

from server.exercises import grading, positions
from server.exercises.folder import Exercise, where

SEED = 51  # the check's fresh draws are the same at every run: a failure can be run again
FRESH = 5  # fresh draws per group in `exercises check` (the start-up check draws none)


@dataclass
class Findings:
    """What stages 3 to 6 found: the lines the check prints, and the failures (empty: all pass)."""

    said: list[tuple[str, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def counted(exercise: Exercise) -> set[str]:
    """Every group some verdict counts: the check grades them all, so every mistake can show."""
    return {g for groups in exercise.verdicts().values() for g in groups}


def fixed_cases(exercise: Exercise) -> list[dict]:
    """The exercise's fixed cases as the grader takes them (expected and wrong numbers added later)."""
    counts, groups = counted(exercise), exercise.groups
    return [
        {
            "group": case["group"],
            "leaves": list(groups[case["group"]]["leaves"]),
            "inputs": case["inputs"],
            "example": bool(case.get("example")),
            "extra": case["group"] not in counts,
            "fresh": False,
        }
        for case in exercise.data["cases"]
    ]


def drawn(exercise: Exercise, count, rng: random.Random) -> list[dict]:
    """Fresh cases drawn by the exercise's cases.py: count(group) of each group some verdict draws."""
    namespace: dict = {"__name__": f"exercise_{exercise.id}_cases"}
    exec(compile(exercise.code["cases.py"], str(exercise.folder / "cases.py"), "exec"), namespace)  # noqa: S102
    groups = dict.fromkeys(g for verdict in exercise.verdicts() for g in exercise.fresh_groups(verdict))
    leaves = exercise.groups
    return [
        {
            "group": group,
            "leaves": list(leaves[group]["leaves"]),
            "inputs": namespace["draw"](group, rng),
            "example": False,
            "extra": False,
            "fresh": True,
        }
        for group in groups
        for _ in range(count(group))
    ]


def finite(numbers: list | None) -> bool:
    return numbers is not None and all(isinstance(x, float) and math.isfinite(x) for x in numbers)


def failing(report: dict) -> str:
    """A report's first failure, in a few words."""
    if report.get("error"):
        return f"{report['error']['kind']}: {report['error']['message']}"
    wrong = [e["name"] for e in report["expressions"] if not e["passed"]]
    return "wrong on " + ", ".join(wrong)


@dataclass
class Numbered:
    """An exercise's cases with the numbers its own code gives in CPython: the reference's (`expected`)
    and each named mistake's (`wrong`, by key), case by case (None where a run raised)."""

    cases: list[dict]
    reference: list
    wrong: dict[str, list]

    @property
    def fixed(self) -> list[int]:
        return [i for i, c in enumerate(self.cases) if not c["fresh"]]


def numbered(exercise: Exercise, fresh: int, found: Findings) -> tuple[object, Numbered] | None:
    """Stage 3's first half, in this process: the exercise read, its cases (fixed, and fresh ones drawn
    from SEED), the reference's numbers on each (finite, and any the teacher stated) and each mistake's;
    None (and found's failures) where the reference's are not right."""
    code, tolerance = exercise.code, exercise.data["grade"].get("tolerance", {})
    path = exercise.folder / "exercise.json"
    lines = positions.lines(path.read_text(encoding="utf-8"))
    try:
        read = grading.read(exercise)
    except Exception as exc:  # noqa: BLE001 - a teacher's engine may raise anything as it loads
        found.failures.append(f"{exercise.folder / 'engine.py'}: does not load: {type(exc).__name__}: {exc}")
        return None
    cases = fixed_cases(exercise)
    try:
        cases += (
            drawn(exercise, lambda _group: fresh, random.Random(SEED)) if fresh and "cases.py" in code else []
        )
    except Exception as exc:  # noqa: BLE001
        found.failures.append(f"{exercise.folder / 'cases.py'}: draw() raised {type(exc).__name__}: {exc}")
        return None
    reference = grading.numbers(read, code["reference.py"], cases)
    for i, (case, numbers) in enumerate(zip(cases, reference, strict=True)):
        at = where(path, lines.get(f"/cases/{i}")) if not case["fresh"] else "a fresh case"
        if not finite(numbers):
            found.failures.append(f"reference.py: no finite numbers on {at} ({case['group']}): {numbers}")
        elif not case["fresh"] and "expected" in exercise.data["cases"][i]:
            stated = exercise.data["cases"][i]["expected"]
            if not grading.same(numbers, stated, tolerance):
                found.failures.append(f"reference.py gives {numbers} on {at}, not its expected {stated}")
    if found.failures:
        return None
    wrong = {key: grading.numbers(read, code[f"mistakes/{key}.py"], cases) for key in exercise.keys}
    for i, case in enumerate(cases):
        case["expected"] = reference[i]
        case["wrong"] = {key: numbers[i] for key, numbers in wrong.items()}
    done = Numbered(cases, reference, wrong)
    fixed = done.fixed
    groups = len({cases[i]["group"] for i in fixed})
    shown = sum(cases[i]["example"] for i in fixed)
    found.said.append(
        (
            "cases",
            f"{len(fixed)} fixed in {groups} groups ({shown} shown); fresh: "
            + (f"{len(cases) - len(fixed)} drawn" if len(cases) > len(fixed) else "none"),
        )
    )
    return read, done


def run(exercise: Exercise, fresh: int = FRESH) -> Findings:
    """Stages 3 to 6 on an exercise whose files and words passed (stages 1 and 2), in this process."""
    found = Findings()
    made = numbered(exercise, fresh, found)
    if made is None:
        return found
    read, done = made
    judge(exercise, done, lambda name: grading.grade(read, exercise.code[name], done.cases), found)
    return found


def judge(exercise: Exercise, done: Numbered, graded, found: Findings) -> None:
    """Stages 3 (the reference through the learner's way in) to 6, on numbered cases: graded(name) is the
    report of the exercise's file of that name (reference.py, starter.py, mistakes/<key>.py) graded on
    them, by whichever runtime runs the check."""
    cases, fixed = done.cases, done.fixed
    report = graded("reference.py")
    if not report["passed"] or not all(e["passed"] for e in report["expressions"]):
        found.failures.append(f"reference.py does not pass its own cases: {failing(report)}")
        return
    found.said.append(("reference", f"passes {len(fixed)} fixed and {len(cases) - len(fixed)} fresh cases"))
    report = graded("starter.py")
    if report["passed"]:
        found.failures.append("starter.py passes: a learner would have nothing to do")
        return
    found.said.append(("starter", f"fails ({grading.checks_mistake(report)})"))
    mistakes(exercise, graded, found)
    if not found.failures:
        pairs(exercise, done, found)


def mistakes(exercise: Exercise, graded, found: Findings) -> None:
    """Stage 5: each mistake's code fails, and the Check is counted by its own key."""
    said = []
    for key in exercise.keys:
        report = graded(f"mistakes/{key}.py")
        name = grading.checks_mistake(report)
        if report["passed"]:
            found.failures.append(f"mistakes/{key}.py passes: its cases do not show the mistake")
        elif name != key:
            why = (
                f"its numbers equal {name}'s on every case that tells {name} apart"
                if name in exercise.keys
                else f"no named mistake's numbers are its own ({name})"
            )
            found.failures.append(f"mistakes/{key}.py is named {name}, not {key}: {why}")
        else:
            wrong_on = sum(not c["passed"] for e in report["expressions"] for c in e["cases"])
            said.append(f"{key}: named {key} (wrong on {wrong_on})")
    found.said.append(("mistakes", "   ".join(said) or "none"))


def pairs(exercise: Exercise, done: Numbered, found: Findings) -> None:
    """Stage 6: every two of the reference and the mistakes differ on some fixed case."""
    runs = {"reference": done.reference, **done.wrong}
    names, tolerance = list(runs), exercise.data["grade"].get("tolerance", {})
    told, alike = [], []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            apart = [k for k in done.fixed if not grading.same(runs[a][k], runs[b][k], tolerance)]
            if apart:
                case = done.cases[apart[0]]
                told.append(f"{a}/{b} on {case['group']} {case['inputs']['values']}")
            elif exercise.data.get("plugin"):
                alike.append(f"{a}/{b}")  # each was named as itself in stage 5: the diagnosis tells them
            else:
                missing = "a case that tells them apart is missing"
                found.failures.append(f"{a} and {b} give the same numbers on every case: {missing}")
    total = len(names) * (len(names) - 1) // 2
    found.said.append(("pairs", f"{len(told)} of {total} told apart by the numbers"))
    if alike:
        found.notes.append("told apart by the diagnosis only: " + ", ".join(alike))
