"""Measure a returning visit with the service worker, without it, and with no network at all.

    .venv/bin/python benchmarks/offline.py [--rounds N]

Each round starts a server (werkzeug's threaded server, in a thread) and headless Chromium on a new,
empty profile; visits the page and waits until it is ready (and, with the service worker, until
`<html data-offline="kept">`: the build is cached); closes the browser, starts it again on the same
profile and visits again, timing navigation to the runtime status saying ready (load.py's
WATCH_PAGE). "HTTP cache only" blocks service workers (Playwright's option), as before they existed;
"no network" stops the server and sets the browser offline before the second visit. Prints medians
over the rounds, and what the first visit cost the server beyond the runtime's own load (the service
worker's script and the files it keeps that the visit had not loaded).
"""

import argparse
import logging
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: find server/ and tests/

from playwright.sync_api import Playwright, sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from benchmarks.load import WATCH_PAGE, wait_ready  # noqa: E402  (ready: the runtime status says so)
from benchmarks.sites import chromium_on  # noqa: E402
from server import create_app  # noqa: E402

MODES = {"service worker": "allow", "HTTP cache only": "block", "no network (service worker)": "allow"}


class Log:
    """WSGI middleware: the path and size of each response the server sends."""

    def __init__(self, app):
        self.app, self.sent = app, []

    def __call__(self, environ, start_response):
        body = b"".join(self.app(environ, start_response))
        self.sent.append((environ["PATH_INFO"], len(body)))
        return [body]


def visit(p: Playwright, profile: str, url: str, service_workers: str, keep: bool, offline: bool) -> float:
    """Start Chromium on profile, open url, return ms to ready; close it, so the profile is on disk.

    keep: wait until the service worker has kept the build (requests from then on are its own)."""
    with chromium_on(p, profile, WATCH_PAGE, service_workers=service_workers) as page:
        page.context.set_offline(offline)
        page.goto(url, wait_until="commit")
        ready = wait_ready(page, 90_000)["ready"]
        if keep:
            page.locator("html[data-offline=kept]").wait_for(state="attached", timeout=60_000)
        return ready


def round_of(p: Playwright, mode: str) -> tuple[float, list]:
    """One first visit and one returning visit; the returning visit's ms, the first visit's extra requests."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    log = Log(create_app())
    server = make_server("127.0.0.1", 0, log, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    sw = MODES[mode]
    try:
        with tempfile.TemporaryDirectory() as profile:
            visit(p, profile, url, sw, keep=sw == "allow", offline=False)
            # The page's own requests come first (the worker registers once ready); then the worker's.
            start = next((i for i, (path, _) in enumerate(log.sent) if path == "/sw.js"), len(log.sent))
            extra = log.sent[start:]
            offline = mode.startswith("no network")
            if offline:
                server.shutdown()
                server.server_close()
            return visit(p, profile, url, sw, keep=False, offline=offline), extra
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    times = {mode: [] for mode in MODES}
    with sync_playwright() as p:
        for _ in range(rounds):
            for mode in MODES:
                ms, extra = round_of(p, mode)
                times[mode].append(ms)
                if mode == "service worker":
                    first_extra = extra
    print(f"Returning visit, navigation to ready, median of {rounds} (ms):")
    for mode, values in times.items():
        print(f"  {mode:<30} {statistics.median(values):7.0f}   {', '.join(f'{v:.0f}' for v in values)}")
    extra_bytes = sum(size for _, size in first_extra)
    print(f"First visit, beyond the runtime's load: {extra_bytes / 1000:.1f} kB in {first_extra}")


if __name__ == "__main__":
    main()
