"""Measure the playground's load, cold and warm, beside a bare page that loads stock Pyodide.

    .venv/bin/python benchmarks/load.py [--rounds N]

One real server (werkzeug's threaded server, in a thread) serves the playground app at / and, at
/bare/, a page that only calls loadPyodide() from the npm package's own five files, cached the
same way as the playground's Pyodide files (same Cache-Control, ETag) but not compressed. Each round
visits each page in headless Chromium with a new, empty profile (cold: a first visit), closes the
browser, starts it again on the same profile and visits again (warm: a returning learner, with
the HTTP cache and code caches on disk). No request interception: it would turn the cache off.
Bytes are counted on the server, as the response bodies are sent (after compression): the page's
resource timings would not see the worker's fetches. Prints medians over the rounds, then ratios.
"""

import argparse
import hashlib
import logging
import statistics
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: find server/ and tests/

from playwright.sync_api import Page, Playwright, sync_playwright  # noqa: E402
from werkzeug.middleware.dispatcher import DispatcherMiddleware  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from server import create_app  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.solutions import CORRECT  # noqa: E402

STOCK = ROOT / "node_modules" / "pyodide"
STOCK_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
CHECKS = 20  # check() calls per round, after ready
BARE = "/bare"  # where the bare page is mounted, beside the playground

BARE_PAGE = b"""<!doctype html>
<meta charset="utf-8">
<title>Pyodide, stock</title>
<link rel="icon" href="data:,">
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
window.playground = { ready: loadPyodide({ indexURL: new URL("./pyodide/", location.href).href }) };
</script>
"""

# Before any script of the page: note the time at which window.playground.ready resolves.
READY_HOOK = """(() => {
  let playground, settle;
  window.__readyAt = new Promise((resolve, reject) => (settle = { resolve, reject }));
  Object.defineProperty(window, "playground", {
    configurable: true,
    get: () => playground,
    set(value) {
      playground = value;
      Promise.resolve(value?.ready).then(() => settle.resolve(performance.now()), settle.reject);
    },
  });
  // The editor (the editable .cm-content, not the engine viewer) is shown, and the page is free to
  // handle a key: the first task after the frame that shows it.
  window.__editorAt = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector(".cm-content[contenteditable=true]")) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
    });
    observer.observe(document, { childList: true, subtree: true });
  });
})()"""

CHECK_TIMES = """async ([source, n]) => {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const report = await window.playground.check(source);
    ms.push(performance.now() - start);
    if (!report.passed) throw new Error("the correct solution failed: " + JSON.stringify(report.error));
  }
  return ms;
}"""


class Meter:
    """WSGI middleware: record each response's path, status, headers and body bytes as sent."""

    def __init__(self, app: Callable) -> None:
        self.app = app
        self.log: list[dict] = []

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        entry = {"path": environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""), "bytes": 0}
        self.log.append(entry)

        def start(status: str, headers: list, exc_info=None):
            entry.update(status=int(status[:3]), headers={k.lower(): v for k, v in headers})
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        try:
            for chunk in body:
                entry["bytes"] += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()

    def header(self, name: str, path: str) -> str | None:
        """A header of the playground's last full response for a path ending so ("/": the page)."""
        for entry in reversed(self.log):
            served = entry["path"]
            if entry.get("status") == 200 and not served.startswith(BARE + "/"):
                if served == path if path == "/" else served.endswith(path):
                    return entry["headers"].get(name)
        raise LookupError(f"the playground has not served *{path} yet")


class BarePyodide:
    """The limit: a page that only calls loadPyodide(), from the npm package's files as they are.

    They are cached as the playground's own Pyodide files are: the same Cache-Control, read from
    the playground's responses, and an ETag for revalidation; the page as the playground's page is.
    """

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.files = {"": (BARE_PAGE, "text/html; charset=utf-8")}
        for name in STOCK_FILES:
            self.files[f"pyodide/{name}"] = ((STOCK / name).read_bytes(), TYPES[Path(name).suffix])

    def cache_control(self, name: str) -> str | None:
        """The playground's Cache-Control for the same file (its page, for the bare page)."""
        return self.meter.header("cache-control", "/" + name.rpartition("/")[2] if name else "/")

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        name = environ.get("PATH_INFO", "").lstrip("/")
        if name not in self.files:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found"]
        body, content_type = self.files[name]
        etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
        headers = [("Content-Type", content_type), ("ETag", etag)]
        if cache_control := self.cache_control(name):
            headers.append(("Cache-Control", cache_control))
        if environ.get("HTTP_IF_NONE_MATCH") == etag:
            start_response("304 Not Modified", headers)
            return []
        start_response("200 OK", [*headers, ("Content-Length", str(len(body)))])
        return [body]


def visit(p: Playwright, profile: str, url: str, meter: Meter, editor: bool, checks: int) -> dict:
    """Start Chromium on a profile, open url, measure; close it, so the profile is on disk."""
    context = p.chromium.launch_persistent_context(
        profile, executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
    )
    try:
        context.add_init_script(READY_HOOK)
        page = context.pages[0] if context.pages else context.new_page()
        start = len(meter.log)
        page.goto(url, wait_until="commit")
        result = {"typing": typing_ms(page), "editor": page.evaluate("window.__editorAt")} if editor else {}
        result["ready"] = page.evaluate("window.__readyAt")
        if checks:
            result["checks"] = page.evaluate(CHECK_TIMES, [CORRECT, checks])
    finally:
        context.close()
    responses = meter.log[start:]
    result["bytes"] = sum(e["bytes"] for e in responses)
    result["requests"] = len(responses)
    result["encodings"] = Counter(e.get("headers", {}).get("content-encoding", "identity") for e in responses)
    return result


