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

import click
from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g, has_app_context
from sqlalchemy import Connection, Engine, Table, create_engine, event, inspect, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

MIGRATIONS = Path(__file__).with_name("migrations")  # Alembic's scripts: env.py and versions/
MIGRATION_LOCK = (
    0x6C7469  # PostgreSQL's advisory lock: one process migrates at a time (the old store's id too)
)
# A database made before Alembic counted the LTI store's own migrations in schema_migrations (versions 1
# and 2): the revisions that make the same schema.
STORE_VERSIONS = {1: "0001", 2: "0002"}
BUSY_TIMEOUT_MS = 30_000  # how long a SQLite connection waits for another's write lock, then fails


class NewerDatabase(click.ClickException):
    """The database is at a revision no migration here makes: a newer playground made (or upgraded) it.

    Said in one line, never as a traceback: create_app stops a server with it (flask run, gunicorn), and a
    command that opens the database itself stops with it as click says any error (`Error: ...`).
    """

    def __init__(self, found: str) -> None:
        super().__init__(
            "the database (PLAYGROUND_DATABASE_URL's) was made by a newer version of the playground"
            f" (its revision {found} is not one this version knows; the newest here is {head()}): run that"
            " version, or restore the backup of the database taken before it was upgraded."
        )


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

    def __init__(self, url: str, migrate: bool = True) -> None:
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
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        """Bring the database up to server/db/tables.py's schema: `alembic upgrade head`, in one
        transaction, one process at a time (the others wait, then find nothing left to do).

        A database made before Alembic (schema_migrations, no alembic_version) is first stamped with the
        revision that makes the same schema, and its schema_migrations goes in the same transaction.
        """
        config = alembic_config()
        with self.engine.connect() as conn:
            if self.postgres:
                conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": MIGRATION_LOCK})
            else:
                # SQLite's recipe for a table made anew: its references kept by name, foreign keys
                # checked once at the end (off only on this connection, which the pool then drops).
                conn.exec_driver_sql("PRAGMA foreign_keys = OFF")
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock now: the others wait for it
            try:
                config.attributes["connection"] = conn
                if (found := MigrationContext.configure(conn).get_current_revision()) not in known():
                    raise NewerDatabase(found)
                before_alembic = revision_before_alembic(conn)
                if before_alembic:
                    command.stamp(config, before_alembic)
                command.upgrade(config, "head")
                if before_alembic is not None:
                    conn.execute(text("DROP TABLE schema_migrations"))
                if not self.postgres and (broken := conn.exec_driver_sql("PRAGMA foreign_key_check").all()):
                    raise RuntimeError(f"the migrations broke these references: {broken}")
                conn.commit()
            finally:
                if not self.postgres:
                    conn.invalidate()

    def revision(self) -> str | None:
        """The Alembic revision the database is at (None: empty, or made before Alembic)."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

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


def alembic_config() -> Config:
    """Alembic's configuration: the scripts here, no alembic.ini."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str | None:
    """The newest revision of the migrations."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def known() -> set[str | None]:
    """The revisions the migrations here make (and None: a database with none yet)."""
    return {None} | {each.revision for each in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def newer(url: str) -> NewerDatabase | None:
    """NewerDatabase when the database at url is at a revision no migration here makes; None for any
    other, and for a SQLite file not made yet (this makes nothing): for a check before any app starts
    (gunicorn.conf.py's, in gunicorn's master)."""
    if (
        not url.startswith(("postgresql://", "postgres://"))
        and not Path(url.removeprefix("sqlite:///")).exists()
    ):
        return None
    db = Database(url, migrate=False)
    try:
        found = db.revision()
    finally:
        db.engine.dispose()
    return None if found in known() else NewerDatabase(found)


def revision_before_alembic(conn: Connection) -> str | None:
    """For a database made before Alembic (the LTI store's schema_migrations, no alembic_version): the
    revision that makes the schema its last migration left ("" when it had none); None for any other."""
    tables = inspect(conn)
    if tables.has_table("alembic_version") or not tables.has_table("schema_migrations"):
        return None
    version = conn.execute(text("SELECT max(version) FROM schema_migrations")).scalar()
    if version is not None and version not in STORE_VERSIONS:
        raise RuntimeError(f"schema_migrations is at version {version}, which no revision here matches")
    return STORE_VERSIONS.get(version, "")


def sqlite_settings(raw, _record) -> None:
    """Each SQLite connection: wait for a writer rather than fail, keep foreign keys, write ahead, and
    sync to the disk at checkpoints, not at each commit (a Check recorded in the last moments before the
    machine loses power may be lost; nothing is corrupted)."""
    cursor = raw.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")  # WAL's advice: a commit writes, the checkpoint syncs
    cursor.close()


def close(exception: BaseException | None = None) -> None:
    """Return the connections the app context used to the pool (its teardown)."""
    for conn in g.pop("db_connections", {}).values():
        conn.close()


def database_url(app: Flask) -> str:
    """The database DATABASE_URL names, or SQLite in the instance folder."""
    return str(app.config["DATABASE_URL"] or f"sqlite:///{Path(app.instance_path) / 'lti.sqlite3'}")


def upsert(conn: Connection, table: Table) -> Insert:
    """An INSERT that can say ON CONFLICT (do nothing, or update), in the connection's dialect."""
    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


def database() -> Database:
    """The app's database."""
    return current_app.extensions["db"]


def init_app(app: Flask) -> None:
    """Open the database (made and migrated at start) and return connections at each context's end."""
    app.config.setdefault("DATABASE_URL", None)
    app.extensions["db"] = Database(database_url(app))
    app.teardown_appcontext(close)
