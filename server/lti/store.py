"""The LTI state in a database: registrations, one-time values (nonces, states), launches, passbacks.

SQLite in the instance folder by default (Python's sqlite3: nothing to start), or PostgreSQL when a
course runs several instances of the playground (`PLAYGROUND_DATABASE_URL=postgresql://...`, psycopg
3). The same SQL runs on both (`?` placeholders become psycopg's `%s`; upserts are `ON CONFLICT`).
The schema is made and brought up to date by MIGRATIONS, in order, each once, under a lock (SQLite:
`BEGIN IMMEDIATE`; PostgreSQL: an advisory lock), and counted in `schema_migrations`.

One connection serves a unit of work: inside an app context (a request, a pass of the passback sender,
a command) the first statement opens it and keeps it in `g`, and the context's end closes it (flaskr's
get_db and close_db); outside one (a test reading the database), each call opens its own.
"""

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from flask import g, has_app_context

MIGRATIONS = [
    """
    CREATE TABLE registrations (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, title TEXT NOT NULL,
        auth_login_url TEXT NOT NULL, auth_token_url TEXT NOT NULL, key_set_url TEXT NOT NULL,
        auth_audience TEXT, PRIMARY KEY (issuer, client_id));
    CREATE TABLE deployments (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        PRIMARY KEY (issuer, client_id, deployment_id));
    CREATE TABLE once (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
    CREATE TABLE launches (
        id TEXT PRIMARY KEY, issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        sub TEXT NOT NULL, resource_link_id TEXT NOT NULL, course TEXT NOT NULL, ags TEXT,
        created DOUBLE PRECISION NOT NULL);
    CREATE TABLE passbacks (
        jti TEXT PRIMARY KEY, launch_id TEXT NOT NULL REFERENCES launches (id),
        score DOUBLE PRECISION NOT NULL, maximum DOUBLE PRECISION NOT NULL, timestamp TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
        next_try DOUBLE PRECISION NOT NULL, claimed_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        sent DOUBLE PRECISION);
    CREATE INDEX passbacks_due ON passbacks (state, next_try);
    CREATE INDEX passbacks_of_launch ON passbacks (launch_id);
    """,
    # One score per launch: a launch has at most one passback on its way (or sent, or kept); the later
    # passes queued before this rule carry the same score and go. A final refusal says its HTTP status.
    """
    DELETE FROM passbacks WHERE state = 'pending' AND EXISTS (
        SELECT 1 FROM passbacks AS other WHERE other.launch_id = passbacks.launch_id
        AND other.jti <> passbacks.jti
        AND (other.state IN ('sent', 'kept') OR (other.state = 'pending' AND other.jti < passbacks.jti)));
    CREATE UNIQUE INDEX passbacks_one_pending ON passbacks (launch_id) WHERE state = 'pending';
    ALTER TABLE passbacks ADD COLUMN status INTEGER;
    """,
    # The launch's course (LTI context id) and whether a teacher launched it (server/db/tables.py).
    """
    ALTER TABLE launches ADD COLUMN context_id TEXT;
    ALTER TABLE launches ADD COLUMN teacher BOOLEAN NOT NULL DEFAULT false;
    """,
]
MIGRATION_LOCK = 0x6C7469  # PostgreSQL advisory lock id: one process migrates at a time


def private(path: Path) -> None:
    """Make the SQLite file readable by this user only (0600), before SQLite opens it.

    SQLite makes its -wal and -shm files with the database's mode; a file made before this rule (or by
    another umask) is set to 0600 too, with them.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if each.exists() and each.stat().st_mode & 0o077:
            each.chmod(0o600)


class Connection:
    """One connection, either database: execute(sql with ? placeholders, params) -> rows and rowcount."""

    def __init__(self, raw, postgres: bool) -> None:
        self.raw = raw
        self.postgres = postgres

    def execute(self, sql: str, params: tuple = ()) -> "Result":
        if self.postgres:
            cursor = self.raw.execute(sql.replace("?", "%s"), params)
            rows = cursor.fetchall() if cursor.description else []
        else:
            cursor = self.raw.execute(sql, params)
            rows = [dict(r) for r in cursor.fetchall()]
        return Result(rows, cursor.rowcount)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction for the block, writing at once (so two processes take turns)."""
        if self.postgres:
            with self.raw.transaction():
                yield
            return
        self.raw.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.raw.execute("ROLLBACK")
            raise
        self.raw.execute("COMMIT")

    def close(self) -> None:
        self.raw.close()


