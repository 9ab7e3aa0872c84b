"""Measure how long runaway learner code takes to be reported, where learners write it: inside backward.

    .venv/bin/python -m benchmarks.stopping [--rounds N] [--limit-ms MS]

A real server (werkzeug, threaded, in a thread) serves the playground twice: cross-origin isolated
(Stop and the limit interrupt Python) and not (the runtime is ended). In headless Chromium, for each
body below put inside `backward` (so it runs on every value set), each round waits until the next
Check's runtime is ready, checks the code with window.playground.check() and takes the report's
`ms` (the page's own measure, from the Check to the report) and the error's kind and line, and the
machine's CPU seconds in the AFTER_S seconds after the report (from /proc/stat: an ended runtime that
still runs shows there); then a correct Check on the same page, to show the page carries on. Prints
medians, the extra over the limit and that CPU time. The machine should be otherwise idle.
"""

import argparse
import statistics
import time

from playwright.sync_api import Page, expect, sync_playwright

from benchmarks.sites import SEED_PAGE, serve
from benchmarks.suite_floor import busy_seconds
from server import create_app
from tests.browser.chromium import CHROMIUM_ARGS, chromium_path
from tests.support.solutions import CORRECT

AFTER_S = 3  # the CPU time of this long after a report is counted: the browser ends a busy worker in 2 s

BODIES = {
    "while True: pass": "while True:\n        pass",
    "time.sleep(100)": "import time\n    time.sleep(100)",
    "catches the interrupt": (
        "while True:\n        try:\n            while True:\n                pass\n"
        "        except BaseException:\n            pass"
    ),
    "10**6 prints": "for i in range(10**6):\n        print(i)\n    while True:\n        pass",
}


def source(body: str) -> str:
    return f"def backward(out):\n    {body}\n"


def measure(page: Page, code: str) -> dict:
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-fresh", "ready", timeout=60_000)
    return page.evaluate("s => window.playground.check(s)", code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit-ms", type=int, default=5000)
    parser.add_argument("--only", help="the bodies whose name contains this")
    args = parser.parse_args()
    limit = args.limit_ms
    print(f"Time from Check to report, ms; limit {limit} ms; median of {args.rounds}; headless Chromium")
    header = f"{'code inside backward':26} {'page':14} {'median':>8} {'over limit':>11}  kind     line  then"
    print(f"{header}  CPU s in {AFTER_S} s after")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(full=True), args=CHROMIUM_ARGS)
        for isolated in (True, False):
            url = (
                serve(
                    create_app({"TESTING": True, "TIME_LIMIT_MS": limit, "CROSS_ORIGIN_ISOLATION": isolated})
                )
                + SEED_PAGE
            )
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("() => window.playground !== undefined")
            page.evaluate("window.playground.ready")
            for name, body in BODIES.items():
                if args.only and args.only not in name:
                    continue
                times, kinds, lines, after, busy = [], set(), set(), set(), []
                for _ in range(args.rounds):
                    report = measure(page, source(body))
                    before = busy_seconds()
                    time.sleep(AFTER_S)
                    busy.append(busy_seconds() - before)
                    times.append(report["ms"])
                    kinds.add(report["error"]["kind"] if report["error"] else "none")
                    lines.add(str(report["error"]["line"]) if report["error"] else "-")
                    after.add("pass" if measure(page, CORRECT)["passed"] else "FAIL")
                median = statistics.median(times)
                where = "isolated" if isolated else "not isolated"
                kind, line, then = (",".join(sorted(s)) for s in (kinds, lines, after))
                row = (
                    f"{name:26} {where:14} {median:8.0f} {median - limit:+11.0f}  {kind:8} {line:5} {then:5}"
                )
                print(f"{row} {statistics.median(busy):5.2f}")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
