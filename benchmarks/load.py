"""Measure the playground's start against what a learner would use instead: stock Pyodide from a CDN.

    .venv/bin/python -m benchmarks.load [--rounds 3] [--checks 20]

Three sites, each on its own port (origin), all werkzeug threaded servers on 127.0.0.1:
- ours: the seed's exercise's page (exercises/backward/), the app as `make run` serves it (WhiteNoise, .br
  files, immutable URLs);
- the stock page: a bare page that imports loadPyodide() from a CDN-like origin and is ready when
  `runPython("import json")` has run; the "CDN" sends the npm package's stock files brotli-11
  (made once, cached under static/build/bench/), `Cache-Control: public, max-age=31536000, immutable`,
  with CORS, as jsDelivr does. A course page's first visit finds the CDN cold too: Chromium
  partitions its HTTP cache by top-level site, so files cached for another site do not count;
- the floor, beside ours: a page that only fetches and compiles our wasm (compileStreaming).
Ours is ready when [data-testid=runtime-status] gets data-state="ready" (the stock page sets the
same), timed in the page from navigation start by a MutationObserver added before its scripts.

Every round, interleaved (ours then stock, the other way round the next round):
- first visit: Chromium with a new, empty profile, on loopback. Ours is then typed into and
  Checked --checks times, and left until its service worker (if any) is active and Cache Storage
  is still; the browser is closed;
- returning visit: the same profile, the browser started again (HTTP cache, V8 code cache, Cache
  Storage and service worker on disk), on loopback;
- first visit over a learner's line: a new profile, every byte through benchmarks/line.py's
  relays (20 Mbit/s each way shared by all connections, 40 ms round trip, one more per new
  connection; no TLS). Relays, not Chromium's emulation, which misses a service worker's fetches;
  the run warns if a page is ready sooner than its bytes could cross the line;
- the floor, cold (new profile) and warm (restarted).
No request interception (it turns the HTTP cache off). Bytes are counted on the servers, response
bodies as sent (after compression): resource timings would miss the worker's fetches.

Editor: the moment the editor is in the page (the textarea it is painted with, or CodeMirror's
.cm-content once it has taken its place) and painted, the page's observer focuses it (as a learner's
click would: editorAt); the bench then presses a key through Playwright, and the page notes when it
received it (its keydown's time) and when the key shows in the editor's text. The figure is when a key
pressed as the editor is painted shows: editorAt plus the page's own part (keydown to shown, the wait
for the page's main thread included); Playwright's round trips to press it are not the page's. Beside
it: when the key really showed, first contentful paint, and the figure for a page with nothing but an
editable element (the floor on this machine).
Back to back: once ready and the next Check's runtime prepared, ten window.playground.check(correct)
calls, each started when the last resolved (a script grading many submissions); the median of ten.
check(): then window.playground.check(correct) --checks times, each started when the next Check's
fresh runtime is ready (data-fresh="ready": issue 9 restores one from a snapshot after every Check);
how long that runtime takes after a Check is printed apart. A second after: then six
window.playground.check(correct) calls, each a second after the last resolved, as a learner Checks
again. Medians over the rounds.
"""

import argparse
import os
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Playwright, sync_playwright
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from benchmarks import report
from benchmarks.line import Line
from benchmarks.sites import (
    SEED_PAGE,
    Meter,
    StockCdn,
    chromium_on,
    floor_page,
    serve,
    stock_page,
    typing_page,
)
from server import create_app
from server.page.static import pyodide_url
from tests.support.solutions import CORRECT

LINE_RATE, LINE_RTT = 20e6 / 8, 0.040  # a learner's line: 20 Mbit/s (in bytes/s) each way, 40 ms round trip
READY_TIMEOUT_MS = {"loopback": 90_000, "line": 180_000}
SPACED_CHECKS = 6  # check() calls a first visit, each a second after the last

