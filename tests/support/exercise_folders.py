"""The playground's own exercises' folders, for the exercises' tests."""

import json
from pathlib import Path

from server import ROOT

SHIPPED = ROOT / "exercises"
COURSE = json.loads((SHIPPED / "course.json").read_text())["exercises"]  # the shipped course, in order


def title(exercise: str, lang: str = "en") -> str:
    """A shipped exercise's title: its statement's first line."""
    return (SHIPPED / exercise / f"statement.{lang}.md").read_text(encoding="utf-8").splitlines()[0][2:]


def line_of(path: Path, text: str) -> int:
    """The line (from 1) a text first appears on in a file."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)
