"""The playground's own exercises' folders, for the exercises' tests."""

import json
from pathlib import Path

from server import ROOT

SHIPPED = ROOT / "exercises"


def line_of(path: Path, text: str) -> int:
    """The line (from 1) a text first appears on in a file."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def course() -> list[str]:
    """The shipped course's exercise ids, in its order (exercises/course.json)."""
    return json.loads((SHIPPED / "course.json").read_text(encoding="utf-8"))["exercises"]


def title(exercise: str, lang: str = "en") -> str:
    """A shipped exercise's title: its statement's first line."""
    first = (SHIPPED / exercise / f"statement.{lang}.md").read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("# ")


def heading(exercise: str, lang: str = "en") -> str:
    """Its heading as the page shows it: the title with Markdown's code marks gone."""
    return title(exercise, lang).replace("`", "")
