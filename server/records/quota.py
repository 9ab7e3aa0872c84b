"""What one learner keeps: their Checks, and the bytes of code those keep, per window and in all.

Counted in the database, which every process of the instance (and every instance that shares it) sees,
one learner's records at a time (hold(): the next record of the same learner waits for this one's
commit), so four gunicorn processes keep no more than one would. A learner is an LMS's (or a course's
tokens') `sub`, in all their courses there. The settings are DEFAULTS' (server/records/__init__.py), said
in docs/data.md:

- a window (RECORD_RATE_WINDOW_S): at most RECORD_RATE_LIMIT Checks and RECORD_RATE_BYTES bytes of code
  kept; a Check past either is a 429 that says when the window has room (refused());
- in all (what retention keeps): at most RECORD_BYTES_KEPT bytes of code; past it a Check keeps its row,
  `skipped` and never judged, without its code (a pass /verify judged keeps its code nonetheless: a pass
  is never lost); and at most RECORDS_KEPT Checks: past it, a 429 until the oldest expires. /verify's
  Checks count toward every bound but are never refused for them.

A Check that is not judged from its code (skipped, or judged already by /verify) keeps its code only when
it is worth keeping (keeps_code()): not when the learner has the same code (its SHA-256) kept in the
same activity, which the class view and the export show beside it.
"""

import math
import time
import zlib
from dataclasses import dataclass

from flask import Config
from sqlalchemy import Connection, and_, func, select

from server.db.tables import attempts

LOCKS = 0x726563  # PostgreSQL's advisory locks (LOCKS, a learner's hash): one learner's records at a time
DAY_S = 86400


@dataclass(frozen=True)
class Bounds:
    """The settings' bounds on what one learner keeps."""

    window_s: float
    window_checks: int
    window_bytes: int
    checks: int
    bytes: int
    keep_days: float

    @classmethod
    def of(cls, config: Config) -> "Bounds":
        return cls(
            window_s=float(config["RECORD_RATE_WINDOW_S"]),
            window_checks=int(config["RECORD_RATE_LIMIT"]),
            window_bytes=int(config["RECORD_RATE_BYTES"]),
            checks=int(config["RECORDS_KEPT"]),
            bytes=int(config["RECORD_BYTES_KEPT"]),
            keep_days=float(config["ATTEMPTS_KEEP_DAYS"]),
        )


@dataclass(frozen=True)
class Kept:
    """What a learner keeps now: in the window (Checks, bytes of code, the oldest's time) and in all."""

    window_checks: int
    window_bytes: int
    window_oldest: float | None
    checks: int
    bytes: int
    oldest: float | None


def size(source: str) -> int:
    """The bytes a source keeps: its UTF-8."""
    return len(source.encode("utf-8", "surrogatepass"))


def hold(conn: Connection, issuer: str, sub: str) -> None:
    """Take the learner's records until the transaction ends: another process recording the same learner
    waits here (PostgreSQL: an advisory lock; SQLite: the database's write lock, taken now rather than at
    the first write, so what is counted next is what the write will add to)."""
    if conn.dialect.name == "postgresql":
        key = zlib.crc32(f"{issuer}\n{sub}".encode()) - 2**31  # an int4, as the two-key lock takes
        conn.execute(select(func.pg_advisory_xact_lock(LOCKS, key)))
    elif not conn.connection.dbapi_connection.in_transaction:  # one already writing holds the lock
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def kept(conn: Connection, issuer: str, sub: str, since: float) -> Kept:
    """What the learner keeps: since `since` (the window) and in all (from attempts_of_learner alone)."""
    recent = attempts.c.time >= since
    row = conn.execute(
        select(
            func.count().filter(recent),
            func.coalesce(func.sum(attempts.c.source_bytes).filter(recent), 0),
            func.min(attempts.c.time).filter(recent),
            func.count(),
            func.coalesce(func.sum(attempts.c.source_bytes), 0),
            func.min(attempts.c.time),
        ).where(attempts.c.issuer == issuer, attempts.c.sub == sub)
    ).one()
    return Kept(int(row[0]), int(row[1]), row[2], int(row[3]), int(row[4]), row[5])


def identical(conn: Connection, issuer: str, course: str, activity: str, sub: str, sha256: str) -> bool:
    """Whether the learner keeps this code (by its SHA-256) in the activity already."""
    found = select(attempts.c.id).where(
        and_(
            attempts.c.source_sha256 == sha256,
            attempts.c.issuer == issuer,
            attempts.c.course == course,
            attempts.c.activity == activity,
            attempts.c.sub == sub,
            attempts.c.source.is_not(None),
        )
    )
    return conn.execute(found.limit(1)).first() is not None


def keeps_code(bounds: Bounds, now: Kept, source_bytes: int, same_kept: bool, passed: bool) -> bool:
    """Whether a Check not judged from its code keeps it: not the same code again; within the bytes in
    all, unless it is a pass."""
    return not same_kept and (passed or now.bytes + source_bytes <= bounds.bytes)


def refused(bounds: Bounds, now: Kept, source_bytes: int, at: float) -> tuple[int, bool] | None:
    """None when the learner may record a Check that keeps source_bytes of code now; else the whole
    seconds until they may, and whether it is the bound in all (until the oldest Check expires) rather
    than the window's (until its oldest Check leaves it)."""
    if now.checks >= bounds.checks:
        return wait(now.oldest + bounds.keep_days * DAY_S - at if now.oldest is not None else DAY_S), True
    if now.window_checks >= bounds.window_checks or now.window_bytes + source_bytes > bounds.window_bytes:
        oldest = now.window_oldest if now.window_oldest is not None else at
        return wait(oldest + bounds.window_s - at), False
    return None


def wait(seconds: float) -> int:
    """Whole seconds to wait, at least 1."""
    return max(1, math.ceil(seconds))


def learner_now(conn: Connection, bounds: Bounds, issuer: str, sub: str) -> tuple[Kept, float]:
    """Hold the learner's records, and say what they keep now, and when now is."""
    hold(conn, issuer, sub)
    at = time.time()
    return kept(conn, issuer, sub, at - bounds.window_s), at
