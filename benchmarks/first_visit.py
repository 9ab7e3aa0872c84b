"""Measure a first visit's bytes and time to ready, beside stock Pyodide's files as a CDN sends them.

    .venv/bin/python benchmarks/first_visit.py [--rounds N] [--baseline DIR ...]

The stock figure: brotli-11 of the npm package's five files (pyodide.mjs, pyodide.asm.mjs,
pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json), as a CDN that compresses with brotli
sends them. Ours: each round opens the page in headless Chromium with a new, empty profile and waits
for window.playground.ready; the bytes are counted on the server as the response bodies are sent
(after compression), for every request of the visit. Prints medians, the files fetched, and the ratio.
--baseline DIR (may be repeated): also serve the app with DIR as its Pyodide folder (an older build
of static/build/pyodide/<version>, say), and alternate the visits, so a busy machine slows all alike.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import brotli

sys.path.insert(0, str(Path(__file__).resolve().parent))  # beside load.py
from load import STOCK, STOCK_FILES, Meter, serve, visit  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import server.static  # noqa: E402
from server import create_app  # noqa: E402


def stock_cdn_bytes() -> int:
    """The five stock files' size with brotli-11 (the wasm's, a byte-for-byte copy, from our build)."""
    version = (STOCK / "package.json").read_text().split('"version": "')[1].split('"')[0]
    built = Path(__file__).resolve().parent.parent / "static" / "build" / "pyodide" / version
    total = 0
    for name in STOCK_FILES:
        stock = (STOCK / name).read_bytes()
        copy = built / name
        if copy.exists() and copy.read_bytes() == stock and (built / f"{name}.br").exists():
            total += (built / f"{name}.br").stat().st_size  # WhiteNoise's brotli-11 of the same bytes
        else:
            total += len(brotli.compress(stock, quality=11))
    return total


def first_visit(p, url: str, meter: Meter) -> tuple[float, list[dict]]:
    """Open url in Chromium with an empty profile; return ms to ready and the responses sent."""
    start = len(meter.log)
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        ready = visit(p, profile, url, meter, editor=False, checks=0)["ready"]
    return ready, meter.log[start:]


def app_with_pyodide(folder: Path | None):
    """The app, serving its Pyodide files from folder instead of its own build when one is given."""
    if folder is None:
        return create_app()
    own = server.static.served_dirs
    mapped = {prefix: folder if prefix.startswith("pyodide/") else path for prefix, path in own().items()}
    server.static.served_dirs = lambda: mapped
    try:
        return create_app()
    finally:
        server.static.served_dirs = own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="first visits of each build (default 5)")
    parser.add_argument("--baseline", type=Path, action="append", default=[], help="a Pyodide folder, too")
    args = parser.parse_args()
    builds = {"ours": None} | {str(folder): folder for folder in args.baseline}
    sites = {}
    for name, folder in builds.items():
        meter = Meter(app_with_pyodide(folder))
        sites[name] = (serve(meter), meter)
    ready = {name: [] for name in builds}
    sent = {name: [] for name in builds}
    last = {}
    with sync_playwright() as p:
        for i in range(args.rounds):
            for name, (url, meter) in sites.items():
                ms, last[name] = first_visit(p, url, meter)
                ready[name].append(ms)
                sent[name].append(sum(r["bytes"] for r in last[name]))
            done = ", ".join(f"{name} {ready[name][-1]:,.0f} ms, {sent[name][-1]:,} bytes" for name in builds)
            print(f"round {i + 1}/{args.rounds}: ready {done}", flush=True)
    stock = stock_cdn_bytes()
    for name in builds:
        print(f"\n{name}: files of the last visit (bytes as sent):")
        for r in sorted(last[name], key=lambda r: -r["bytes"]):
            encoding = r.get("headers", {}).get("content-encoding", "identity")
            print(f"  {r['bytes']:>10,}  {encoding:8}  {r['path']}")
    print(f"\nstock Pyodide's five files, brotli-11: {stock:,} bytes")
    for name in builds:
        ours, ms = statistics.median(sent[name]), statistics.median(ready[name])
        print(
            f"{name}: ready, first visit (median of {args.rounds}) {ms:>7,.0f} ms;"
            f" bytes {ours:>10,.0f}; ratio to stock {ours / stock:.2f} (target <= 0.80)"
        )


if __name__ == "__main__":
    main()
