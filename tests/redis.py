"""A throwaway Redis server for the tests: Debian's redis-server, from the path `make` found (.redis).

It listens on a Unix socket in a temporary folder only (port 0: no TCP), keeps nothing on disk, and
is ready once it logs so (no sleeps). The URL it yields is the one PLAYGROUND_RATELIMIT_STORAGE_URL
takes (the `limits` library's `redis+unix://`).
"""

import contextlib
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READY = "ready to accept connections"  # "Ready to..." before 7, "...now ready to... at <socket>" since
START_S = 30


def server_path() -> str | None:
    """redis-server (scripts/setup-redis.sh), or None."""
    found = ROOT / ".redis"
    text = os.environ.get("REDIS_SERVER") or (found.read_text().strip() if found.exists() else "")
    return text if text and os.access(text, os.X_OK) else None


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Start a server; yield its URL (redis+unix://...); stop and remove it afterwards."""
    path = server_path()
    if path is None:
        pytest.skip("no redis-server (scripts/setup-redis.sh)")
    folder = Path(tempfile.mkdtemp(prefix="playground-redis-"))
    socket = folder / "redis.sock"
    args = [path, "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700"]
    args += ["--dir", str(folder), "--save", "", "--appendonly", "no", "--daemonize", "no"]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def drain() -> None:  # keep reading, or a chatty server blocks on a full pipe
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=drain, daemon=True).start()
    seen = []
    try:
        while True:
            try:
                line = lines.get(timeout=START_S)
            except queue.Empty:
                raise RuntimeError(f"redis-server did not start: {''.join(seen)}") from None
            seen.append(line)
            if READY in line.lower():
                break
        yield f"redis+unix://{socket}"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
