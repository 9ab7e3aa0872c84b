"""The sites `make bench` serves: a byte meter, a CDN-like host of stock Pyodide, its page, the floor."""

import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import brotli
from playwright.sync_api import Page, Playwright
from werkzeug.serving import make_server

from server.exercises.registry import LEGACY
from tests.browser.chromium import CHROMIUM_ARGS, chromium_path

# What the benchmarks open: the seed's exercise's page, from the playground's root (which lists them).
SEED_PAGE = f"exercises/{LEGACY}/"

ROOT = Path(__file__).resolve().parent.parent
STOCK = ROOT / "node_modules" / "pyodide"
STOCK_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json; charset=utf-8",
}
IMMUTABLE = "public, max-age=31536000, immutable"  # what jsDelivr sends for a versioned file
CACHE = ROOT / "static" / "build" / "bench"  # the .br files, made once (static/build is never committed)

# A learner's page that uses stock Pyodide: loadPyodide() from the CDN, then the least Python can do.
# Its status element is the playground's, so one observer times both pages.
STOCK_PAGE = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Pyodide from a CDN</title>
<link rel="icon" href="data:,">
<p data-testid="runtime-status" data-state="loading">Loading Python…</p>
<script type="module">
import { loadPyodide } from "%(cdn)spyodide.mjs";
const status = document.querySelector("[data-testid=runtime-status]");
try {
  const pyodide = await loadPyodide();
  pyodide.runPython("import json");
  status.dataset.state = "ready";
} catch (err) {
  status.textContent = String(err);
  status.dataset.state = "dead";
}
</script>
"""

# The floor: fetch our wasm and compile it, nothing else; data-ms is the time that took.
FLOOR_PAGE = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Fetch and compile the wasm</title>
<link rel="icon" href="data:,">
<p data-testid="runtime-status" data-state="loading">Compiling…</p>
<script type="module">
const status = document.querySelector("[data-testid=runtime-status]");
const start = performance.now();
try {
  await WebAssembly.compileStreaming(fetch(%(wasm)s));
  status.dataset.ms = performance.now() - start;
  status.dataset.state = "ready";
} catch (err) {
  status.textContent = String(err);
  status.dataset.state = "dead";
}
</script>
"""

# The bench's own overhead in timing a key: an editable element in an empty page, and nothing else.
TYPING_PAGE = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>A key, and nothing else</title>
<link rel="icon" href="data:,">
<div class="cm-content" contenteditable="true">text</div>
"""


class Meter:
    """WSGI middleware: record each response's site, path, status, headers and body bytes as sent."""

    def __init__(self, app: Callable, site: str, log: list[dict]) -> None:
        self.app, self.site, self.log = app, site, log

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        entry = {"site": self.site, "path": environ.get("PATH_INFO", ""), "bytes": 0}
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


def stock_version() -> str:
    return json.loads((STOCK / "package.json").read_text())["version"]


def brotli_files() -> dict[str, Path]:
    """Each stock file compressed with brotli at quality 11, made once and kept under CACHE."""
    folder = CACHE / f"pyodide-{stock_version()}"
    folder.mkdir(parents=True, exist_ok=True)
    made = {name: folder / f"{name}.br" for name in STOCK_FILES}
    stale = [
        n for n, br in made.items() if not br.exists() or br.stat().st_mtime < (STOCK / n).stat().st_mtime
    ]
    if stale:
        print(f"brotli-11 of the stock {', '.join(stale)}, once, into {folder} (about a minute)", flush=True)
    for name in stale:
        part = made[name].with_suffix(".part")
        part.write_bytes(brotli.compress((STOCK / name).read_bytes(), quality=11))
        os.replace(part, made[name])
    return made


def respond(environ: dict, start_response: Callable, body: bytes, headers: list) -> Iterable[bytes]:
    """Send body with an ETag, or 304 when the browser's copy matches it."""
    etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    headers = [*headers, ("ETag", etag)]
    if environ.get("HTTP_IF_NONE_MATCH") == etag:
        start_response("304 Not Modified", headers)
        return []
    start_response("200 OK", [*headers, ("Content-Length", str(len(body)))])
    return [body]


def not_found(start_response: Callable) -> Iterable[bytes]:
    start_response("404 Not Found", [("Content-Type", "text/plain")])
    return [b"not found"]


class StockCdn:
    """The npm package's files at /pyodide/<name>, as a CDN sends them: brotli-11, immutable, CORS."""

    def __init__(self) -> None:
        self.files = {
            name: ((STOCK / name).read_bytes(), br.read_bytes()) for name, br in brotli_files().items()
        }

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        name = environ.get("PATH_INFO", "").removeprefix("/pyodide/")
        if name not in self.files:
            return not_found(start_response)
        raw, compressed = self.files[name]
        headers = [
            ("Content-Type", TYPES[Path(name).suffix]),
            ("Cache-Control", IMMUTABLE),
            ("Access-Control-Allow-Origin", "*"),
            ("Cross-Origin-Resource-Policy", "cross-origin"),
            ("Vary", "Accept-Encoding"),
        ]
        if "br" in environ.get("HTTP_ACCEPT_ENCODING", ""):
            return respond(environ, start_response, compressed, [*headers, ("Content-Encoding", "br")])
        return respond(environ, start_response, raw, headers)


def page_site(html: str) -> Callable:
    """A site with one page at /, revalidated on each visit (no-cache, ETag) as the playground's is."""
    body = html.encode()

    def app(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "/") != "/":
            return not_found(start_response)
        headers = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")]
        return respond(environ, start_response, body, headers)

    return app


def stock_page(cdn: str) -> Callable:
    """The learner's page that loads stock Pyodide from the CDN at cdn (ending in /pyodide/)."""
    return page_site(STOCK_PAGE % {"cdn": cdn})


def floor_page(wasm_url: str) -> Callable:
    """A page that only fetches and compiles the wasm at wasm_url."""
    return page_site(FLOOR_PAGE % {"wasm": json.dumps(wasm_url)})


def typing_page() -> Callable:
    """A page with only an editable element, to time the bench's own part in pressing a key."""
    return page_site(TYPING_PAGE)


def serve(app: Callable) -> str:
    """Serve app with werkzeug's threaded server on a free port; return the base URL."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


@contextmanager
def chromium_on(p: Playwright, profile: str, *scripts: str, **options) -> Iterator[Page]:
    """Chromium on a profile kept on disk, each script added before the page's own; yield its page.

    Closed at the end, so the next visit finds the profile on disk, as a learner's restarted browser does.
    """
    context = p.chromium.launch_persistent_context(
        profile, executable_path=chromium_path(full=True), args=CHROMIUM_ARGS, headless=True, **options
    )
    try:
        for script in scripts:
            context.add_init_script(script)
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()
