"""Time one axe-core run on the page, asking for every result and for its violations only.

    .venv/bin/python -m benchmarks.axe_run [--runs N]

test_accessibility.py runs axe 54 times (9 states, 2 themes, 3 screen sizes). A real server (werkzeug,
in a thread) serves the playground to the tests' headless shell with the tests' flags, on a phone-sized
page in its busiest state: a wrong Check with every picture drawn and open. Then, alternated, N runs of
axe with the tags the tests use, as `axe.run` returns every result by default and with
`resultTypes: ['violations']` (tests/browser/axe.py), which spares it a selector for every element that
passes. Prints each run's milliseconds (axe's own, in the page) and the medians.
"""

import argparse
import statistics

from playwright.sync_api import sync_playwright

from benchmarks.sites import SEED_PAGE, serve
from server import create_app
from tests.browser.axe import AXE, RULES, SETTLED
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.pages import open_playground, wait_for_pictures
from tests.support import solutions

RUN = """async ([tags, options]) => {
  const started = performance.now();
  await axe.run(document, { runOnly: { type: 'tag', values: tags }, ...options });
  return performance.now() - started;
}"""
WAYS = {"every result": {}, "violations only": {"resultTypes": ["violations"]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6)
    args = parser.parse_args()
    url = serve(create_app({"TESTING": True})) + SEED_PAGE
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=TEST_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        open_playground(page, url)
        page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
        page.locator("details").evaluate_all("ds => ds.forEach(d => (d.open = true))")
        wait_for_pictures(page)
        page.wait_for_function(SETTLED)
        page.evaluate(AXE.read_text())
        found: dict[str, list[float]] = {way: [] for way in WAYS}
        for _ in range(args.runs):
            for way, options in WAYS.items():
                found[way].append(page.evaluate(RUN, [RULES, options]))
        browser.close()
    for way, times in found.items():
        runs = " ".join(f"{ms:.0f}" for ms in times)
        print(f"{way:16} median {statistics.median(times):5.0f} ms   ({runs})")


if __name__ == "__main__":
    main()
