"""The general grader (engine/: docs/architecture.md, "The general grader and an exercise") as the
server's exercises use it: an exercise's descriptor made from its folder, trusted runs of its own code,
a Check graded (each failing group's mistake named: by the plugin, else by its numbers), the Check's
mistake.

A trusted run is the exercise's own code (its reference, a named mistake's wrong code), the host's,
run in the server process beside a fresh engine, without the learner's side (which swaps builtins for
the whole process: never in a threaded server). Learner code never runs here: a learner's Check runs
in the browser, and at /verify in the sandbox.
"""

from contextlib import nullcontext

from engine.compare import tolerance_of
from engine.descriptor import Descriptor
from engine.descriptor import read as engine_read
from engine.grade import grade as engine_grade
from engine.named import equal
from engine.outputs import Runner
from server.exercises.folder import Exercise


def descriptor(exercise: Exercise) -> dict:
    """The exercise as the grader reads it: its call, tolerance, groups, verdicts and mistakes, with the
    words of every language it is written in."""
    data, words = exercise.data, exercise.words

    def said(kind: str, name: str, fields: tuple[str, ...]) -> dict:
        found = {lang: w.get(kind, {}).get(name) for lang, w in words.items()}
        return {lang: {f: w[f] for f in fields if f in w} for lang, w in found.items() if w}

    described = {
        "format": 1,
        "id": exercise.id,
        "engine": f"exercises/{exercise.id}/engine.py",
        "learner_writes": list(data["learner_writes"]),
        "call": data["grade"]["call"],
        "tolerance": data["grade"].get("tolerance", {}),
        "engine_hints": bool(data.get("engine_hints")),
        "plugin": data.get("plugin"),
        "groups": [{**g, "words": said("groups", g["name"], ("formula", "about"))} for g in data["groups"]],
        "mistakes": [
            {"key": key, "words": said("mistakes", key, ("title", "says", "hint"))} for key in exercise.keys
        ],
    }
    if data.get("verdicts"):
        described["verdicts"] = data["verdicts"]
    return described


class Trusted:
    """The side a trusted run has: the process's own builtins, nothing to add to an error."""

    def learner(self):
        return nullcontext()

    def note(self, message: str) -> str:
        return ""


def read(exercise: Exercise) -> Descriptor:
    """The exercise read by the grader: its engine compiled, its plugin imported."""
    return engine_read(descriptor(exercise), exercise.code["engine.py"])


def numbers(read: Descriptor, source: str, cases: list[dict]) -> list[list[float] | None]:
    """A trusted run: each case's numbers with source (the exercise's own code) as the learner's, None
    where its run raised (or the code did not load)."""
    runner = Runner(read, source, Trusted(), watch=False)
    if runner.error is not None:
        return [None] * len(cases)
    found = []
    for case in cases:
        read.plugin.prepare(runner, case)
        got, _error = runner.outputs(case)
        found.append(got)
    return found


def grade(read: Descriptor, source: str, cases: list[dict]) -> dict:
    """A Check's report, as the page's grader makes it (the check runs it on the exercise's own code)."""
    return engine_grade(read, source, cases)


def same(a: list | None, b: list | None, tolerance: dict) -> bool:
    """Whether two runs' numbers on a case are equal by the exercise's tolerance."""
    return equal(a, b, tolerance_of(tolerance))


def checks_mistake(report: dict) -> str | None:
    """The mistake a Check is counted by (records, the class view): the first failing counted group's,
    else the error's kind, else `wrong`; None for a pass."""
    if report["passed"]:
        return None
    for expression in report["expressions"]:
        if not expression["extra"] and not expression["passed"] and expression.get("mistake"):
            return expression["mistake"]["kind"]
    return report["error"]["kind"] if report.get("error") else "wrong"
