"""What `make` found for the tests (scripts/setup-*.sh write a path into a file at the checkout's root)."""

import os

from server import ROOT


def found_by_make(file: str, variable: str | None = None) -> str:
    """The path in file (.browser, .postgres...), or the environment variable that overrides it; "" for
    none."""
    found = ROOT / file
    return (variable and os.environ.get(variable)) or (found.read_text().strip() if found.exists() else "")
