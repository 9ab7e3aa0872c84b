"""The roster the class view shows: the one last read from the LMS, kept in the database (the rosters
table, which every process shares), and read again by a task on the queue, never inside a request.

A class view shows the kept roster and when it was read (or that it is being read, or why it could not
be), and, when the kept one is older than ROSTER_S (or the last try failed more than RETRY_S ago) and
no fetch is under way, claims the activity's row (claimed_until, one UPDATE: one claim in every process)
and enqueues one fetch (roster.py's) for it. The fetch, on the queue, writes what it read, or why it
failed, and frees the claim; a claim whose task died is free again after CLAIM_S. A roster whose last
fetch is more than KEEP_S old is deleted (by the hourly task, and by each fetch).
"""

import json
import time
from dataclasses import dataclass, field

from flask import Flask, current_app
from huey import crontab
from sqlalchemy import Connection, and_, delete, or_, select, update

from server.classview import roster
from server.db import database, upsert
from server.db.tables import rosters

ROSTER_S = 300  # a roster this old is read again at the next class view (it is shown meanwhile)
RETRY_S = 30  # a failed fetch is tried again this long after it, at the next class view
CLAIM_S = 120  # a fetch (a minute at most) not done by then has died: its activity may be claimed again
KEEP_S = 86400  # a roster whose last fetch is older than this is deleted


@dataclass(frozen=True)
class Roster:
    """What the class view knows of the course's members: the last roster read (fetched: when; None: none
    yet), whether a fetch is under way, and why the last one failed (error, None when it did not)."""

    members: list[dict] = field(default_factory=list)
    fetched: float | None = None
    fetching: bool = False
    error: str | None = None


def of_activity(issuer: str, course: str, activity: str):
    return and_(rosters.c.issuer == issuer, rosters.c.course == course, rosters.c.activity == activity)


def due(now: float):
    """The rows whose roster should be read again, with no fetch under way."""
    return and_(
        rosters.c.claimed_until < now,
        or_(
            rosters.c.tried.is_(None),
            and_(rosters.c.error.is_(None), rosters.c.tried < now - ROSTER_S),
            and_(rosters.c.error.is_not(None), rosters.c.tried < now - RETRY_S),
        ),
    )


def claim(conn: Connection, issuer: str, course: str, activity: str, now: float) -> bool:
    """Claim the activity's fetch if it is due and none is under way (True: this caller enqueues it)."""
    key = {"issuer": issuer, "course": course, "activity": activity}
    conn.execute(upsert(conn, rosters).values(key).on_conflict_do_nothing())
    claimed = update(rosters).where(of_activity(issuer, course, activity), due(now))
    return conn.execute(claimed.values(claimed_until=now + CLAIM_S)).rowcount == 1


def roster_of(view: dict) -> Roster:
    """The class view's roster of view's activity, at once: the kept one, a fetch enqueued when due."""
    issuer, course, activity = view["issuer"], view["course"], view["activity"]
    now = time.time()
    with database().connect() as conn:
        enqueue = claim(conn, issuer, course, activity, now)
        row = conn.execute(select(rosters).where(of_activity(issuer, course, activity))).mappings().one()
    if enqueue:
        current_app.extensions["classview"]["fetch_roster"](
            issuer, course, activity, view["client_id"], view["memberships"]
        )
    return Roster(
        members=json.loads(row["members"]) if row["members"] is not None else [],
        fetched=row["fetched"],
        fetching=enqueue or row["claimed_until"] >= now,
        error=row["error"],
    )


def fetch_roster(issuer: str, course: str, activity: str, client_id: str, memberships_url: str) -> None:
    """The queue's task: read the activity's roster from the LMS, keep it (or why not), free the claim."""
    try:
        members, error = roster.fetch(issuer, client_id, memberships_url, activity), None
    except roster.RosterError as exc:
        members, error = None, str(exc)
        current_app.logger.warning("roster of %s %s %s: %s", issuer, course, activity, error)
    now = time.time()
    done = {"error": error, "tried": now, "claimed_until": 0.0}
    if members is not None:
        done |= {"members": json.dumps(members), "fetched": now}
    with database().connect() as conn:
        conn.execute(update(rosters).where(of_activity(issuer, course, activity)).values(done))
        forget_old(conn, now)


def forget_old(conn: Connection, now: float) -> int:
    """Delete the rosters whose last fetch is more than KEEP_S old, and the members read more than KEEP_S
    ago; how many rows."""
    old = and_(rosters.c.claimed_until < now, or_(rosters.c.tried.is_(None), rosters.c.tried < now - KEEP_S))
    stale = update(rosters).where(rosters.c.fetched < now - KEEP_S).values(members=None, fetched=None)
    return conn.execute(delete(rosters).where(old)).rowcount + conn.execute(stale).rowcount


def forget_old_rosters() -> int:
    """The hourly task: forget_old on the app's database."""
    with database().connect() as conn:
        return forget_old(conn, time.time())


def init_app(app: Flask) -> None:
    """The roster's tasks on the app's queue (LTI on: create_app has opened the database and the queue)."""
    tasks = app.extensions["queue"]
    app.extensions["classview"] = {"fetch_roster": tasks.task()(fetch_roster)}
    tasks.periodic(crontab(minute="41"))(forget_old_rosters)
