"""How long the records are kept, and how one learner's are deleted: expire() and forget_learner().

PLAYGROUND_ATTEMPTS_KEEP_DAYS (server/__init__.py: 365 by default, docs/data.md says why) is how long a
Check is kept after it was made. expire() deletes what is older: the Checks and their results, a
learner's row once they have not opened the activity for as long and have no Check left, and the LTI
launches (with their grade passbacks, once sent or given up) as old. It runs at each start and daily
from the queue (a Huey periodic task). forget_learner() deletes one learner's records in one course at
once (a data protection request, a teacher's button): `flask --app server lti forget-learner`. A Check
is written only beside its learner's row (store.py's add_attempt), so none outlives a delete; expire()
deletes any an older version left behind.
docs/data.md says all this for a course's data protection officer.
"""

import logging
import time

from flask import Flask
from huey import crontab
from sqlalchemy import Connection, and_, delete, exists, false, or_, select, update

from server.db import upsert
from server.db.tables import attempts, forgotten_learners, launches, learners, passbacks, results

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
    learner_of_attempt = exists().where(
        learners.c.issuer == attempts.c.issuer,
        learners.c.course == attempts.c.course,
        learners.c.activity == attempts.c.activity,
        learners.c.sub == attempts.c.sub,
    )
    removed = removing(
        conn,
        or_(attempts.c.time < before, ~learner_of_attempt),  # a Check whose learner was deleted: theirs
        and_(learners.c.last_opened < before, ~any_attempt),
        or_(launches.c.created < before, launches.c.forgotten.is_not(None)),  # forgotten: its grade sent
    )
    removed["forgotten_learners"] = conn.execute(
        delete(forgotten_learners).where(forgotten_learners.c.forgotten < before)
    ).rowcount
    if any(removed.values()):
        log.info("records older than %s days deleted: %s", keep_days, removed)
    return sum(removed.values())


def forgetting(conn: Connection, issuer: str, course: str, learner: str) -> dict[str, int]:
    """Delete one learner's records in one course (every activity of it): their learners rows, their
    Checks and results, their launches there; how many rows of each (all 0: no such learner there).

    The learners rows go first: no Check is written without its learner's row (store.add_attempt holds
    it meanwhile on PostgreSQL), so a Check being recorded as this runs is either deleted here or never
    written. A launch of theirs with a grade still to send (earned before the delete) is kept, marked
    forgotten, with that passback only: its page's token is refused from now on (no Check of theirs is
    recorded from a page opened before), and the launch goes once the grade is sent or given up
    (server/lti/passback.py; expire() too). `kept`: how many. Where they had records, a note of their
    pseudonym and when (forgotten_learners: the class view says so, not that they never opened it)."""
    of_learner = (learners.c.issuer == issuer, learners.c.course == course, learners.c.learner == learner)
    subs = list(
        conn.execute(select(learners.c.sub).distinct().where(*of_learner)).scalars()
    )  # before they go
    gone_learners = conn.execute(delete(learners).where(*of_learner)).rowcount
    theirs = and_(launches.c.issuer == issuer, launches.c.context_id == course, launches.c.sub.in_(subs))
    removed = removing(
        conn,
        and_(attempts.c.issuer == issuer, attempts.c.course == course, attempts.c.sub.in_(subs)),
        false(),
        theirs,
    )
    removed["learners"] = gone_learners
    if gone_learners:
        now = time.time()
        note = upsert(conn, forgotten_learners).values(
            issuer=issuer, course=course, learner=learner, forgotten=now
        )
        conn.execute(
            note.on_conflict_do_update(
                index_elements=[
                    forgotten_learners.c.issuer,
                    forgotten_learners.c.course,
                    forgotten_learners.c.learner,
                ],
                set_={"forgotten": now},
            )
        )
    kept = select(launches.c.id).where(theirs)  # those with a grade still to send
    removed["passbacks"] += conn.execute(
        delete(passbacks).where(passbacks.c.launch_id.in_(kept), passbacks.c.state != "pending")
    ).rowcount
    removed["kept"] = conn.execute(
        update(launches).where(theirs, launches.c.forgotten.is_(None)).values(forgotten=time.time())
    ).rowcount
    return removed


def forget_learner(conn: Connection, issuer: str, course: str, learner: str) -> int:
    """Delete one learner's records in one course (their pseudonym's); how many rows in all."""
    removed = forgetting(conn, issuer, course, learner)
    log.info("learner %s of course %s at %s forgotten: %s", learner, course, issuer, removed)
    return sum(count for table, count in removed.items() if table != "kept")


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
