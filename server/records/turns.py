"""The judge's turns: which queued Check a free sandbox judges next, fair per learner.

- One sandbox per learner at a time: a learner's next Check waits for their own one being judged, out of
  everyone else's way.
- Round robin: the learner whose last turn (a Check of theirs judged, or being judged, in the last
  TURNS_WINDOW_S) is oldest goes first, one who had none first of all; a learner's own Checks in the
  order they made them.
- Endless loops last, in a lane of their own: a learner whose latest judged Check ran out of time
  (`timeout`) goes after every other learner waiting, and only while fewer than loops_at_most(slots)
  such learners' Checks are being judged (half the sandboxes, at least one): a loop holds its sandbox
  for the whole time limit, so the others always have the rest, and the loops take what the others
  leave. A learner's first loop is not known for one until it has run out of time.
- A source being judged now: its other Checks wait for that verdict (an endless loop costs its time once).

A Check being judged is a queued one whose `judged` holds when a worker took it (CLAIM_S ago at most).
The choice and the claim are made in one transaction under one lock per database (PostgreSQL's advisory
lock; SQLite's write lock, taken first), so every process of every instance that shares it agrees.
"""

import time
from typing import NamedTuple

from sqlalchemy import Connection, and_, func, or_, select, update

from server.db.tables import attempts
from server.records.store import CLAIM_S

TURNS_WINDOW_S = 600  # a learner's turns this recent count for the order (and their loops for the lane)
QUEUED_AT_MOST = 2000  # queued Checks read for one choice (the oldest): far past the bounds' 200
TURN_LOCK = 0x6A75646765  # PostgreSQL advisory lock id: one choice at a time


class Queued(NamedTuple):
    id: int
    issuer: str
    course: str
    activity: str
    sub: str
    time: float
    source_sha256: str
    rule: str
    judged: float | None


class History(NamedTuple):
    last_turn: float  # when their last Check was judged or taken (0: none in the window)
    looping: bool  # their latest judged Check ran out of time


def loops_at_most(slots: int) -> int:
    """How many Checks of looping learners are judged at once: half the sandboxes, at least one."""
    return max(1, slots // 2)


def lock(conn: Connection) -> None:
    """Take the choice's lock for the transaction (the caller's block commits it)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(TURN_LOCK)))
    else:  # SQLite's write lock, taken by a write that changes nothing: other writers wait for the commit
        conn.execute(update(attempts).where(attempts.c.id == -1).values(judged=None))


def learner(row) -> tuple[str, str, str, str]:
    """Whose Check it is, as the order counts turns: the platform's learner in one activity."""
    return row.issuer, row.course, row.activity, row.sub


def histories(conn: Connection, since: float) -> dict[tuple[str, str, str, str], History]:
    """Each learner with a queued Check: their last turn and whether they loop, from their Checks made
    since `since` (read through the index of each learner's Checks)."""
    waiting = (
        select(attempts.c.issuer, attempts.c.course, attempts.c.activity, attempts.c.sub)
        .where(attempts.c.state == "queued")
        .distinct()
        .subquery()
    )
    theirs = and_(*(attempts.c[name] == waiting.c[name] for name in ("issuer", "course", "activity", "sub")))
    timeout = and_(attempts.c.state == "judged", attempts.c.mistake == "timeout")
    other = and_(
        attempts.c.state == "judged", or_(attempts.c.mistake.is_(None), attempts.c.mistake != "timeout")
    )
    rows = conn.execute(
        select(
            waiting.c.issuer,
            waiting.c.course,
            waiting.c.activity,
            waiting.c.sub,
            func.max(attempts.c.judged),
            func.max(attempts.c.time).filter(timeout),
            func.max(attempts.c.time).filter(other),
        )
        .select_from(waiting.join(attempts, and_(theirs, attempts.c.time > since)))
        .group_by(waiting.c.issuer, waiting.c.course, waiting.c.activity, waiting.c.sub)
    )
    return {
        (issuer, course, activity, sub): History(last or 0.0, loop is not None and (ok is None or loop > ok))
        for issuer, course, activity, sub, last, loop, ok in rows
    }


def next_turn(conn: Connection, loops: int) -> int | None:
    """Take the queued Check whose turn it is (its id), or None when none may be judged now: none waits,
    or each waits for its learner's own Check or its source's verdict, or for the loops' lane."""
    lock(conn)
    now = time.time()
    queued = [
        Queued(*row)
        for row in conn.execute(
            select(*(attempts.c[name] for name in Queued._fields))
            .where(attempts.c.state == "queued")
            .order_by(attempts.c.time)
            .limit(QUEUED_AT_MOST)
        )
    ]
    running = [q for q in queued if q.judged is not None and q.judged > now - CLAIM_S]
    waiting = [q for q in queued if q not in running]
    if not waiting:
        return None
    history = histories(conn, now - TURNS_WINDOW_S)
    none = History(0.0, False)

    def looping(q: Queued) -> bool:
        return history.get(learner(q), none).looping

    busy = {(q.issuer, q.sub) for q in running}
    judging = {(q.source_sha256, q.rule) for q in running}
    lane_full = sum(map(looping, running)) >= loops
    free = [
        q
        for q in waiting
        if (q.issuer, q.sub) not in busy
        and (q.source_sha256, q.rule) not in judging
        and not (lane_full and looping(q))
    ]
    if not free:
        return None
    turn = min(free, key=lambda q: (looping(q), history.get(learner(q), none).last_turn, q.time, q.id))
    conn.execute(update(attempts).where(attempts.c.id == turn.id).values(judged=now))
    return turn.id


def waiting(conn: Connection) -> bool:
    """Whether a queued Check waits with no worker on it."""
    now = time.time()
    found = select(attempts.c.id).where(
        attempts.c.state == "queued", or_(attempts.c.judged.is_(None), attempts.c.judged <= now - CLAIM_S)
    )
    return conn.execute(found.limit(1)).first() is not None


def judging(conn: Connection) -> int:
    """How many Checks workers are judging now."""
    taken = and_(attempts.c.state == "queued", attempts.c.judged > time.time() - CLAIM_S)
    return int(conn.execute(select(func.count()).where(taken)).scalar_one())


def let_go(conn: Connection, attempt_id: int, after_s: float) -> None:
    """Give a taken Check back, to be taken again after after_s (its sandbox could not run it)."""
    conn.execute(
        update(attempts)
        .where(attempts.c.id == attempt_id, attempts.c.state == "queued")
        .values(judged=time.time() - CLAIM_S + after_s)
    )