def typing_ms(page: Page) -> float:
    """Time from navigation until a key pressed in the editor shows in window.playground.getCode()."""
    page.locator(".cm-content[contenteditable=true]").click()  # the editor, not the engine viewer
    before = page.wait_for_function("() => window.playground?.getCode()").json_value()
    page.keyboard.press("x")
    changed = "(before) => window.playground.getCode() !== before && performance.now()"
    return page.wait_for_function(changed, arg=before).json_value()


def serve(app: Callable) -> str:
    """Serve app with werkzeug's threaded server on a free port; return the base URL."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


def run(rounds: int) -> tuple[dict[str, list[dict]], Meter]:
    """Visit both pages, cold then warm, for each round; return the measurements by kind."""
    meter = Meter(None)
    meter.app = DispatcherMiddleware(create_app(), {BARE: BarePyodide(meter)})
    base = serve(meter)
    results: dict[str, list[dict]] = {"ours cold": [], "ours warm": [], "bare cold": [], "bare warm": []}
    with sync_playwright() as p:
        for i in range(rounds):
            for kind, url in (("ours", base), ("bare", base + BARE.lstrip("/") + "/")):
                with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
                    ours = kind == "ours"
                    results[f"{kind} cold"].append(visit(p, profile, url, meter, ours, CHECKS if ours else 0))
                    results[f"{kind} warm"].append(visit(p, profile, url, meter, ours, 0))
            done = ", ".join(f"{kind} {runs[-1]['ready']:.0f} ms" for kind, runs in results.items())
            print(f"round {i + 1}/{rounds}: ready {done}", flush=True)
    return results, meter


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def report(results: dict[str, list[dict]], meter: Meter, rounds: int) -> None:
    """Print the medians side by side, how each page was served, then the ratios."""
    kinds = list(results)

    def row(label: str, key: str, fmt: str, only: str = "") -> None:
        cells = [format(median(results[k], key), fmt) if k.startswith(only) else "-" for k in kinds]
        print(f"{label:32}" + "".join(f"{c:>14}" for c in cells))

    def encodings(kind: str) -> str:
        counts = sum((r["encodings"] for r in results[kind]), Counter())
        return ", ".join(f"{encoding} x{n / rounds:g}" for encoding, n in counts.most_common())

    browser = chromium_path() or "Playwright's Chromium"
    print(f"\nMedians over {rounds} rounds, headless {browser}:")
    print(f"{'':32}" + "".join(f"{k:>14}" for k in kinds))
    row("ready (ms)", "ready", ",.0f")
    row("editor accepts typing (ms)", "editor", ",.0f", only="ours")
    row("  a key typed, via Playwright", "typing", ",.0f", only="ours")
    row("bytes sent", "bytes", ",.0f")
    row("requests", "requests", ".0f")
    checks = [ms for r in results["ours cold"] for ms in r["checks"]]
    print(
        f"{'check(CORRECT) after ready (ms)':32}{statistics.median(checks):>14,.1f}"
        f"   median of {len(checks)}: {CHECKS} a round, in the cold visit"
    )

    print("\nHow they were served (werkzeug's threaded server, one origin; responses per visit):")
    print(f"  ours: the app as `make run` builds it. Cold: {encodings('ours cold')};")
    print(f"        warm: {encodings('ours warm')}")
    print(f"        Pyodide files' Cache-Control: {meter.header('cache-control', '/pyodide.asm.wasm')}")
    print("  bare: loadPyodide() in the page (ours: in a module worker), from node_modules/pyodide's five")
    print("        files as they are, uncompressed, with an ETag and the same Cache-Control as ours.")
    print(f"        Cold: {encodings('bare cold')}; warm: {encodings('bare warm')}")

    cold, warm = median(results["ours cold"], "ready"), median(results["ours warm"], "ready")
    raw = sum((STOCK / name).stat().st_size for name in STOCK_FILES)
    print("\nRatios:")
    print(f"  ready, ours/bare, cold        {cold / median(results['bare cold'], 'ready'):.2f}")
    print(f"  ready, ours/bare, warm        {warm / median(results['bare warm'], 'ready'):.2f}")
    print(f"  ready, warm/cold, ours        {warm / cold:.2f}")
    cold_bytes = median(results["ours cold"], "bytes")
    print(f"  cold bytes / raw Pyodide      {cold_bytes / raw:.2f}   (the five stock files: {raw:,} bytes)")
    print(
        "\n'editor accepts typing': the editor is shown and the page's next task can run (a key pressed"
        "\nthen is handled). 'a key typed, via Playwright': until a key Playwright clicks and presses"
        "\nshows in getCode(); it adds Playwright's own round trips (actionability checks, polling)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="visits of each kind (default 5)")
    rounds = parser.parse_args().rounds
    report(*run(rounds), rounds)


if __name__ == "__main__":
    main()
