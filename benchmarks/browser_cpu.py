"""Measure the machine's work (CPU seconds) for what the browser tests do most: visit the page, Check.

    .venv/bin/python -m benchmarks.browser_cpu [--rounds N]

The browser tests run on 2 cores in 3 processes, so their time is the machine's work: this says where it
goes. A real server (werkzeug, in a thread) serves the playground; for each Chromium `make` found (the
tests' headless shell, .browser, with the tests' flags, and the full chromium a learner has, .chromium)
each round opens a new browser context and measures, in CPU seconds of every process the browser runs
(read from /proc): a first visit until Check can grade, a Check of a right answer (the next Check's
runtime restored after it, which each Check pays for), and a returning visit (a reload: the runtime from
the snapshot this browser kept). Each figure includes the work the browser goes on doing for 2 s after
it, so that work started by one step is counted in it. Prints the medians, and the share of them spent
in the kernel (system time: the memory each new runtime maps and touches, among the rest).
"""

import argparse
import logging
import os
import statistics
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from benchmarks.sites import SEED_PAGE
from server import create_app
from tests.browser.chromium import CHROMIUM_ARGS, TEST_ARGS, chromium_path
from tests.support.solutions import CORRECT

TICK = os.sysconf("SC_CLK_TCK")
SETTLE_S = 2  # the work a step leaves running (the next runtime, the snapshot kept) is counted in it


def cpu_of_children() -> tuple[float, float]:
    """CPU seconds (user, system) of every process below this one (the browser's), live ones and reaped."""
    children: dict[int, list[tuple[int, tuple[float, float]]]] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        # its own user and system time, and its reaped children's
        user, system = (int(fields[11]) + int(fields[13])) / TICK, (int(fields[12]) + int(fields[14])) / TICK
        children.setdefault(int(fields[1]), []).append((int(pid), (user, system)))
    user = system = 0.0
    below = [os.getpid()]
    while below:
        for pid, (its_user, its_system) in children.get(below.pop(), []):
            user, system = user + its_user, system + its_system
            below.append(pid)
    return user, system


def measured(step) -> tuple[float, float]:
    """The step's CPU seconds, and of them the system's."""
    user, system = cpu_of_children()
    step()
    time.sleep(SETTLE_S)
    user_after, system_after = cpu_of_children()
    return user_after - user + system_after - system, system_after - system


def one_round(page, url: str) -> dict[str, tuple[float, float]]:
    def load():
        page.wait_for_function("() => window.playground !== undefined")
        page.evaluate("window.playground.ready")

    return {
        "first visit": measured(lambda: (page.goto(url), load())),
        "a Check": measured(lambda: page.evaluate("s => window.playground.check(s)", CORRECT)),
        "returning visit": measured(lambda: (page.reload(), load())),
    }


def rounds_in(
    path: str | None, args: list[str], url: str, rounds: int
) -> dict[str, list[tuple[float, float]]]:
    found: dict[str, list[tuple[float, float]]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=args)
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
    url = f"http://127.0.0.1:{server.server_port}/{SEED_PAGE}"
    browsers = {
        "headless shell (tests)": (chromium_path(), TEST_ARGS),
        "full chromium (learner)": (chromium_path(full=True), CHROMIUM_ARGS),
    }
    results = {name: rounds_in(path, flags, url, args.rounds) for name, (path, flags) in browsers.items()}
    names = list(results)
    print(f"\nCPU seconds (the system's share), medians of {args.rounds} rounds ({SETTLE_S} s after each):")
    print(f"{'':20}" + "".join(f"{name:>26}" for name in names) + f"{'ratio':>8}")
    for step in results[names[0]]:
        medians = [statistics.median(total for total, _ in results[name][step]) for name in names]
        shares = [statistics.median(sys_ / total for total, sys_ in results[name][step]) for name in names]
        cells = "".join(f"{m:17.2f} ({share:4.0%})" for m, share in zip(medians, shares, strict=True))
        print(f"{step:20}" + cells + f"{medians[0] / medians[1]:8.2f}")
    for name, (path, flags) in browsers.items():
        print(f"{name}: {path or 'Playwright Chromium'} {' '.join(flags)}")
    server.shutdown()


if __name__ == "__main__":
    main()
