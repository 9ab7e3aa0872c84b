"""`exercises check --runtime pyodide`: the check's stages 3 to 6 in Pyodide, the learner's runtime.

The cases and the numbers the exercise's own code gives are the server's, computed in CPython
(runs.numbered) as for the page and /verify; then Node's Pyodide (node_modules/pyodide, in_pyodide.mjs)
unpacks the exercise's engine archive (archive.py), starts the grader with the worker's own code and
grades the reference, the starter and each named mistake on those cases. The reference's and each
mistake's numbers there must equal CPython's by the exercise's tolerance (a number the learner's browser
computes differently would grade differently from /verify), and the reports must pass stages 3 to 6 as
CPython's do (runs.judge).
"""

import base64
import json
import math
import shutil
import subprocess

from server.exercises import archive, grading, runs
from server.exercises.folder import Exercise
from server.exercises.runs import Findings, Numbered

SCRIPT = archive.REPOSITORY / "server" / "exercises" / "in_pyodide.mjs"
PYODIDE = archive.REPOSITORY / "node_modules" / "pyodide"
LIMIT_S = 240  # Node's run of one exercise, at most (Pyodide's start is most of it)


class Unavailable(Exception):
    """Node or Pyodide cannot be run here: what to install."""


def reports(exercise: Exercise, cases: list[dict], names: list[str]) -> dict:
    """Each named file of the exercise graded in Pyodide on cases: Node's answer (its reports by name,
    Pyodide's and its Python's versions)."""
    node = shutil.which("node")
    if node is None or not (PYODIDE / "pyodide.mjs").is_file():
        raise Unavailable("no Node.js with node_modules/pyodide here (npm ci installs Pyodide)")
    job = {
        "archive": base64.b64encode(archive.zipped(archive.files(exercise))).decode(),
        "cases": cases,
        "sources": [[name, exercise.code[name]] for name in names],
    }
    done = subprocess.run(
        [node, str(SCRIPT)],
        input=json.dumps(job),
        cwd=archive.REPOSITORY,
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
    )
    if done.returncode != 0:
        raise Unavailable(f"Pyodide stopped: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def numbers_of(report: dict, cases: list[dict]) -> list[list | None]:
    """Each case's numbers as a report gives them (the report's cases are by group, in the cases' order);
    None where its run raised or did not run."""
    groups = {e["name"]: e["cases"] for e in report["expressions"]}
    seen: dict[str, int] = {}
    found = []
    for case in cases:
        k = seen[case["group"]] = seen.get(case["group"], -1) + 1
        ran = groups.get(case["group"], [])
        found.append(ran[k].get("got") if k < len(ran) else None)
    return found


def as_reported(numbers: list | None) -> list | None:
    """CPython's numbers as a report gives them: a number that is not finite as its text."""
    if numbers is None:
        return None
    return [x if number(x) and math.isfinite(x) else str(x) for x in numbers]


def agree(pyodide: list | None, cpython: list | None, tolerance: dict) -> bool:
    """Whether Pyodide's numbers on a case are CPython's: both none, or each equal by the tolerance (a
    number that is not finite, by its text)."""
    cpython = as_reported(cpython)
    if pyodide is None or cpython is None:
        return pyodide is None and cpython is None
    if len(pyodide) != len(cpython):
        return False
    return all(
        grading.same([a], [b], tolerance) if number(a) and number(b) else a == b
        for a, b in zip(pyodide, cpython, strict=True)
    )


def number(x: object) -> bool:
    return type(x) in (int, float)


def run(exercise: Exercise, fresh: int = runs.FRESH) -> Findings:
    """Stages 3 to 6 in Pyodide, on the cases and numbers CPython gave."""
    found = Findings()
    made = runs.numbered(exercise, fresh, found)
    if made is None:
        return found
    _read, done = made
    mistakes = {key: f"mistakes/{key}.py" for key in exercise.keys}
    names = ["reference.py", "starter.py", *mistakes.values()]
    try:
        answer = reports(exercise, done.cases, names)
    except (Unavailable, subprocess.TimeoutExpired) as exc:
        why = f"did not end in {LIMIT_S} s" if isinstance(exc, subprocess.TimeoutExpired) else str(exc)
        found.failures.append(f"Pyodide: {why}")
        return found
    found.said.append(("runtime", f"Pyodide {answer['pyodide']} (Python {answer['python']}) in Node"))
    graded = {name: json.loads(text) for name, text in answer["reports"].items()}
    numbers = {name: numbers_of(graded[name], done.cases) for name in names}
    tolerance = exercise.data["grade"].get("tolerance", {})
    cpython = {"reference.py": done.reference, **{mistakes[k]: done.wrong[k] for k in exercise.keys}}
    for name, theirs in cpython.items():
        differ = [i for i, ours in enumerate(theirs) if not agree(numbers[name][i], ours, tolerance)]
        if differ:
            case = done.cases[differ[0]]
            found.failures.append(
                f"{name} gives other numbers in Pyodide than in CPython on {len(differ)} of {len(theirs)}"
                f" cases: first on {case['group']} {case['inputs']['values']}:"
                f" {numbers[name][differ[0]]} in Pyodide, {theirs[differ[0]]} in CPython"
            )
    if found.failures:
        return found
    said = f"the reference's and {len(mistakes)} mistakes' as CPython's on all {len(done.cases)} cases"
    found.said.append(("numbers", said))
    in_pyodide = Numbered(
        done.cases, numbers["reference.py"], {k: numbers[mistakes[k]] for k in exercise.keys}
    )
    runs.judge(exercise, in_pyodide, graded.__getitem__, found)
    return found
