"""The LTI state in a database: registrations, one-time values (nonces, states), launches, passbacks.

SQLite in the instance folder by default (Python's sqlite3: nothing to start). Its schema is made
and brought up to date by MIGRATIONS, in order, each once (`PRAGMA user_version` counts them).
"""

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

MIGRATIONS = [
    """
    CREATE TABLE registrations (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, title TEXT NOT NULL,
        auth_login_url TEXT NOT NULL, auth_token_url TEXT NOT NULL, key_set_url TEXT NOT NULL,
        auth_audience TEXT, PRIMARY KEY (issuer, client_id));
    CREATE TABLE deployments (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        PRIMARY KEY (issuer, client_id, deployment_id));
    CREATE TABLE once (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL);
    CREATE TABLE launches (
        id TEXT PRIMARY KEY, issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        sub TEXT NOT NULL, resource_link_id TEXT NOT NULL, course TEXT NOT NULL, ags TEXT,
        created REAL NOT NULL);
    CREATE TABLE passbacks (
        jti TEXT PRIMARY KEY, launch_id TEXT NOT NULL REFERENCES launches (id),
        score REAL NOT NULL, maximum REAL NOT NULL, timestamp TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
        next_try REAL NOT NULL, claimed_until REAL NOT NULL DEFAULT 0, sent REAL);
    CREATE INDEX passbacks_due ON passbacks (state, next_try);
    """,
]


class Store:
    """One SQLite file; a connection per call, so any thread or process may use it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self.connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for the block, committed at its end (rolled back on an error)."""
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            db.execute("PRAGMA busy_timeout = 30000")
            yield db
        finally:
            db.close()

    # Registrations
    def add_platform(self, registration: dict, deployment_id: str) -> None:
        """Store (or replace) a platform's registration and add a deployment of it."""
        fields = ("issuer", "client_id", "title", "auth_login_url", "auth_token_url", "key_set_url")
        values = [registration[f] for f in fields] + [registration.get("auth_audience")]
        with self.connect() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT OR REPLACE INTO registrations VALUES (?, ?, ?, ?, ?, ?, ?)",
                values,
            )
            db.execute(
                "INSERT OR IGNORE INTO deployments VALUES (?, ?, ?)",
                (registration["issuer"], registration["client_id"], deployment_id),
            )
            db.execute("COMMIT")

    def registrations(self, issuer: str) -> list[dict]:
        """The registrations of an issuer (one per client id)."""
        with self.connect() as db:
            rows = db.execute("SELECT * FROM registrations WHERE issuer = ?", (issuer,)).fetchall()
        return [dict(r) for r in rows]

    def registration(self, issuer: str, client_id: str) -> dict | None:
        """One registration, or None."""
        with self.connect() as db:
            row = db.execute(
                "SELECT * FROM registrations WHERE issuer = ? AND client_id = ?", (issuer, client_id)
            ).fetchone()
        return dict(row) if row else None

    def has_deployment(self, issuer: str, client_id: str | None, deployment_id: str) -> bool:
        """Whether this deployment of the platform was registered."""
        query = "SELECT 1 FROM deployments WHERE issuer = ? AND deployment_id = ?"
        params: tuple = (issuer, deployment_id)
        if client_id is not None:
            query, params = query + " AND client_id = ?", (*params, client_id)
        with self.connect() as db:
            return db.execute(query, params).fetchone() is not None

    # One-time values
    def put(self, key: str, value: object, lifetime_s: float) -> None:
        """Keep a value for lifetime_s seconds."""
        now = time.time()
        with self.connect() as db:
            db.execute("DELETE FROM once WHERE expires < ?", (now,))
            db.execute(
                "INSERT OR REPLACE INTO once VALUES (?, ?, ?)", (key, json.dumps(value), now + lifetime_s)
            )

    def get(self, key: str) -> object:
        """A value kept and not expired, or None."""
        with self.connect() as db:
            row = db.execute(
                "SELECT value FROM once WHERE key = ? AND expires >= ?", (key, time.time())
            ).fetchone()
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
        with self.connect() as db:
            db.execute(
                "INSERT INTO launches VALUES (:id, :issuer, :client_id, :deployment_id, :sub,"
                " :resource_link_id, :course, :ags, :created)",
                {**launch, "ags": json.dumps(launch["ags"]) if launch["ags"] else None},
            )

    def launch(self, launch_id: str) -> dict | None:
        """A launch, or None."""
        with self.connect() as db:
            row = db.execute("SELECT * FROM launches WHERE id = ?", (launch_id,)).fetchone()
        if row is None:
            return None
        return {**dict(row), "ags": json.loads(row["ags"]) if row["ags"] else None}

    # Passbacks
    def add_passback(self, jti: str, launch_id: str, score: float, maximum: float, timestamp: str) -> None:
        """Queue a score to send (once per receipt: its jti)."""
        with self.connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO passbacks (jti, launch_id, score, maximum, timestamp, state, next_try)"
                " VALUES (?, ?, ?, ?, ?, 'pending', 0)",
                (jti, launch_id, score, maximum, timestamp),
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
            row = db.execute("SELECT * FROM passbacks WHERE jti = ?", (jti,)).fetchone()
        return dict(row) if claimed and row else None

    def due(self, now: float | None, limit: int = 100) -> list[str]:
        """The pending passbacks whose next try has come by now (None: every pending one not claimed)."""
        claimed = time.time()
        with self.connect() as db:
            rows = db.execute(
                "SELECT jti FROM passbacks WHERE state = 'pending' AND next_try <= ? AND claimed_until < ?"
                " ORDER BY next_try LIMIT ?",
                (float("inf") if now is None else now, claimed, limit),
            ).fetchall()
        return [r["jti"] for r in rows]

    def sent(self, jti: str) -> None:
        """Mark a passback delivered."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET state = 'sent', sent = ?, error = NULL, claimed_until = 0"
                " WHERE jti = ?",
                (time.time(), jti),
            )

    def failed(self, jti: str, error: str, retry_s: float) -> None:
        """Note a failed try; try again after retry_s seconds."""
        with self.connect() as db:
            db.execute(
                "UPDATE passbacks SET attempts = attempts + 1, error = ?, next_try = ?, claimed_until = 0"
                " WHERE jti = ?",
                (error[:500], time.time() + retry_s, jti),
            )

    def passback(self, jti: str) -> dict | None:
        """A passback, or None."""
        with self.connect() as db:
            row = db.execute("SELECT * FROM passbacks WHERE jti = ?", (jti,)).fetchone()
        return dict(row) if row else None

    def passbacks_of(self, launch_id: str) -> list[dict]:
        """A launch's passbacks, newest last."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM passbacks WHERE launch_id = ? ORDER BY rowid", (launch_id,)
            ).fetchall()
        return [dict(r) for r in rows]