class Result:
    """The rows a statement gave (as dicts) and how many it changed."""

    def __init__(self, rows: list[dict], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    def one(self) -> dict | None:
        return self.rows[0] if self.rows else None


def close(exception: BaseException | None = None) -> None:
    """Close the connections the app context's statements used (its teardown)."""
    for db in g.pop("lti_connections", {}).values():
        db.close()


class Store:
    """The database a URL names: any thread or process may use it, each with connections of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        if not self.postgres:
            if not url.startswith("sqlite:///"):
                raise ValueError(f"PLAYGROUND_DATABASE_URL={url!r}: use sqlite:///<path> or postgresql://...")
            self.path = Path(url.removeprefix("sqlite:///"))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            private(self.path)
        self.migrate()

    def open(self) -> Connection:
        """A new connection (each statement commits on its own unless in a transaction)."""
        if self.postgres:
            import psycopg  # only where PostgreSQL is used
            from psycopg.rows import dict_row

            return Connection(psycopg.connect(self.url, autocommit=True, row_factory=dict_row), True)
        raw = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        raw.row_factory = sqlite3.Row
        try:
            raw.execute("PRAGMA busy_timeout = 30000")
            raw.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            raw.close()
            raise
        return Connection(raw, False)

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        """The app context's connection to this database (opened on first use, closed by close()); outside
        an app context, a connection for the block."""
        if has_app_context():
            held = g.setdefault("lti_connections", {})
            if self.url not in held:
                held[self.url] = self.open()
            yield held[self.url]
            return
        db = self.open()
        try:
            yield db
        finally:
            db.close()

    def migrate(self) -> None:
        """Apply the migrations this database has not had, in order, once each."""
        with self.connect() as db:
            if not self.postgres:
                db.execute("PRAGMA journal_mode = WAL")
            with db.transaction():
                if self.postgres:
                    db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
                db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
                done = {r["version"] for r in db.execute("SELECT version FROM schema_migrations").rows}
                for version, script in enumerate(MIGRATIONS, start=1):
                    if version in done:
                        continue
                    for statement in filter(str.strip, script.split(";")):
                        db.execute(statement)
                    db.execute("INSERT INTO schema_migrations VALUES (?)", (version,))

    # Registrations
    def add_platform(self, registration: dict, deployment_id: str) -> None:
        """Store (or replace) a platform's registration and add a deployment of it."""
        fields = ("issuer", "client_id", "title", "auth_login_url", "auth_token_url", "key_set_url")
        values = (*(registration[f] for f in fields), registration.get("auth_audience"))
        with self.connect() as db, db.transaction():
            db.execute(
                "INSERT INTO registrations VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (issuer, client_id)"
                " DO UPDATE SET title = excluded.title, auth_login_url = excluded.auth_login_url,"
                " auth_token_url = excluded.auth_token_url, key_set_url = excluded.key_set_url,"
                " auth_audience = excluded.auth_audience",
                values,
            )
            db.execute(
                "INSERT INTO deployments VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (registration["issuer"], registration["client_id"], deployment_id),
            )

    def registrations(self, issuer: str) -> list[dict]:
        """The registrations of an issuer (one per client id)."""
        with self.connect() as db:
            return db.execute("SELECT * FROM registrations WHERE issuer = ?", (issuer,)).rows

    def registration(self, issuer: str, client_id: str) -> dict | None:
        """One registration, or None."""
        with self.connect() as db:
            return db.execute(
                "SELECT * FROM registrations WHERE issuer = ? AND client_id = ?", (issuer, client_id)
            ).one()

    def has_deployment(self, issuer: str, client_id: str | None, deployment_id: str) -> bool:
        """Whether this deployment of the platform was registered."""
        query = "SELECT 1 AS found FROM deployments WHERE issuer = ? AND deployment_id = ?"
        params: tuple = (issuer, deployment_id)
        if client_id is not None:
            query, params = query + " AND client_id = ?", (*params, client_id)
        with self.connect() as db:
            return db.execute(query, params).one() is not None

    # One-time values
    def put(self, key: str, value: object, lifetime_s: float) -> None:
        """Keep a value for lifetime_s seconds."""
        now = time.time()
        with self.connect() as db:
            db.execute("DELETE FROM once WHERE expires < ?", (now,))
            db.execute(
                "INSERT INTO once VALUES (?, ?, ?) ON CONFLICT (key)"
                " DO UPDATE SET value = excluded.value, expires = excluded.expires",
                (key, json.dumps(value), now + lifetime_s),
            )

    def get(self, key: str) -> object:
        """A value kept and not expired, or None."""
        with self.connect() as db:
            row = db.execute(
                "SELECT value FROM once WHERE key = ? AND expires >= ?", (key, time.time())
            ).one()
        return json.loads(row["value"]) if row else None

    def take(self, key: str) -> bool:
        """Remove a value; True if it was there and not expired (so a nonce is good once)."""
        with self.connect() as db:
            return (
                db.execute("DELETE FROM once WHERE key = ? AND expires >= ?", (key, time.time())).rowcount
                == 1
            )

    # Launches
    def add_launch(self, launch: dict) -> None:
        """Remember a launch: who, where, and its grade service."""
        fields = ["id", "issuer", "client_id", "deployment_id", "sub", "resource_link_id", "course"]
        fields.append("created")
        fields += [f for f in ("context_id", "teacher") if f in launch]  # the class view's (a launch's view)
        values = [launch[f] for f in fields] + [json.dumps(launch["ags"]) if launch["ags"] else None]
        with self.connect() as db:
            db.execute(
                f"INSERT INTO launches ({', '.join(fields)}, ags) VALUES ({', '.join('?' * len(values))})",
                tuple(values),
            )

    def launch(self, launch_id: str) -> dict | None:
        """A launch, or None."""
        with self.connect() as db:
            row = db.execute("SELECT * FROM launches WHERE id = ?", (launch_id,)).one()
        return None if row is None else {**row, "ags": json.loads(row["ags"]) if row["ags"] else None}

    # Passbacks
    def add_passback(self, jti: str, launch_id: str, score: float, maximum: float, timestamp: str) -> bool:
        """Queue a score to send, unless the launch has one on its way, sent or kept (one score per
        launch; a failed one may be followed by another); whether it was queued."""
        with self.connect() as db, db.transaction():
            held = db.execute(
                "SELECT 1 AS held FROM passbacks WHERE launch_id = ?"
                " AND state IN ('pending', 'sent', 'kept')",
                (launch_id,),
            ).one()
            if held:
                return False
            return (  # two at once: the unique index of pending rows lets one in
                db.execute(
                    "INSERT INTO passbacks (jti, launch_id, score, maximum, timestamp, state, next_try)"
                    " VALUES (?, ?, ?, ?, ?, 'pending', 0) ON CONFLICT DO NOTHING",
                    (jti, launch_id, score, maximum, timestamp),
                ).rowcount
                == 1
            )

    def claim(self, jti: str, hold_s: float) -> dict | None:
        """Take a pending passback for hold_s seconds (no other process sends it meanwhile), or None."""
        now = time.time()
        with self.connect() as db:
            claimed = db.execute(
                "UPDATE passbacks SET claimed_until = ? WHERE jti = ? AND state = 'pending'"
                " AND claimed_until < ?",
                (now + hold_s, jti, now),
            ).rowcount
            row = db.execute("SELECT * FROM passbacks WHERE jti = ?", (jti,)).one()
        return row if claimed and row else None

    def due(self, now: float | None, issuer: str | None = None, limit: int = 100) -> list[str]:
        """The pending passbacks whose next try has come by now (None: every pending one not claimed),
        of one platform's launches (its issuer) or of all."""
        query = (
            "SELECT p.jti FROM passbacks AS p JOIN launches AS l ON l.id = p.launch_id"
            " WHERE p.state = 'pending' AND p.next_try <= ? AND p.claimed_until < ?"
        )
        params: tuple = (float("inf") if now is None else now, time.time())
        if issuer is not None:
            query, params = query + " AND l.issuer = ?", (*params, issuer)
        with self.connect() as db:
            rows = db.execute(query + " ORDER BY p.next_try LIMIT ?", (*params, limit)).rows
        return [r["jti"] for r in rows]

    def due_platforms(self, now: float | None) -> list[str]:
        """The issuers of the platforms that have a passback due by now (None: any pending one)."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT DISTINCT l.issuer FROM passbacks AS p JOIN launches AS l ON l.id = p.launch_id"
                " WHERE p.state = 'pending' AND p.next_try <= ? AND p.claimed_until < ? ORDER BY l.issuer",
                (float("inf") if now is None else now, time.time()),
            ).rows
        return [r["issuer"] for r in rows]

    def sent(self, jti: str) -> None:
        """Mark a passback delivered."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET state = 'sent', sent = ?, error = NULL, claimed_until = 0"
                " WHERE jti = ?",
                (time.time(), jti),
            )

    def kept(self, jti: str, error: str) -> None:
        """Mark a passback the platform refused for good: it holds a newer grade (409)."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET state = 'kept', attempts = attempts + 1, error = ?, claimed_until = 0"
                " WHERE jti = ?",
                (error[:500], jti),
            )

    def given_up(self, jti: str, error: str, status: int | None) -> None:
        """Mark a passback failed for good: the platform refused it (a 4xx: its status), or its last try
        went unanswered, or there is nothing to send it to; never tried again."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET state = 'failed', attempts = attempts + 1, error = ?, status = ?,"
                " claimed_until = 0 WHERE jti = ?",
                (error[:500], status, jti),
            )

    def retry_now(self, launch_id: str) -> int:
        """Make a launch's pending passbacks due now (the learner's Retry); how many there are."""
        with self.connect() as db:
            return db.execute(
                "UPDATE passbacks SET next_try = 0 WHERE launch_id = ? AND state = 'pending'", (launch_id,)
            ).rowcount

    def failed(self, jti: str, error: str, retry_s: float, status: int | None = None) -> None:
        """Note a failed try (the platform's HTTP status, if it answered); try again after retry_s seconds."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET attempts = attempts + 1, error = ?, status = ?, next_try = ?,"
                " claimed_until = 0 WHERE jti = ?",
                (error[:500], status, time.time() + retry_s, jti),
            )

    def passback(self, jti: str) -> dict | None:
        """A passback, or None."""
        with self.connect() as db:
            return db.execute("SELECT * FROM passbacks WHERE jti = ?", (jti,)).one()

    def passbacks_of(self, launch_id: str) -> list[dict]:
        """A launch's passbacks, oldest first."""
        with self.connect() as db:
            return db.execute(
                "SELECT * FROM passbacks WHERE launch_id = ? ORDER BY timestamp, jti", (launch_id,)
            ).rows