# Before any script of the page: when the runtime status says ready (or failed); when the editor is
# there and painted, then focused (as a learner's click would), and when its text changes (the bench's key).
WATCH_PAGE = """(() => {
  const bench = { readyAt: null, failed: null, editorAt: null, keyAt: null, typedAt: null };
  window.__bench = bench;
  // The key may land in the textarea or, once it has taken its place, in CodeMirror: the text compared
  // without white space (CodeMirror's DOM has no newlines), seen on its input event or a DOM change.
  // It is compared with the text as it was when the page received the key (its keydown's time is keyAt):
  // the saved code restored, or CodeMirror taking the textarea's place, change the text too.
  const typed = (editor) => {
    const box = editor.closest("#editor") ?? editor;
    const text = () => {
      const area = box.querySelector("textarea") ?? (editor.tagName === "TEXTAREA" ? editor : null);
      const content = box.querySelector(".cm-content") ?? editor;
      return (area?.isConnected ? area.value : content.textContent).replace(/\\s+/g, "");
    };
    let before = null;
    document.addEventListener("keydown", (event) => {
      if (bench.keyAt !== null) return;
      bench.keyAt = event.timeStamp;
      before = text();
    }, true);
    const seen = () => {
      if (bench.typedAt !== null || before === null || text() === before) return;
      bench.typedAt = performance.now();
      watch.disconnect();
    };
    const watch = new MutationObserver(seen);
    watch.observe(box, { subtree: true, childList: true, characterData: true });
    document.addEventListener("input", seen, true);
  };
  const look = () => {
    // the textarea the page is painted with, or CodeMirror in its place (not the engine viewer)
    const editor = () => document.querySelector("#editor textarea, .cm-content[contenteditable=true]");
    if (!seen && editor()) {
      // A learner clicks what is painted: the editor is focused once it is there and painted (the task
      // after the next frame's), not as soon as the parser adds it (a focus then forced the page's first
      // layout early, before its style sheets had come).
      seen = true;
      requestAnimationFrame(() => setTimeout(() => {
        bench.editorAt = performance.now();
        editor().focus();
        typed(editor());
      }));
    }
    const status = document.querySelector("[data-testid=runtime-status]");
    if (!status || bench.readyAt !== null || bench.failed) return;
    if (status.dataset.state === "ready") bench.readyAt = performance.now();
    if (status.dataset.state === "dead") bench.failed = status.textContent || "failed";
  };
  let seen = false;
  const watch = new MutationObserver(look);
  const changes = { subtree: true, childList: true, attributes: true };
  watch.observe(document, { ...changes, attributeFilter: ["data-state", "contenteditable"] });
})()"""

# check(source) n times, each once the next Check's runtime is ready; how long that took after each.
CHECK_TIMES = """async ([source, n]) => {
  const status = document.querySelector("[data-testid=runtime-status]");
  const fresh = () => new Promise((resolve) => {
    if (status.dataset.fresh !== "loading") return resolve();
    const watch = new MutationObserver(() => {
      if (status.dataset.fresh === "loading") return;
      watch.disconnect();
      resolve();
    });
    watch.observe(status, { attributes: true, attributeFilter: ["data-fresh"] });
  });
  const within = (promise, what) => Promise.race([promise, new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`${what} took over a minute`)), 60_000);
  })]);
  const checks = [], graded = [], fresh_ms = [];
  for (let i = 0; i < n; i++) {
    await within(fresh(), "the fresh runtime");
    const start = performance.now();
    const report = await within(window.playground.check(source), "check()");
    const end = performance.now();
    if (!report.passed) throw new Error("the correct solution failed: " + JSON.stringify(report.error));
    checks.push(end - start);
    graded.push(report.ms);
    await within(fresh(), "the fresh runtime");
    fresh_ms.push(performance.now() - end);
  }
  return { checks, graded, fresh: "fresh" in status.dataset ? fresh_ms : [] };
}"""

# check(source) n times, each a second after the last resolved, as a learner Checks again after a look at
# the report: the next Check's runtime (and, Checks coming within 2 s, its spares) restores in that second.
SPACED = """async ([source, n]) => {
  const status = document.querySelector("[data-testid=runtime-status]");
  while (status.dataset.fresh === "loading") await new Promise((resolve) => setTimeout(resolve, 20));
  const times = [];
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const start = performance.now();
    const report = await window.playground.check(source);
    if (!report.passed) throw new Error("the correct solution failed: " + JSON.stringify(report.error));
    times.push(performance.now() - start);
  }
  return { spaced: times };
}"""

# Ten check(source) calls, each started when the last resolved, once the next Check's runtime is ready.
BACK_TO_BACK = """async ([source, n]) => {
  const status = document.querySelector("[data-testid=runtime-status]");
  while (status.dataset.fresh === "loading") await new Promise((resolve) => setTimeout(resolve, 20));
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const report = await window.playground.check(source);
    if (!report.passed) throw new Error("the correct solution failed: " + JSON.stringify(report.error));
    times.push(performance.now() - start);
  }
  return { "back to back": times };
}"""

