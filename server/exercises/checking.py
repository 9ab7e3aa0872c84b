"""`flask --app server exercises check`: one exercise's check, all six stages, as one block of text.

check() runs it in this process (the start-up check, the tests); `python -m server.exercises.checking
[--own] [--offered en,de] [--fresh N] [--runtime pyodide] FOLDER` runs it in a child process, as the
command does for each folder (a teacher's loop ends with the child, at its time limit), and exits 1 when
it fails. Its code stages run in CPython (runs.py) or, with the cases CPython numbered, in Node's Pyodide
(pyodide.py).
"""

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from server.exercises import languages, pyodide, runs
from server.exercises.folder import Refused, load


@dataclass
class Checked:
    """One exercise's check: what it found, stage by stage, and its failures (none: it passes)."""

    folder: Path
    title: str = ""
    said: list[tuple[str, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def text(self) -> str:
        """The block the command prints."""
        head = f"{self.folder}" + (f"  ({self.title})" if self.title else "")
        body = [f"  {label:<11} {what}" for label, what in self.said]
        body += [f"  note        {note}" for note in self.notes]
        body += [f"  FAIL        {failure}" for failure in self.failures]
        return "\n".join([head, *body])


RUNTIMES = {"cpython": runs.run, "pyodide": pyodide.run}  # where the code stages run


def check(
    folder: Path,
    own: bool = False,
    offered: tuple[str, ...] = ("en",),
    fresh: int = runs.FRESH,
    runtime: str = "cpython",
) -> Checked:
    """Check one exercise's folder: files, languages, reference, starter, mistakes, pairs (in runtime);
    stop at the first stage that fails."""
    checked = Checked(Path(folder))
    try:
        exercise = load(Path(folder), own=own)
    except Refused as refused:
        checked.failures = refused.complaints
        return checked
    named = [*exercise.code]
    checked.said.append(("files", ", ".join(named)))
    complaints, notes = languages.check(exercise, list(offered))
    checked.title, checked.notes = exercise.title(), notes
    if complaints:
        checked.failures = complaints
        return checked
    checked.said.append(("languages", ", ".join(exercise.data["languages"]) + " complete"))
    found = RUNTIMES[runtime](exercise, fresh)
    checked.said += found.said
    checked.notes += found.notes
    checked.failures = found.failures
    return checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.exercises.checking")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--own", action="store_true", help="the playground's own (shipped) exercise")
    parser.add_argument("--offered", default="en", help="the languages the server offers, by commas")
    parser.add_argument("--fresh", type=int, default=runs.FRESH, help="fresh draws a group")
    parser.add_argument("--runtime", choices=list(RUNTIMES), default="cpython", help="where the code runs")
    args = parser.parse_args(argv)
    checked = check(args.folder, args.own, tuple(args.offered.split(",")), args.fresh, args.runtime)
    print(checked.text(), flush=True)
    return 0 if checked.passed else 1


if __name__ == "__main__":
    sys.exit(main())
