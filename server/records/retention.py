"""How long the records are kept, and how one learner's are deleted: expire() and forget_learner().

PLAYGROUND_ATTEMPTS_KEEP_DAYS (server/__init__.py: 365 by default, docs/data.md says why) is how long a
Check is kept after it was made. expire() deletes what is older: the Checks and their results, a
learner's row once they have not opened the activity for as long and have no Check left, and the LTI
launches (with their grade passbacks, once sent or given up) as old. It runs at each start and daily
from the queue (a Huey periodic task). forget_learner() deletes one learner's records in one course at
once (a data protection request, a teacher's button): `flask --app server lti forget-learner`.
docs/data.md says all this for a course's data protection officer.
"""

import logging
import time

from flask import Flask
from huey import crontab
from sqlalchemy import Connection, and_, delete, exists, select

from server.db.tables import attempts, launches, learners, passbacks, results

log = logging.getLogger(__name__)
DAY_S = 86400
DAILY = crontab(minute="17", hour="3")  # in UTC, as Huey keeps time


def removing(conn: Connection, which_attempts, which_learners, which_launches) -> dict[str, int]:
    """Delete the attempts (their results first), the learners rows and the launches (their passbacks
    first; never one with a grade still to send) the conditions pick; how many rows of each."""
    unsent = exists().where(passbacks.c.launch_id == launches.c.id, passbacks.c.state == "pending")
    gone_launches = select(launches.c.id).where(which_launches, ~unsent)
    gone_attempts = select(attempts.c.id).where(which_attempts)
    removed = {
        "results": conn.execute(delete(results).where(results.c.attempt_id.in_(gone_attempts))).rowcount,
        "attempts": conn.execute(delete(attempts).where(which_attempts)).rowcount,
        "learners": conn.execute(delete(learners).where(which_learners)).rowcount,
        "passbacks": conn.execute(delete(passbacks).where(passbacks.c.launch_id.in_(gone_launches))).rowcount,
    }
    removed["launches"] = conn.execute(delete(launches).where(which_launches, ~unsent)).rowcount
    return removed


def expire(conn: Connection, keep_days: float, now: float | None = None) -> int:
    """Delete every record older than keep_days (see the module's docstring); how many rows in all."""
    before = (time.time() if now is None else now) - keep_days * DAY_S
    any_attempt = exists().where(
        attempts.c.issuer == learners.c.issuer,
        attempts.c.course == learners.c.course,
        attempts.c.activity == learners.c.activity,
        attempts.c.sub == learners.c.sub,
    )
    removed = removing(
        conn,
        attempts.c.time < before,
        and_(learners.c.last_opened < before, ~any_attempt),
        launches.c.created < before,
    )
    if any(removed.values()):
        log.info("records older than %s days deleted: %s", keep_days, removed)
    return sum(removed.values())


def forgetting(conn: Connection, issuer: str, course: str, learner: str) -> dict[str, int]:
    """Delete one learner's records in one course (every activity of it): their Checks and results,
    their learners rows, their launches there; how many rows of each (all 0: no such learner there)."""
    of_learner = (learners.c.issuer == issuer, learners.c.course == course, learners.c.learner == learner)
    subs = list(
        conn.execute(select(learners.c.sub).distinct().where(*of_learner)).scalars()
    )  # before they go
    return removing(
        conn,
        and_(attempts.c.issuer == issuer, attempts.c.course == course, attempts.c.sub.in_(subs)),
        and_(*of_learner),
        and_(launches.c.issuer == issuer, launches.c.context_id == course, launches.c.sub.in_(subs)),
    )


def forget_learner(conn: Connection, issuer: str, course: str, learner: str) -> int:
    """Delete one learner's records in one course (their pseudonym's); how many rows in all."""
    removed = forgetting(conn, issuer, course, learner)
    log.info("learner %s of course %s at %s forgotten: %s", learner, course, issuer, removed)
    return sum(removed.values())


def keep_days(app: Flask) -> float:
    """PLAYGROUND_ATTEMPTS_KEEP_DAYS, checked: a number of days above 0."""
    value = app.config["ATTEMPTS_KEEP_DAYS"]
    try:
        days = float(value)
    except (TypeError, ValueError):
        days = 0.0
    if not days > 0:
        raise ValueError(f"PLAYGROUND_ATTEMPTS_KEEP_DAYS must be a number of days above 0, not {value!r}")
    return days


def expire_now(app: Flask) -> int:
    """Run expire() on the app's database, in an app context of its own."""
    from server.db import database

    with app.app_context(), database().connect() as conn:
        return expire(conn, keep_days(app))


def init_app(app: Flask) -> None:
    """Expire the old records now (with the database), and every day at 03:17 UTC from the queue (Huey's
    periodic task: each process whose consumer runs enqueues it; a second run finds nothing to delete)."""
    keep_days(app)  # a bad value stops the start, named
    if "queue" in app.extensions:

        def expire_records() -> int:
            return expire_now(app)

        daily = app.extensions["queue"].huey.periodic_task(DAILY, name="expire_records")
        app.extensions["records_expiry"] = daily(expire_records)
    if "db" in app.extensions:
        expire_now(app)
