"""Measure going from one exercise of the course to the next: how long the next page takes to be ready.

    .venv/bin/python -m benchmarks.course [--rounds 5] [--checks 10]

One site (the app as `make run` serves it, werkzeug threaded on 127.0.0.1) and, each round, Chromium
with a new, empty profile: it opens the first exercise's page (ops) and waits until its runtime is
ready and its snapshot kept (the first visit of the build boots Pyodide in full); then, in the same tab,
the seed's exercise's page (backward): the time to ready from its navigation start, how its runtime
started (the status line's data-start: "stored" is the kept snapshot, "full" a boot), then --checks
window.playground.check(correct) calls, each once the next Check's runtime is ready (benchmarks/load.py's
check() figure); then the last exercise's page (step), its time to ready and start. Medians over the rounds.
"""

import argparse
import os
import statistics
import tempfile

from playwright.sync_api import Page, sync_playwright

from benchmarks.load import CHECK_TIMES, SETTLE, TIMELINE, WATCH_PAGE, wait_ready
from benchmarks.sites import SEED_PAGE, chromium_on, serve
from server import create_app
from tests.support.solutions import CORRECT

# Each restored runtime's load of its exercise (after Python started, runtime/worker/worker.js): its ms,
# paired by the load's id (the marks' detail, runtime/page/workers.js).
EXERCISE_LOADS = """() => {
  const started = new Map();
  for (const m of performance.getEntriesByName("runtime: python started")) started.set(m.detail, m.startTime);
  return performance.getEntriesByName("runtime: exercise loaded")
    .filter((m) => started.has(m.detail)).map((m) => m.startTime - started.get(m.detail));
}"""
FIRST, LAST = "exercises/ops/", "exercises/step/"
READY_TIMEOUT_MS = 90_000


def opened(page: Page, url: str) -> dict:
    """Open url in the tab; its time to ready from navigation start, and how its runtime started."""
    page.goto(url, wait_until="commit")
    ready = wait_ready(page, READY_TIMEOUT_MS)["ready"]
    start = page.get_by_test_id("runtime-status").get_attribute("data-start")
    return {"ready": ready, "start": start, "timeline": page.evaluate(TIMELINE)}


def course_round(p, root: str, checks: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        with chromium_on(p, profile, WATCH_PAGE) as page:
            first = opened(page, root + FIRST)
            page.evaluate(SETTLE)  # the snapshot kept, the service worker active
            seed = opened(page, root + SEED_PAGE)
            seed |= page.evaluate(CHECK_TIMES, [CORRECT, checks])
            seed["exercise"] = page.evaluate(EXERCISE_LOADS)
            last = opened(page, root + LAST)
    return {"first": first, "seed": seed, "last": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--checks", type=int, default=10, help="check() calls on the seed's page (default 10)"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    root = serve(create_app())
    runs = []
    with sync_playwright() as p:
        for i in range(args.rounds):
            runs.append(course_round(p, root, args.checks))
            got = {k: f"{v['ready']:,.0f} ms ({v['start']})" for k, v in runs[-1].items()}
            print(f"round {i + 1}/{args.rounds}: ready {got}", flush=True)
    median = lambda values: statistics.median(values)  # noqa: E731
    for name, page in (("ops (first)", "first"), ("backward (next)", "seed"), ("step (next)", "last")):
        starts = sorted({run[page]["start"] for run in runs})
        print(f"{name}: ready {median([r[page]['ready'] for r in runs]):,.0f} ms, started {starts}")
        marks = {m for r in runs for m in r[page]["timeline"]}
        at = {m: median([r[page]["timeline"][m] for r in runs if m in r[page]["timeline"]]) for m in marks}
        print(
            "  timeline (median ms):",
            ", ".join(f"{m} {t:,.0f}" for m, t in sorted(at.items(), key=lambda x: x[1])),
        )
    checks = [t for run in runs for t in run["seed"]["checks"]]
    fresh = [t for run in runs for t in run["seed"]["fresh"]]
    print(f"backward's check(): median {median(checks):,.0f} ms of {len(checks)}")
    print(f"backward's next runtime after a Check: median {median(fresh):,.0f} ms")
    loads = [t for run in runs for t in run["seed"]["exercise"]]
    if loads:  # a build whose runtimes load no exercise after their restore has none
        print(f"backward's exercise loaded into a runtime after its start: median {median(loads):,.1f} ms")
    print(f"Load average (1 min) at the start and the end: {load:.1f}, {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
