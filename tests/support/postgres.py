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


class Cluster:
    """A throwaway server's cluster: its URL, and stop() and start() again on the same data and socket (a
    database restart, as a test sees it)."""

    def __init__(self, bin_dir: Path, folder: Path, run_as: list[str]) -> None:
        self.bin_dir, self.folder, self.run_as = bin_dir, folder, run_as
        self.data, self.log = folder / "data", folder / "log"
        self.url = f"postgresql://postgres@/postgres?host={folder}"

    def run(self, *args: str) -> None:
        done = subprocess.run([*self.run_as, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{args[0]}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        """Start the server; return once it accepts connections."""
        # Room for a test process's tests one after another on one server (postgres_server_for_tests):
        # a test's 4 gunicorn workers' pools, an app's left to its database's drop.
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c max_connections=300"
        self.run(
            str(self.bin_dir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.log),
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Stop the server at once (its connections cut, as a crash or `systemctl stop` does)."""
        if (self.data / "postmaster.pid").exists():
            self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """Start a server; yield its Cluster; stop and remove it afterwards."""
    bin_dir = server_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server programs (scripts/setup-postgres.sh)")
    folder = Path(tempfile.mkdtemp(prefix="playground-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(bin_dir, folder, run_as)
    try:
        cluster.run(
            str(bin_dir / "initdb"), "-D", str(cluster.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"
        )
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yield a psycopg URL of its database; stop and remove it afterwards."""
    with postgres_cluster() as cluster:
        yield cluster.url


def new_database(server_url: str) -> str:
    """Make an empty database on a server postgres_server() started; its URL (each test its own)."""
    import psycopg

    name = f"db_{uuid.uuid4().hex}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.replace("/postgres?", f"/{name}?", 1)


def drop_database(server_url: str, database_url: str) -> None:
    """Drop a database new_database() made, cutting any connection still open to it (an app's pool)."""
    import psycopg

    name = database_url.split("?", 1)[0].rsplit("/", 1)[1]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def database_on(server_url: str) -> Iterator[str]:
    """A new database on a server postgres_server() started (its URL); dropped afterwards."""
    url = new_database(server_url)
    try:
        yield url
    finally:
        drop_database(server_url, url)
