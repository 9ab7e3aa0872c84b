"""Measure going through the course: how long each next exercise's page takes to be ready, and its Check.

    .venv/bin/python -m benchmarks.course [--rounds 3] [--checks 5]

One site (the app as `make run` serves it, werkzeug threaded on 127.0.0.1) and, each round, Chromium
with a new, empty profile: it opens the course's first exercise's page (ops) and waits until its runtime
is ready and its snapshot kept (the first visit of the build boots Pyodide in full); then, in the same
tab, each next exercise's page in the course's order: its time to ready from its navigation start, how
its runtime started (the status line's data-start: "stored" is the kept snapshot, "full" a boot), and
--checks window.playground.check(its reference) calls, each once the next Check's runtime is ready
(benchmarks/load.py's check() figure; the seed's with tests/support/solutions.CORRECT). Medians over the
rounds, per exercise. Then, each round in another new profile, the course walked by its Next links inside
one page (static/js/page/course-nav.js): each next exercise's time from the press until its first Check's
runtime is ready, the page's loads counted (one: the runtime was kept), and its reference's Checks.
"""

import argparse
import os
import statistics
import tempfile

from playwright.sync_api import Page, sync_playwright

from benchmarks.load import CHECK_TIMES, SETTLE, TIMELINE, WATCH_PAGE, wait_ready
from benchmarks.sites import chromium_on, serve
from server import create_app
from server.exercises.registry import LEGACY, SHIPPED, course
from tests.support.solutions import CORRECT

# Each restored runtime's load of its exercise (after Python started, runtime/worker/worker.js): its ms,
# paired by the load's id (the marks' detail, runtime/page/workers.js).
EXERCISE_LOADS = """() => {
  const started = new Map();
  for (const m of performance.getEntriesByName("runtime: python started")) started.set(m.detail, m.startTime);
  return performance.getEntriesByName("runtime: exercise loaded")
    .filter((m) => started.has(m.detail)).map((m) => m.startTime - started.get(m.detail));
}"""
COURSE = course(SHIPPED).ids  # the shipped course, in its order


def reference(exercise: str) -> str:
    """What passes the exercise: its reference (the seed's: the tests' right backward)."""
    return CORRECT if exercise == LEGACY else (SHIPPED / exercise / "reference.py").read_text()


READY_TIMEOUT_MS = 90_000


def opened(page: Page, url: str) -> dict:
    """Open url in the tab; its time to ready from navigation start, and how its runtime started."""
    page.goto(url, wait_until="commit")
    ready = wait_ready(page, READY_TIMEOUT_MS)["ready"]
    start = page.get_by_test_id("runtime-status").get_attribute("data-start")
    return {"ready": ready, "start": start, "timeline": page.evaluate(TIMELINE)}


def course_round(p, root: str, checks: int) -> dict:
    pages = {}
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        with chromium_on(p, profile, WATCH_PAGE) as page:
            for i, exercise in enumerate(COURSE):
                pages[exercise] = opened(page, root + f"exercises/{exercise}/")
                if i == 0:
                    page.evaluate(SETTLE)  # the snapshot kept, the service worker active
                pages[exercise] |= page.evaluate(CHECK_TIMES, [reference(exercise), checks])
                pages[exercise]["exercise"] = page.evaluate(EXERCISE_LOADS)
    return pages


# Press the course place's Next and wait until the page shows the next exercise and its first Check's
# runtime is ready (static/js/page/course-nav.js: inside the page): ms from the press, and whether the
# page was loaded again (its first runtime's mark is one per page load).
NEXT_INSIDE = """(id) => new Promise((resolve) => {
  const started = performance.now();
  document.querySelector("[data-testid=course-place] a[rel=next]").click();
  const shown = () => JSON.parse(document.getElementById("config").textContent).exercise === id
    && document.getElementById("runtime-status").dataset.fresh === "ready";
  const poll = () => shown() ? resolve({ ready: performance.now() - started,
    starts: performance.getEntriesByName("runtime: start").length }) : requestAnimationFrame(poll);
  poll();
})"""


def inside_round(p, root: str, checks: int) -> dict:
    """The course walked by its Next links inside one page: each next exercise's time to ready."""
    pages = {}
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        with chromium_on(p, profile, WATCH_PAGE) as page:
            opened(page, root + f"exercises/{COURSE[0]}/")
            page.evaluate(SETTLE)
            for exercise in COURSE[1:]:
                pages[exercise] = page.evaluate(NEXT_INSIDE, exercise)
                pages[exercise] |= page.evaluate(CHECK_TIMES, [reference(exercise), checks])
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checks", type=int, default=5, help="check() calls on each page (default 5)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    root = serve(create_app())
    runs = []
    with sync_playwright() as p:
        for i in range(args.rounds):
            runs.append(course_round(p, root, args.checks))
            got = {k: f"{v['ready']:,.0f} ms ({v['start']})" for k, v in runs[-1].items()}
            print(f"round {i + 1}/{args.rounds}: ready {got}", flush=True)
        inside = []
        for i in range(args.rounds):
            inside.append(inside_round(p, root, args.checks))
            got = {k: f"{v['ready']:,.0f} ms" for k, v in inside[-1].items()}
            print(f"round {i + 1}/{args.rounds} by Next inside the page: ready {got}", flush=True)
    median = lambda values: statistics.median(values)  # noqa: E731
    for i, exercise in enumerate(COURSE):
        starts = sorted({run[exercise]["start"] for run in runs})
        checked = [t for run in runs for t in run[exercise]["checks"]]
        graded = [t for run in runs for t in run[exercise]["graded"]]
        said = "first" if i == 0 else "next"
        print(
            f"{exercise} ({said}): ready {median([r[exercise]['ready'] for r in runs]):,.0f} ms, started "
            f"{starts}; check() median {median(checked):,.0f} ms (graded in {median(graded):,.0f}) of "
            f"{len(checked)}"
        )
    first = COURSE[0]
    marks = {m for r in runs for m in r[first]["timeline"]}
    at = {m: median([r[first]["timeline"][m] for r in runs if m in r[first]["timeline"]]) for m in marks}
    print(
        f"  {first}'s timeline (median ms):",
        ", ".join(f"{m} {t:,.0f}" for m, t in sorted(at.items(), key=lambda x: x[1])),
    )
    fresh = [t for run in runs for t in run[LEGACY]["fresh"]]
    print(f"{LEGACY}'s next runtime after a Check: median {median(fresh):,.0f} ms")
    loads = [t for run in runs for e in COURSE[1:] for t in run[e]["exercise"]]
    if loads:  # a build whose runtimes load no exercise after their restore has none
        print(f"an exercise loaded into a runtime after its start: median {median(loads):,.1f} ms")
    for exercise in COURSE[1:]:
        loads = sorted({run[exercise]["starts"] for run in inside})
        checked = [t for run in inside for t in run[exercise]["checks"]]
        ready = median([r[exercise]["ready"] for r in inside])
        print(
            f"{exercise} (by Next, inside the page): ready {ready:,.0f} ms "
            f"from the press, page loads {loads}; check() median {median(checked):,.0f} ms of {len(checked)}"
        )
    print(f"Load average (1 min) at the start and the end: {load:.1f}, {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
