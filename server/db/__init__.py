"""The playground's database: SQLAlchemy Core's engine (connection pool) for the URL the host names.

SQLite in the instance folder by default (nothing to start), or PostgreSQL when several instances share
their state (`PLAYGROUND_DATABASE_URL=postgresql://...`, psycopg 3). The schema is server/db/tables.py's;
migrate() brings a database up to it (server/db/migrations/, Alembic).

One connection serves a unit of work: inside an app context (a request, a queue task, a command) the
first use checks one out of the pool and keeps it in `g`, and the context's end returns it (flaskr's
get_db and close_db); outside one (a test reading the database), each block has its own.
"""

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, current_app, g, has_app_context
from sqlalchemy import Connection, Engine, create_engine, event

from server.db.tables import metadata


def private(path: Path) -> None:
    """Make the SQLite file readable by this user only (0600), before SQLite opens it.

    SQLite makes its -wal and -shm files with the database's mode; a file made before this rule (or by
    another umask) is set to 0600 too, with them.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if each.exists() and each.stat().st_mode & 0o077:
            each.chmod(0o600)


def engine_url(url: str) -> str:
    """The SQLAlchemy URL of a database URL: postgresql:// is psycopg 3's driver."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    if not url.startswith("sqlite:///"):
        raise ValueError(f"PLAYGROUND_DATABASE_URL={url!r}: use sqlite:///<path> or postgresql://...")
    return url


class Database:
    """The database a URL names: any thread or process may use it, each with connections of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self.path: Path | None = None
        if not self.postgres:
            self.path = Path(url.removeprefix("sqlite:///"))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            private(self.path)
        self.engine: Engine = create_engine(engine_url(url), pool_pre_ping=self.postgres)
        if not self.postgres:
            event.listen(self.engine, "connect", sqlite_settings)
        self.migrate()

    def migrate(self) -> None:
        """Bring the database up to server/db/tables.py's schema."""
        metadata.create_all(self.engine)  # for now; the migrations replace it

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        """The app context's connection (checked out on first use, returned by close()), committing at the
        block's end; outside an app context, a connection for the block."""
        if has_app_context():
            held = g.setdefault("db_connections", {})
            if self.url not in held:
                held[self.url] = self.engine.connect()
            conn = held[self.url]
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
            return
        with self.engine.connect() as conn:
            yield conn
            conn.commit()


def sqlite_settings(raw, _record) -> None:
    """Each SQLite connection: wait for a writer rather than fail, keep foreign keys, write ahead."""
    cursor = raw.cursor()
    cursor.execute("PRAGMA busy_timeout = 30000")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def close(exception: BaseException | None = None) -> None:
    """Return the connections the app context used to the pool (its teardown)."""
    for conn in g.pop("db_connections", {}).values():
        conn.close()


def database_url(app: Flask) -> str:
    """The database DATABASE_URL names, or SQLite in the instance folder."""
    return str(app.config["DATABASE_URL"] or f"sqlite:///{Path(app.instance_path) / 'lti.sqlite3'}")


def database() -> Database:
    """The app's database."""
    return current_app.extensions["db"]


def init_app(app: Flask) -> None:
    """Open the database (made and migrated on first use) and return connections at each context's end."""
    app.config.setdefault("DATABASE_URL", None)
    app.extensions["db"] = Database(database_url(app))
    app.teardown_appcontext(close)
