"""A throwaway Redis server for the tests: Debian's redis-server, from the path `make` found (.redis).

It listens on a Unix socket in a temporary folder only (port 0: no TCP), keeps nothing on disk, and
is ready once it logs so (no sleeps; tests/support/servers.py runs it). The URL it yields is the one
PLAYGROUND_RATELIMIT_STORAGE_URL takes (the `limits` library's `redis+unix://`).
"""

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.found import found_by_make
from tests.support.servers import run_server

READY = r"(?i)ready to accept connections"  # "Ready to..." before Redis 7, "...now ready to... at" since


def server_path() -> str | None:
    """redis-server (scripts/setup-redis.sh), or None."""
    text = found_by_make(".redis", "REDIS_SERVER")
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
    try:
        with run_server(args, READY):
            yield f"redis+unix://{socket}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