# Where a visit's time went, from navigation start: when each file the runtime needs had arrived (the page
# fetches them, so its resource timings see them, from the network, the HTTP cache or the service worker),
# and the runtime's marks: its start (main.js ran), the kept snapshot read, the first worker asked for; in
# that worker (at its own times): the load asked (the runner frame has compiled the wasm by then), Pyodide's
# scripts imported, the wasm instantiated, Python started (restored, or initialised in full), loaded.
TIMELINE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const at = { "page": nav.responseEnd, "parsed": nav.domContentLoadedEventEnd };
  const bundle = "(main|page|editor|runner|worker|engine)-.*";
  const named = new RegExp(`^(?:${bundle}|(pyodide(?:\\\\.asm)?\\\\.(?:mjs|wasm)|python_stdlib\\\\.zip))$`);
  for (const entry of performance.getEntriesByType("resource")) {
    const match = new URL(entry.name).pathname.split("/").pop().match(named);
    const key = match && (match[1] || match[2]);
    if (key) at[key] = Math.min(at[key] ?? Infinity, entry.responseEnd);
  }
  // the runtime's own marks (runtime/page/client.js, stored-snapshot.js, workers.js): the first of each
  for (const mark of performance.getEntriesByType("mark")) {
    if (mark.name.startsWith("runtime: ")) at[mark.name.slice(9)] ??= mark.startTime;
  }
  return at;
}"""

# Leave the page as a learner would: its service worker active, Cache Storage written (bounded).
SETTLE = """async () => {
  const deadline = performance.now() + 15000;
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  if (await navigator.serviceWorker?.getRegistration()) {
    await Promise.race([navigator.serviceWorker.ready, wait(10000)]);
  }
  if (!globalThis.caches) return;
  let last = null, since = performance.now();
  while (performance.now() < deadline && performance.now() - since < 500) {
    let seen = "";
    for (const name of await caches.keys()) {
      seen += `${name}:${(await (await caches.open(name)).keys()).length};`;
    }
    if (seen !== last) [last, since] = [seen, performance.now()];
    await wait(100);
  }
}"""


def visit(p: Playwright, profile: str, url: str, log: list[dict], how: str = "loopback", **measure) -> dict:
    """Start Chromium on profile, open url and measure; close it, so the profile is on disk.

    measure: typing=True (the editor), checks=N (check() latency), settle=True (wait for the service
    worker and Cache Storage before closing), ready=False (a page with no runtime).
    """
    start = len(log)
    result: dict = {}
    with chromium_on(p, profile, WATCH_PAGE) as page:
        page.goto(url, wait_until="commit")
        if measure.get("typing"):
            result |= typing_ms(page)
        if measure.get("ready", True):
            result.update(wait_ready(page, READY_TIMEOUT_MS[how]))
            result["timeline"] = page.evaluate(TIMELINE) | {"ready": result["ready"]}
        if measure.get("burst"):
            result.update(page.evaluate(BACK_TO_BACK, [CORRECT, 10]))
        if n := measure.get("checks"):
            result.update(page.evaluate(CHECK_TIMES, [CORRECT, n]))
        if n := measure.get("spaced"):
            result.update(page.evaluate(SPACED, [CORRECT, n]))
        if measure.get("settle"):
            page.evaluate(SETTLE)
    responses = log[start:]
    result["bytes"] = sum(e["bytes"] for e in responses)
    result["requests"] = len(responses)
    result["encodings"] = Counter(e.get("headers", {}).get("content-encoding", "identity") for e in responses)
    result["code cache"] = code_cache(Path(profile))
    return result


def wait_ready(page: Page, timeout_ms: float) -> dict:
    """Wait for the status to say ready; its time from navigation start (and the floor's own figure)."""
    page.wait_for_function(
        "() => window.__bench && (window.__bench.readyAt !== null || window.__bench.failed)",
        polling=100,
        timeout=timeout_ms,
    )
    bench = page.evaluate("window.__bench")
    if bench["failed"]:
        raise RuntimeError(f"the page failed to load: {bench['failed']}")
    floor = page.locator("[data-testid=runtime-status]").get_attribute("data-ms")
    editor = {"editor": bench["editorAt"]} if bench["editorAt"] is not None else {}
    return {"ready": bench["readyAt"], **editor} | ({"compile": float(floor)} if floor else {})


def typing_ms(page: Page) -> dict:
    """Press a key once the editor is there (and focused): when it is, and when the key shows in it."""
    page.wait_for_function("() => window.__bench?.editorAt != null", polling="raf", timeout=30_000)
    page.keyboard.press("x")
    page.wait_for_function("() => window.__bench.typedAt !== null", polling=50, timeout=30_000)
    return page.evaluate(
        "({ typing: window.__bench.editorAt + window.__bench.typedAt - window.__bench.keyAt,"
        " typed: window.__bench.typedAt, editor: window.__bench.editorAt, key: window.__bench.keyAt,"
        " paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null })"
    )


def code_cache(profile: Path) -> dict[str, int]:
    """Bytes of V8's code cache on disk in a profile: compiled wasm and compiled JavaScript."""
    folder = profile / "Default" / "Code Cache"
    sizes = {}
    for kind in ("wasm", "js"):
        sizes[kind] = sum(f.stat().st_size for f in (folder / kind).rglob("*") if f.is_file())
    return sizes


def start_sites(log: list[dict]) -> dict[str, str]:
    """Serve ours (the floor page beside it), the stock page and its CDN, directly and over the line."""
    app = create_app()
    with app.test_request_context():
        wasm = pyodide_url("pyodide.asm.wasm")
    beside = {"/bench-floor": floor_page(wasm), "/bench-typing": typing_page()}
    ours = serve(Meter(DispatcherMiddleware(app, beside), "ours", log))
    cdn = serve(Meter(StockCdn(), "stock", log))
    line = Line(LINE_RATE, LINE_RTT)
    cdn_on_line = over(line, cdn)  # the stock page on the line loads its files over it too
    return {
        "ours": ours + SEED_PAGE,
        "stock": serve(Meter(stock_page(cdn + "pyodide/"), "stock", log)),
        "floor": ours + "bench-floor/",
        "typing": ours + "bench-typing/",
        "ours line": over(line, ours) + SEED_PAGE,
        "stock line": over(line, serve(Meter(stock_page(cdn_on_line + "pyodide/"), "stock", log))),
    }


def over(line: Line, url: str) -> str:
    """The URL of a site through a relay on the line."""
    return f"http://127.0.0.1:{line.relay(urlsplit(url).port)}/"


def attempt(runs: list[dict], label: str, *args, **kwargs) -> bool:
    """Visit (see visit); on failure say so and go on: the medians use the runs that worked."""
    try:
        runs.append(visit(*args, **kwargs))
    except (PlaywrightError, RuntimeError) as err:
        print(f"  {label} failed: {str(err).splitlines()[0]}", flush=True)
        return False
    return True


def run(p: Playwright, rounds: int, checks: int) -> dict[str, list[dict]]:
    """Run the rounds, interleaved; return each scenario's runs."""
    log: list[dict] = []
    urls = start_sites(log)
    runs: dict[str, list[dict]] = {
        f"{site} {kind}": [] for site in ("ours", "stock") for kind in ("first", "returning", "line")
    }
    runs |= {"floor cold": [], "floor warm": [], "typing alone": []}
    started = time.monotonic()
    for i in range(rounds):
        order = ("ours", "stock") if i % 2 == 0 else ("stock", "ours")
        for site in order:
            ours, url = site == "ours", urls[site]
            with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
                first = dict(typing=ours, burst=ours, checks=checks if ours else 0, settle=True)
                first["spaced"] = SPACED_CHECKS if ours else 0
                if attempt(runs[f"{site} first"], f"{site} first", p, profile, url, log, **first):
                    attempt(runs[f"{site} returning"], f"{site} returning", p, profile, url, log, typing=ours)
        for site in order:
            with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
                attempt(runs[f"{site} line"], f"{site} line", p, profile, urls[f"{site} line"], log, "line")
        with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
            for kind in ("cold", "warm"):
                attempt(runs[f"floor {kind}"], f"floor {kind}", p, profile, urls["floor"], log)
        with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
            attempt(
                runs["typing alone"],
                "typing alone",
                p,
                profile,
                urls["typing"],
                log,
                typing=True,
                ready=False,
            )
        last = {k: f"{v[-1]['ready']:,.0f}" for k, v in runs.items() if v and k.startswith(("ours", "stock"))}
        print(f"round {i + 1}/{rounds} ({time.monotonic() - started:.0f} s): ready ms {last}", flush=True)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each visiting every page (default 3)")
    parser.add_argument("--checks", type=int, default=20, help="check() calls a first visit (default 20)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with sync_playwright() as p:
        runs = run(p, args.rounds, args.checks)
    report.print_report(runs, args.rounds, LINE_RATE, LINE_RTT)
    print(
        f"Load average (1 min) at the start and the end: {load:.1f}, {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores: a busy machine makes every figure noisier."
    )


if __name__ == "__main__":
    main()
