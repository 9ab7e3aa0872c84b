"""`flask --app server exercises check [FOLDER...]` and `flask --app server exercises new NAME [--in FOLDER]`.

check: every named folder (none: every served one; a folder of exercise folders: its course.json, then
each exercise it serves), each checked in a child process (checking.py) with a
time limit, its block printed, then a summary; exit status 1 when any fails. --runtime pyodide runs its
code stages in Node's Pyodide (pyodide.py), the learner's runtime. new: a small exercise
written from template/ (tanh's _backward), checked, and what to edit next.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup, FlaskGroup

from server.exercises import pyodide, registry, runs
from server.exercises.registry import ExercisesRefused
from server.exercises.startup import REFUSED

TEMPLATE = Path(__file__).resolve().parent / "template"
LIMITS_S = {"cpython": 60, "pyodide": pyodide.LIMIT_S + 60}  # one exercise's check, at most
CHILD = [sys.executable, "-m", "server.exercises.checking"]
ID = re.compile(r"^[a-z][a-z0-9-]{0,39}$")  # the schema's id pattern (schemas/exercise.json)

exercises_command = AppGroup("exercises", help="Check the exercises, or start a new one.")


def finding_a_command() -> bool:
    """Whether Flask's command line is creating the app to find a command of the app's (`flask --app
    server exercises check`), not to serve it (gunicorn, `flask run`) nor for a command of Flask's own."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and isinstance(ctx.command, FlaskGroup)


def only_exercises(app: Flask) -> None:
    """Where create_app kept the exercises' refusal: every command of the app but these stops with it,
    one line and status 3, as create_app stops."""
    refused = app.extensions.get(REFUSED)
    if refused is None:
        return
    find = app.cli.get_command

    def get_command(ctx: click.Context, name: str) -> click.Command | None:
        if name != exercises_command.name:
            click.echo(f"Error: {refused}", err=True)
            raise SystemExit(3)
        return find(ctx, name)

    app.cli.get_command = get_command


def said_refused() -> None:
    """Say the start-up check's refusal, where create_app kept one: the server would not start."""
    refused = current_app.extensions.get(REFUSED)
    if refused is not None:
        click.echo(f"The server refuses to start: {refused}\n")


def offered() -> tuple[str, ...]:
    """The languages the server offers (server/page/i18n.py's, as create_app hands them on)."""
    return tuple(current_app.extensions["exercise_languages"])


def check_in_child(folder: Path, own: bool, fresh: int, runtime: str = "cpython") -> tuple[bool, str]:
    """One folder's check in a child process: whether it passed, and its block (or why it did not end)."""
    command = [*CHILD, "--offered", ",".join(offered()), "--fresh", str(fresh), "--runtime", runtime]
    limit = LIMITS_S[runtime]
    try:
        done = subprocess.run(
            [*command, *(["--own"] if own else []), str(folder)],
            capture_output=True,
            text=True,
            timeout=limit,
        )
    except subprocess.TimeoutExpired:
        return False, f"{folder}\n  FAIL        its check did not end in {limit} s (a loop in its code?)"
    if done.returncode not in (0, 1) or not done.stdout:
        return False, f"{folder}\n  FAIL        its check stopped: {done.stderr.strip()[-500:]}"
    return done.returncode == 0, done.stdout.rstrip("\n")


def is_course(folder: Path) -> bool:
    """A folder of exercise folders with a course.json (a teacher's PLAYGROUND_EXERCISES), not an exercise."""
    return (folder / registry.COURSE).is_file() and not (folder / "exercise.json").is_file()


def course_block(folder: Path) -> tuple[bool, str, list[tuple[Path, bool]]]:
    """A folder's course file checked (its schema, no id twice, every id served): whether it passes, its
    block, and the exercises it serves (none where it fails)."""
    path = folder / registry.COURSE
    found, complaints = registry.read_course(folder)
    served: list[tuple[Path, bool]] = []
    if not complaints:
        try:
            served = registry.served(folder)
        except ExercisesRefused as refused:
            complaints = [str(refused)]
    if complaints:
        return False, "\n".join([str(path), *(f"  FAIL        {c}" for c in complaints)]), []
    if found is None:  # no course.json: the playground's course, then the folder's exercises
        return True, f"{folder}\n  course      {', '.join(f.name for f, _ in served)}", served
    named = f"  ({found.titles['en']})" if found.titles else ""
    return True, f"{path}{named}\n  course      {', '.join(f.name for f, _ in served)}", served


