"""Load check: many clients fetching the page and its files from the production server, on loopback.

    .venv/bin/python -m benchmarks.load_check [--clients 50] [--seconds 30] [--workers 4]

Starts gunicorn as docs/hosting.md runs it (several workers) and, beside it, `python -m http.server` on a
static export of the same site. Each client fetches what the page uses (the page, the files its
<head> names, the worker, the engine archive, Pyodide's files), one after the other with
`Accept-Encoding: br` over a kept-alive connection where the server allows it, for --seconds,
first against gunicorn, then against http.server. Prints requests per second for both; exits 1 if
gunicorn answered any request with an error (or not at all). Bounded in time, 127.0.0.1 only.
"""

import argparse
import http.client
import json
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from benchmarks.sites import SEED_PAGE
from server import create_app
from server.export.site import export_site
from tests.support import servers

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def page_urls(base: str) -> list[str]:
    """The URLs the page at base uses as it loads, absolute, the page first."""
    status, html = get_once(base)
    assert status == 200, f"{base}: HTTP {status}"
    text = html.decode()
    head = text[: text.index("</head>")]
    config = json.loads(
        re.search(r'<script type="application/json" id="config">(.*?)</script>', text, re.S)[1]
    )
    urls = [base] + [urljoin(base, u) for u in re.findall(r'(?:href|src)="([^"]+)"', head)]
    urls += [urljoin(base, config["urls"][k]) for k in ("worker", "engine")]
    urls += [urljoin(urljoin(base, config["urls"]["pyodide"]), name) for name in PYODIDE_FILES]
    return list(dict.fromkeys(urls))


def get_once(url: str) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request("GET", parts.path or "/", headers={"Accept-Encoding": "br"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Client(threading.Thread):
    """Fetch the URLs in turn until the deadline; count requests, bytes, errors and latencies."""

    def __init__(self, urls: list[str], deadline: float) -> None:
        super().__init__(daemon=True)
        self.urls, self.deadline = urls, deadline
        self.requests = self.bytes = 0
        self.errors: list[str] = []
        self.latencies: list[float] = []

    def run(self) -> None:
        parts = urlsplit(self.urls[0])
        connection = None
        while time.monotonic() < self.deadline:
            for url in self.urls:
                if time.monotonic() >= self.deadline:
                    break
                connection = connection or http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                start = time.perf_counter()
                try:
                    connection.request("GET", urlsplit(url).path, headers={"Accept-Encoding": "br"})
                    response = connection.getresponse()
                    body = response.read()
                    if response.status != 200:
                        self.errors.append(f"{url}: HTTP {response.status}")
                    if response.will_close:
                        connection.close()
                        connection = None
                except (OSError, http.client.HTTPException) as err:
                    self.errors.append(f"{url}: {type(err).__name__}: {err}")
                    connection.close()
                    connection = None
                    continue
                self.latencies.append(time.perf_counter() - start)
                self.requests += 1
                self.bytes += len(body)
        if connection:
            connection.close()


def load(name: str, base: str, clients: int, seconds: float) -> dict:
    """Run the clients against one server; return and print its figures."""
    assert urlsplit(base).hostname == "127.0.0.1", "loopback only"
    urls = page_urls(base + SEED_PAGE)  # on the server and in the export
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    threads = [Client(urls, deadline) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)
    elapsed = time.monotonic() - started
    requests = sum(t.requests for t in threads)
    errors = [e for t in threads for e in t.errors] + [
        f"client {i} still running" for i, t in enumerate(threads) if t.is_alive()
    ]
    latencies = sorted(x for t in threads for x in t.latencies)
    result = {
        "name": name,
        "urls": len(urls),
        "requests": requests,
        "rps": requests / elapsed,
        "mb_s": sum(t.bytes for t in threads) / elapsed / 1e6,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
        "errors": errors,
    }
    print(
        f"{name:<34} {result['urls']:>4} URLs {requests:>8} requests {result['rps']:>8.1f} req/s "
        f"{result['mb_s']:>8.1f} MB/s  p50 {result['p50_ms']:>7.1f} ms  p95 {result['p95_ms']:>7.1f} ms  "
        f"errors {len(errors)}",
        flush=True,
    )
    for error in errors[:10]:
        print("   ", error)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    args = parser.parse_args()
    print(f"{args.clients} clients, {args.seconds:g} s each, Accept-Encoding: br, loopback", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app()
        with app.app_context():
            export_site(Path(folder), compressed=False)  # http.server cannot pick a .br file anyway
        log: list[str] = []
        with servers.gunicorn(workers=args.workers, threads=args.threads, log=log) as base:
            name = f"gunicorn ({args.workers} workers x {args.threads} threads)"
            production = load(name, base, args.clients, args.seconds)
        for line in log:
            if re.search(r"\[(WARNING|ERROR|CRITICAL)\]", line):
                print("    gunicorn:", line.rstrip())
        with servers.http_server(Path(folder)) as base:
            static = load("python -m http.server (export)", base, args.clients, args.seconds)
    print(f"gunicorn / http.server: {production['rps'] / static['rps']:.2f}x the requests per second")
    if production["errors"]:
        print(f"FAIL: gunicorn had {len(production['errors'])} errors")
        return 1
    print("OK: no errors from gunicorn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
