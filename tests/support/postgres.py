"""A throwaway PostgreSQL server for the tests: Debian's, from the folder `make` found (.postgres).

initdb makes a cluster in a temporary folder (trust authentication, user postgres); the server
listens on a Unix socket in that folder only (no TCP); `pg_ctl start -w` returns once it accepts
connections. Run as root, the cluster belongs to the `postgres` user (the server refuses root).
"""

import contextlib
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.found import found_by_make


def server_bin() -> Path | None:
    """PostgreSQL's server programs (scripts/setup-postgres.sh), or None."""
    text = found_by_make(".postgres", "POSTGRES_BIN")
    return Path(text) if text and (Path(text) / "initdb").exists() else None


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yield a psycopg URL of its database; stop and remove it afterwards."""
    bin_dir = server_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server programs (scripts/setup-postgres.sh)")
    folder = Path(tempfile.mkdtemp(prefix="playground-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    data, log = folder / "data", folder / "log"

    def run(*args: str) -> None:
        done = subprocess.run([*run_as, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{args[0]}: {done.stdout}{done.stderr}"

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-k {folder} -c listen_addresses='' -c fsync=off"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "start")
        yield f"postgresql://postgres@/postgres?host={folder}"
    finally:
        if (data / "postmaster.pid").exists():
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def new_database(server_url: str) -> str:
    """Make an empty database on a server postgres_server() started; its URL (each test its own)."""
    import psycopg

    name = f"db_{uuid.uuid4().hex}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.replace("/postgres?", f"/{name}?", 1)