@exercises_command.command("check")
@click.argument("folders", nargs=-1, type=click.Path(path_type=Path))
@click.option("--fresh", default=runs.FRESH, show_default=True, help="Fresh cases drawn a group.")
@click.option(
    "--runtime",
    type=click.Choice(["cpython", "pyodide"]),
    default="cpython",
    show_default=True,
    help="Where the exercise's code runs: this Python, or Node's Pyodide (the learner's).",
)
def check_command(folders: tuple[Path, ...], fresh: int, runtime: str) -> None:
    """Check each exercise folder (none named: every served one): its files, its languages, its
    reference, its starter, each named mistake, and that its cases tell them all apart. A folder of
    exercise folders with a course.json: its course file, then every exercise it serves."""
    said_refused()
    teachers = current_app.config.get("EXERCISES")
    if folders:
        courses = [f for f in folders if is_course(f)]
    else:  # the teacher's folder's course file, where the setting names a folder
        courses = [Path(teachers)] if teachers and Path(teachers).is_dir() else []
    course_failed, chosen = False, []
    for folder in courses:  # a course file first: the exercises it serves are checked after it
        passed, block, served = course_block(folder)
        course_failed |= not passed
        click.echo(block)
        chosen += served
    if folders:
        shipped = registry.SHIPPED.resolve()
        chosen += [(f, f.resolve().parent == shipped) for f in folders if f not in courses]
    elif not courses:
        try:
            chosen = registry.served(teachers)
        except ExercisesRefused as refused:  # no folder to check: the setting or its course is wrong
            click.echo(f"FAIL        {refused}")
            raise SystemExit(1) from None
    chosen = list({f.resolve(): (f, own) for f, own in chosen}.values())  # each once
    failed = 0
    for folder, own in chosen:
        passed, block = check_in_child(folder, own, fresh, runtime)
        failed += not passed
        click.echo(block)
    total = len(chosen)
    word = "exercise" if total == 1 else "exercises"
    said = f"{failed} fail" if failed else "all pass" if not course_failed else "none failed"
    click.echo(f"{total} {word} checked: {said}" + ("; the course file fails" if course_failed else ""))
    if failed or course_failed:
        raise SystemExit(1)


@exercises_command.command("new")
@click.argument("name")
@click.option("--in", "into", type=click.Path(path_type=Path), help="The folder of exercise folders.")
def new_command(name: str, into: Path | None) -> None:
    """Write a small exercise (tanh's _backward) that passes its own check, to edit."""
    said_refused()
    into = into or (Path(current_app.config["EXERCISES"]) if current_app.config.get("EXERCISES") else None)
    if into is None:
        raise click.UsageError("say where: --in FOLDER (or set PLAYGROUND_EXERCISES)")
    if not ID.match(name):
        raise click.UsageError(f"{name}: an exercise's name is a-z, 0-9 and -, a letter first, 40 at most")
    folder = into / name
    if folder.exists():
        raise click.UsageError(f"{folder} exists already")
    if (registry.SHIPPED / name).is_dir():
        raise click.UsageError(f"{name}: the playground ships an exercise of that name")
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    data = folder / "exercise.json"
    data.write_text(
        data.read_text(encoding="utf-8").replace('"id": "NAME"', f'"id": "{name}"'), encoding="utf-8"
    )
    passed, block = check_in_child(folder, False, runs.FRESH)
    click.echo(block)
    if not passed:
        raise SystemExit(1)
    click.echo(
        f"\nWritten: {folder}. Next: edit its statement.en.md, engine.py, starter.py, reference.py and\n"
        "mistakes/, then `flask --app server exercises check " + str(folder) + "` (docs/exercises.md)."
    )
