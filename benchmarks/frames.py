"""Where a visit's main thread goes: the page's long animation frames, with the scripts in each.

    .venv/bin/python -m benchmarks.frames [--visits 2]

One Chromium profile, visited --visits times (the browser restarted each time, as `make bench`'s
returning visit is). For each visit it prints the timeline (benchmarks/load.py's: each file's arrival
and the runtime's marks, the worker's steps among them), then every long animation frame (over 50 ms)
before the runtime was ready, with the scripts that ran in it: which bundle, how long, and how much of
that was style and layout it forced. A key pressed during such a frame waits for its end.
"""

import argparse
import tempfile

from playwright.sync_api import sync_playwright

from benchmarks.load import SETTLE, TIMELINE, WATCH_PAGE, wait_ready
from benchmarks.sites import SEED_PAGE, Meter, chromium_on, serve
from server import create_app

FRAMES = """(() => {
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      window.__frames.push({
        start: frame.startTime,
        duration: frame.duration,
        scripts: frame.scripts.map((s) => ({
          what: s.sourceURL.split("/").pop() || s.invoker,
          how: s.invokerType,
          start: s.startTime,
          duration: s.duration,
          layout: s.forcedStyleAndLayoutDuration,
        })),
      });
    }
  }).observe({ type: "long-animation-frame", buffered: true });
})()"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=2, help="visits on one profile (default 2)")
    args = parser.parse_args()
    url = serve(Meter(create_app(), "ours", [])) + SEED_PAGE
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="frames-profile-") as profile:
        for visit in range(args.visits):
            with chromium_on(p, profile, WATCH_PAGE, FRAMES) as page:
                page.goto(url, wait_until="commit")
                ready = wait_ready(page, 90_000)["ready"]
                timeline = page.evaluate(TIMELINE)
                kind = "first" if visit == 0 else "returning"
                print(f"visit {visit + 1} ({kind}): ready at {ready:,.0f} ms")
                steps = sorted(timeline.items(), key=lambda item: item[1])
                print("  timeline: " + ", ".join(f"{name} {at:,.0f}" for name, at in steps))
                for frame in page.evaluate("window.__frames"):
                    if frame["start"] > ready:
                        continue
                    print(f"  frame at {frame['start']:,.0f} ms, {frame['duration']:,.0f} ms long")
                    for script in frame["scripts"]:
                        print(
                            f"    {script['what'][:40]} ({script['how']}) at {script['start']:,.0f}: "
                            f"{script['duration']:,.0f} ms, {script['layout']:,.0f} ms of it forced layout"
                        )
                page.evaluate(SETTLE)  # the service worker and the kept snapshot, for the next visit


if __name__ == "__main__":
    main()
