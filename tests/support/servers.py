"""Real servers in subprocesses, for the tests and benchmarks/load_check.py: gunicorn, http.server.

Each prints the address it listens on once its socket is bound (port 0: the OS picks a free one);
we wait for that line, so no sleeps. Requests sent before its workers are up queue on the socket.
"""

import contextlib
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from server import ROOT

BIN = Path(sys.executable).parent
START_S = 60  # a slow, shared machine


@contextlib.contextmanager
def run_server(
    args: list[str], address: str, env: dict | None = None, log: list | None = None
) -> Iterator[str]:
    """Run a server; yield the base URL that `address` (a regex with host and port groups) finds
    (or, for a regex without them, the line it matched).

    Its output goes to log, when given (the first 1,000 lines).
    """
    process = subprocess.Popen(
        args,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = [] if log is None else log

    def drain() -> None:  # keep reading, or a chatty server blocks on a full pipe
        for line in process.stdout:
            if len(seen) < 1000:
                seen.append(line)
            lines.put(line)

    threading.Thread(target=drain, daemon=True).start()
    try:
        deadline = time.monotonic() + START_S
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{args[0]} did not start: {''.join(seen)}") from None
            if match := re.search(address, line):
                break
        if "host" not in match.groupdict():  # not a TCP server (Redis on a Unix socket): the line it said
            yield line
            return
        host, port = match["host"], int(match["port"])
        socket.create_connection((host, port), timeout=5).close()  # it listens: connections queue up
        yield f"http://{host}:{port}/"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def gunicorn(
    workers: int = 2,
    threads: int = 4,
    env: dict | None = None,
    log: list | None = None,
    app: str = "server:create_app()",
):
    """The production server, as docs/hosting.md runs it: gunicorn with several workers."""
    args = [str(BIN / "gunicorn"), "--workers", str(workers), "--threads", str(threads)]
    # No control socket: it would be shared (~/.gunicorn/gunicorn.ctl) with any other gunicorn here.
    args += ["--bind", "127.0.0.1:0", "--no-control-socket", app]
    return run_server(args, r"Listening at: http://(?P<host>[\d.]+):(?P<port>\d+)", env, log)


def http_server(directory: Path):
    """A plain static file server that sends no special headers: `python -m http.server`."""
    args = [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1"]
    args += ["--directory", str(directory), "0"]
    return run_server(args, r"Serving HTTP on (?P<host>[\d.]+) port (?P<port>\d+)")
