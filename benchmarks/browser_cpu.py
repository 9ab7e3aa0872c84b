"""Measure the machine's work (CPU seconds) for what the browser tests do most: visit the page, Check.

    .venv/bin/python benchmarks/browser_cpu.py [--rounds N]

The browser tests run on 2 cores in 3 processes, so their time is the machine's work: this says where it
goes. A real server (werkzeug, in a thread) serves the playground; for each Chromium `make` found (the
tests' headless shell, .browser, and the full chromium a learner has, .chromium) each round opens a new
browser context and measures, in CPU seconds of every process the browser runs (read from /proc): a
first visit until Check can grade, a Check of a right answer (the next Check's runtime restored after
it, which each Check pays for), and a returning visit (a reload: the runtime from the snapshot this
browser kept). Each figure includes the work the browser goes on doing for 2 s after it, so that work
started by one step is counted in it. Prints the medians.
"""

import argparse
import logging
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: find server/ and tests/

from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from server import create_app  # noqa: E402
from tests.browser.chromium import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.solutions import CORRECT  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SETTLE_S = 2  # the work a step leaves running (the next runtime, the snapshot kept) is counted in it


def cpu_of_children() -> float:
    """CPU seconds of every process below this one (the browser's), live ones and those reaped."""
    children: dict[int, list[tuple[int, float]]] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        used = sum(int(f) for f in fields[11:15]) / TICK  # its own user, system; its reaped children's
        children.setdefault(int(fields[1]), []).append((int(pid), used))
    total, below = 0.0, [os.getpid()]
    while below:
        for pid, used in children.get(below.pop(), []):
            total += used
            below.append(pid)
    return total


def measured(step) -> float:
    before = cpu_of_children()
    step()
    time.sleep(SETTLE_S)
    return cpu_of_children() - before


def one_round(page, url: str) -> dict[str, float]:
    def load():
        page.wait_for_function("() => window.playground !== undefined")
        page.evaluate("window.playground.ready")

    return {
        "first visit": measured(lambda: (page.goto(url), load())),
        "a Check": measured(lambda: page.evaluate("s => window.playground.check(s)", CORRECT)),
        "returning visit": measured(lambda: (page.reload(), load())),
    }


def rounds_in(path: str | None, url: str, rounds: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        for _ in range(rounds):
            context = browser.new_context()  # a browser that has never seen the page
            for step, seconds in one_round(context.new_page(), url).items():
                found.setdefault(step, []).append(seconds)
            context.close()
        browser.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, create_app({"TESTING": True}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    browsers = {
        "headless shell (tests)": chromium_path(),
        "full chromium (learner)": chromium_path(full=True),
    }
    results = {name: rounds_in(path, url, args.rounds) for name, path in browsers.items()}
    names = list(results)
    print(f"\nCPU seconds, medians over {args.rounds} rounds (each with {SETTLE_S} s after it):")
    print(f"{'':20}" + "".join(f"{name:>26}" for name in names) + f"{'ratio':>8}")
    for step in results[names[0]]:
        medians = [statistics.median(results[name][step]) for name in names]
        print(f"{step:20}" + "".join(f"{m:26.2f}" for m in medians) + f"{medians[0] / medians[1]:8.2f}")
    print("\n" + "\n".join(f"{name}: {path or 'Playwright Chromium'}" for name, path in browsers.items()))
    server.shutdown()


if __name__ == "__main__":
    main()
