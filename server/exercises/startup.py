"""The start-up check: create_app refuses to serve an exercise that fails its check, with one line.

Except for the exercises commands (`flask --app server exercises check|new`, cli.py), which run with the
refusal kept and said as their own output: the command that tells a teacher why must run.

Every served exercise is read (its files and words) at each start; its own code runs (stages 3 to 6, on
its fixed cases only: no fresh draws) only when its folder's digest, with the grader's (engine/), is not
one that passed before: in this process, or in the instance folder's exercises-checked.json.
"""

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Flask

from server.exercises import runs
from server.exercises.folder import Exercise
from server.exercises.registry import ExercisesRefused, Registry, served, title

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CHECKED = "exercises-checked.json"  # in the instance folder: the digests that passed
passed_here: set[str] = set()  # and in this process
REFUSED = "exercises_refused"  # app.extensions' key of a refusal kept for the exercises commands


@cache
def engine_digest() -> str:
    """The grader's files, hashed: a new grader checks every exercise again."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE.rglob("*.py")):
        digest.update(path.relative_to(ENGINE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def digest(folder: Path) -> str:
    """An exercise's folder and the grader, hashed."""
    found = hashlib.sha256(engine_digest().encode())
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        found.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return found.hexdigest()


def check_code(exercise: Exercise, kept: set[str]) -> str | None:
    """Run an exercise's code stages unless its digest passed before; the first failure, or None."""
    sealed = digest(exercise.folder)
    if sealed in passed_here or sealed in kept:
        return None
    found = runs.run(exercise, fresh=0)
    if found.failures:
        return found.failures[0]
    passed_here.add(sealed)
    kept.add(sealed)
    return None


def init_app(app: Flask, offered: list[str], refuse: bool = True) -> Registry | None:
    """Read and check every served exercise; keep the registry on the app; ExercisesRefused, one line.

    refuse=False (the exercises commands, which say why themselves): a refusal is kept on the app
    (REFUSED) instead, and no registry is kept."""
    app.extensions["exercise_languages"] = offered
    try:
        registry = checked(app, offered)
    except ExercisesRefused as refused:
        if refuse:
            raise
        app.extensions[REFUSED] = str(refused)
        return None
    app.extensions["exercises"] = registry
    return registry


def checked(app: Flask, offered: list[str]) -> Registry:
    """The served exercises, read and checked (their code unless its digest passed before)."""
    teachers = app.config.get("EXERCISES")
    registry = Registry(served(teachers), offered, title(teachers))
    path = Path(app.instance_path) / CHECKED
    try:
        kept = set(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        kept = set()
    before = set(kept)
    for exercise in registry.exercises():
        failure = check_code(exercise, kept)
        if failure is not None:
            where = "PLAYGROUND_EXERCISES: " if not exercise.own else ""
            raise ExercisesRefused(f"{where}{exercise.folder} fails its check: {failure}")
    if kept != before:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(sorted(kept)), encoding="utf-8")
    return registry
