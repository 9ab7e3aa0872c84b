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


def chromium_path() -> str | None:
    """The Chromium that `make` found (scripts/setup-browser.sh), or None for Playwright's own."""
    found = Path(__file__).resolve().parents[2] / ".browser"
    return os.environ.get("CHROMIUM") or (found.read_text().strip() if found.exists() else "") or None
