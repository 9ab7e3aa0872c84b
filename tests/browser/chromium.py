"""The Chromium the browser tests, benchmarks and screenshots launch, and the flags it is launched with."""

import os
from pathlib import Path

# Chromium flags for a closed network: no background requests to hosts that cannot be reached.
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path(full: bool = False) -> str | None:
    """The Chromium that `make` found (scripts/setup-browser.sh): the tests' headless shell ($CHROMIUM, or
    .browser), or with full the Chromium a learner has ($CHROMIUM_FULL, or .chromium), which the LTI
    tests, the benchmarks and the screenshots use. None for Playwright's own."""
    variable, file = ("CHROMIUM_FULL", ".chromium") if full else ("CHROMIUM", ".browser")
    found = Path(__file__).resolve().parents[2] / file
    return os.environ.get(variable) or (found.read_text().strip() if found.exists() else "") or None
