"""Time the picture of a big scratch drawing: its layout (Node), and a Run until it is drawn (Chromium).

    .venv/bin/python -m benchmarks.drawing_layout [--runs N]

A drawing shows at most 200 values. Two drawings of 200 and 199 values, each a chain of tanh(v * w)
steps: one reuses a single weight w in every step (tests/browser/test_picture.py's BIG_DRAWING, and what
a learner writes to watch a gradient vanish), one makes a fresh weight for each step (the floor: the same
size with no value used far from where it was made). The engine (CPython) makes each drawing; Node times
static/js/picture/graph-layout.js's layoutGraph on it, as the page runs it (dagre); then the tests'
headless shell, with the tests' flags, Runs each in the playground (a real server, werkzeug in a thread)
and times the Run until its drawing is drawn: what the learner waits, with the page's main thread busy.
Prints each one's milliseconds and the medians.
"""

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from playwright.sync_api import sync_playwright

from benchmarks.sites import SEED_PAGE, serve
from engine.scratch import run_scratch
from exercises.backward.seed import exercise
from server import create_app
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.pages import open_playground
from tests.support import solutions

ROOT = Path(__file__).resolve().parent.parent
STEP = "out = (out * {w}).tanh()"
DRAWINGS = {  # name -> scratch code: x, w and 99 * 2 values; x and 66 * 3 values
    "one shared weight": "x = Value(0.5)\nw = Value(0.9)\nout = x\nfor _ in range(99):\n"
    f"    {STEP.format(w='w')}\nbackward(out)\ndraw(out)\n",
    "a weight per step": "x = Value(0.5)\nout = x\nfor _ in range(66):\n"
    f"    {STEP.format(w='Value(0.9)')}\nbackward(out)\ndraw(out)\n",
}
LAYOUT = """
import { readFileSync } from "node:fs";
import { layoutGraph } from %s;
const graph = JSON.parse(readFileSync(0, "utf8"));
const times = [];
for (let i = 0; i < %d; i++) {
  const started = performance.now();
  layoutGraph(graph, false);
  times.push(performance.now() - started);
}
console.log(JSON.stringify(times));
"""
DRAWN = """async (code) => {
  const started = performance.now();
  await window.playground.run(code);
  const drawing = document.querySelector("[data-testid=drawing]");
  while (drawing.dataset.state !== "ready") await new Promise((r) => setTimeout(r, 10));
  return performance.now() - started;
}"""


def layout_ms(drawing: dict, runs: int) -> list[float]:
    """Milliseconds of each of `runs` layouts of the drawing in Node."""
    module = json.dumps((ROOT / "static/js/picture/graph-layout.js").as_uri())
    found = subprocess.run(
        ["node", "--input-type=module", "-e", LAYOUT % (module, runs)],
        input=json.dumps(drawing),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(found.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    drawn = {
        name: run_scratch(exercise(), code, solutions.CORRECT)["drawings"][0]
        for name, code in DRAWINGS.items()
    }
    layouts = {name: layout_ms(drawing, args.runs) for name, drawing in drawn.items()}
    ran: dict[str, list[float]] = {name: [] for name in DRAWINGS}
    url = serve(create_app({"TESTING": True})) + SEED_PAGE
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=TEST_ARGS)
        page = browser.new_page()
        open_playground(page, url)
        for _ in range(args.runs):
            for name, code in DRAWINGS.items():  # alternated: a slow moment of the machine hits both
                # the runtime restored after the last Run: its work is not in this one's time
                page.wait_for_selector("[data-testid=runtime-status][data-fresh=ready]", state="attached")
                ran[name].append(page.evaluate(DRAWN, code))
        browser.close()
    print(f"\nmilliseconds, {args.runs} runs each (medians last):")
    for name in DRAWINGS:
        print(f"{name} ({len(drawn[name]['nodes'])} values)")
        print(
            f"  layout (Node):         {' '.join(f'{ms:6.0f}' for ms in layouts[name])}"
            f"   median {statistics.median(layouts[name]):6.0f}"
        )
        print(
            f"  Run until drawn (page): {' '.join(f'{ms:6.0f}' for ms in ran[name])}"
            f"   median {statistics.median(ran[name]):6.0f}"
        )


if __name__ == "__main__":
    main()
