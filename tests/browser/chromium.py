"""The Chromium the browser tests, benchmarks and screenshots launch, and the flags it is launched with."""

from tests.support.found import found_by_make

# Chromium flags for a closed network: no background requests to hosts that cannot be reached.
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# The browser tests' Chromium besides: Pyodide's wasm compiled by V8's baseline compiler (Liftoff) only,
# never optimised as it runs. A test's page lives for a few Checks, and optimising the wasm again for each
# new page cost more than it saved: a fifth of the machine's work for the same tests (docs/speed.md).
# test_hostile.py, whose rows reach the stack's end and the time limit, runs Chromium as a learner has it.
TEST_ARGS = [*CHROMIUM_ARGS, "--js-flags=--liftoff-only"]


def chromium_path(full: bool = False) -> str | None:
    """The Chromium that `make` found (scripts/setup-browser.sh): the tests' headless shell ($CHROMIUM, or
    .browser), or with full the Chromium a learner has ($CHROMIUM_FULL, or .chromium), which the LTI
    tests, the benchmarks and the screenshots use. None for Playwright's own."""
    variable, file = ("CHROMIUM_FULL", ".chromium") if full else ("CHROMIUM", ".browser")
    return found_by_make(file, variable) or None
