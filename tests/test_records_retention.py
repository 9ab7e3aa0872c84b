"""How long the records are kept and how one learner's are deleted (server/records/retention.py): expire()
deletes only what is older than PLAYGROUND_ATTEMPTS_KEEP_DAYS, at start and daily from the queue;
forget_learner() and `flask --app server lti forget-learner` delete one learner in one course only; on
SQLite and PostgreSQL."""

import threading
import time
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select, update

from server import create_app
from server.db import init_app as open_database
from server.db.tables import launches, passbacks
from server.lti.store import Store
from server.queue import TaskQueue
from server.records import store
from server.records.export import attempt_rows
from server.records.retention import expire, forget_learner, forgetting, init_app
from tests.support import class_records
from tests.support.class_records import DAY_S, ISSUER, checked, counts, launched, opened

database = class_records.database  # the fixture (its PostgreSQL server: conftest.py's postgres)
NOW = time.time()
RIGHT = {"neuron": (True, None), "reuse": (True, None), "chain": (True, None)}
CODE = "def backward(out):\n    pass\n"


def an_old_and_a_new_term(conn) -> None:
    """Ann made Checks 400 days ago and last opened the activity then; Ben opened it 400 days ago and made
    Checks 400 and 10 days ago; Cal opened it 400 days ago and made none. Each has a launch as old."""
    for sub in ("ann", "ben", "cal"):
        opened(conn, sub, when=NOW - 400 * DAY_S)
    checked(conn, "ann", CODE, passed=False, mistake="nothing", expressions=RIGHT, when=NOW - 400 * DAY_S)
    checked(conn, "ben", CODE, passed=False, mistake="nothing", expressions=RIGHT, when=NOW - 400 * DAY_S)
    checked(conn, "ben", CODE, passed=True, expressions=RIGHT, when=NOW - 10 * DAY_S)
    launched(conn, "old-sent", "ann", when=NOW - 400 * DAY_S, passback="sent")
    launched(conn, "old-pending", "ben", when=NOW - 400 * DAY_S, passback="pending")  # a grade still to send
    launched(conn, "new", "ben", when=NOW - 10 * DAY_S, passback="sent")


def test_expire_deletes_only_what_is_older_than_the_days_kept(database):
    with database.connect() as conn:
        an_old_and_a_new_term(conn)
        assert counts(conn) == {"attempts": 3, "results": 9, "learners": 3, "launches": 3, "passbacks": 3}
        removed = expire(conn, 365, now=NOW)
        left = [(r["sub"], r["passed"]) for r in attempt_rows(conn)]
        after = counts(conn)
        assert expire(conn, 365, now=NOW) == 0  # once is enough
    assert left == [("ben", True)]  # the Check of 10 days ago
    # Ann's and Cal's rows go (nothing left of them); Ben's stays beside his new Check; the old launch
    # with its grade sent goes, the one with a grade still to send stays, the new one stays.
    assert after == {"attempts": 1, "results": 3, "learners": 1, "launches": 2, "passbacks": 2}
    assert removed == 2 + 6 + 2 + 1 + 1


def test_a_shorter_keep_deletes_more_and_a_learner_who_came_back_keeps_their_row(database):
    with database.connect() as conn:
        an_old_and_a_new_term(conn)
        opened(conn, "ann", activity="link-2", when=NOW - DAY_S)  # Ann opened another activity yesterday
        expire(conn, 5, now=NOW)
        after = counts(conn)
    assert after == {"attempts": 0, "results": 0, "learners": 1, "launches": 1, "passbacks": 1}


def two_courses(conn) -> None:
    """Ann in two activities of course-1 and in course-2, Ben in course-1; each with Checks and a launch."""
    for course, activity, sub in [
        ("course-1", "link-1", "ann"),
        ("course-1", "link-2", "ann"),
        ("course-2", "link-1", "ann"),
        ("course-1", "link-1", "ben"),
    ]:
        opened(conn, sub, course=course, activity=activity)
        checked(conn, sub, CODE, passed=True, expressions=RIGHT, course=course, activity=activity)
        checked(conn, sub, CODE, passed=False, mistake="nothing", course=course, activity=activity)
        launched(conn, f"{course}-{activity}-{sub}", sub, course=course, passback="sent")


def test_forget_learner_deletes_that_learner_in_that_course_only(database):
    with database.connect() as conn:
        two_courses(conn)
        removed = forget_learner(conn, ISSUER, "course-1", "p-ann")
        left = {(r["course"], r["activity"], r["learner"]) for r in attempt_rows(conn)}
        after = counts(conn)
        assert forget_learner(conn, ISSUER, "course-1", "p-ann") == 0
        assert forget_learner(conn, "https://other.example.edu", "course-2", "p-ann") == 0
    assert left == {("course-2", "link-1", "p-ann"), ("course-1", "link-1", "p-ben")}
    assert after == {"attempts": 4, "results": 6, "learners": 2, "launches": 2, "passbacks": 2}
    assert removed == 4 + 6 + 2 + 2 + 2  # Checks, results, learners rows, launches, passbacks


def app_on(database) -> object:
    app = create_app({"TESTING": True, "DATABASE_URL": database.url})
    if "db" not in app.extensions:  # until create_app opens the database itself (server/db)
        open_database(app)
    return app


def test_the_command_deletes_one_learner_says_what_and_refuses_an_unknown_one(database):
    with database.connect() as conn:
        two_courses(conn)
    runner = app_on(database).test_cli_runner()
    done = runner.invoke(args=["lti", "forget-learner", "--course", "course-1", "--learner", "p-ann"])
    assert done.exit_code == 0, done.output
    assert done.output == (
        f"Deleted learner p-ann of course 'course-1' at {ISSUER}: Checks 4, expression results 6,"
        " learner rows 2 (one per activity opened), launches 2, grade passbacks 2.\n"
    )
    again = runner.invoke(args=["lti", "forget-learner", "--course", "course-1", "--learner", "p-ann"])
    assert again.exit_code == 1 and "no learner p-ann in course 'course-1': nothing deleted" in again.output
    with database.connect() as conn:
        assert counts(conn)["attempts"] == 4


def test_expiry_runs_at_start_and_daily_from_the_queue(database, tmp_path):
    with database.connect() as conn:
        an_old_and_a_new_term(conn)
    app = app_on(database)
    app.config["ATTEMPTS_KEEP_DAYS"] = 30
    app.extensions["queue"] = TaskQueue(app, f"sqlite:///{tmp_path / 'db.sqlite3'}")
    init_app(app)  # as create_app does, with the database and the queue there
    with database.connect() as conn:
        assert counts(conn)["attempts"] == 1  # at start
        checked(conn, "ben", CODE, passed=False, mistake="nothing", when=NOW - 40 * DAY_S)
    huey, task = app.extensions["queue"].huey, app.extensions["records_expiry"]
    two_days = [datetime(2026, 12, 5) + timedelta(minutes=m) for m in range(2 * 24 * 60)]
    due = [(at, huey.read_periodic(at)) for at in two_days]  # what the consumer's scheduler asks each minute
    fired = [(at.day, at.hour) for at, tasks in due for each in tasks if each.name == task.name]
    assert fired == [(5, 3), (6, 3)]  # once a day, at night
    assert task.call_local() == 1  # what the consumer runs: the Check of 40 days ago goes
    with database.connect() as conn:
        assert counts(conn)["attempts"] == 1


@pytest.mark.parametrize("days", ["0", "-3", "a year"])
def test_a_keep_that_is_not_a_number_of_days_stops_the_start_named(days):
    with pytest.raises(
        ValueError, match=f"PLAYGROUND_ATTEMPTS_KEEP_DAYS must be a number of days above 0, not '{days}'"
    ):
        create_app({"TESTING": True, "ATTEMPTS_KEEP_DAYS": days})


def test_a_launch_with_a_grade_still_to_send_is_kept_forgotten_until_it_is_sent(database):
    """Deleted, a learner's launch whose grade (earned before) waits for the LMS stays, marked forgotten,
    with that passback only; once the grade is done with, the launch goes (its sender, or expiry)."""
    with database.connect() as conn:
        opened(conn, "ann")
        checked(conn, "ann", CODE, passed=True, expressions=RIGHT)
        launched(conn, "sent", "ann", passback="sent")
        launched(conn, "waiting", "ann", passback="pending")
        launched(conn, "also-waiting", "ann", passback="pending")
        removed = forgetting(conn, ISSUER, "course-1", "p-ann")
        left = {row.id: row.forgotten for row in conn.execute(select(launches.c.id, launches.c.forgotten))}
    assert removed == {"results": 3, "attempts": 1, "learners": 1, "passbacks": 1, "launches": 1, "kept": 2}
    assert set(left) == {"waiting", "also-waiting"} and all(left.values())
    store = Store(database)
    assert store.live_launch("waiting") is None and store.launch("waiting") is not None  # its grade's
    assert store.drop_if_forgotten("waiting") is False  # still to send
    store.sent("jti-waiting")
    assert store.drop_if_forgotten("waiting") is True and store.launch("waiting") is None
    with database.connect() as conn:
        conn.execute(update(passbacks).values(state="failed"))  # the other one given up, its launch left
        assert expire(conn, 365) == 2  # the launch and its passback, though only minutes old
        assert counts(conn) == dict.fromkeys(("attempts", "results", "learners", "launches", "passbacks"), 0)


def test_no_check_is_written_without_its_learner_and_expiry_deletes_those_left(database):
    """add_attempt writes a Check only beside its learner's row; a Check an older version left behind
    without one (a deleted learner's) is deleted at the next expiry, and never exported meanwhile."""
    with database.connect() as conn:
        assert store.add_attempt(conn, ISSUER, "course-1", "link-1", "ann", CODE, "seed") is None
        opened(conn, "ben")
        assert store.add_attempt(conn, ISSUER, "course-1", "link-1", "ben", CODE, "seed") is not None
        checked(conn, "gone", CODE, passed=False, mistake="nothing", expressions=RIGHT)  # no learner row
        assert [row["learner"] for row in attempt_rows(conn)] == ["p-ben"]
        assert expire(conn, 365) == 1 + 3
        assert counts(conn)["attempts"] == 1


def test_a_check_being_recorded_as_the_learner_is_deleted_goes_with_them(database):
    """The delete waits for a Check being written beside the learner's row (held on PostgreSQL, SQLite
    writes one at a time) and deletes it too: nothing of the learner outlives it."""
    with database.connect() as conn:
        opened(conn, "ann")
    written, go_on = threading.Event(), threading.Event()

    def recording() -> None:
        with database.connect() as conn:
            store.add_attempt(conn, ISSUER, "course-1", "link-1", "ann", CODE, "seed")
            written.set()
            go_on.wait(30)  # the Check's transaction still open

    writer = threading.Thread(target=recording)
    writer.start()
    assert written.wait(30)
    deleted: list[dict] = []
    deleting = threading.Thread(
        target=lambda: deleted.append(forget_in_own_transaction(database, "p-ann")), daemon=True
    )
    deleting.start()
    deleting.join(1.0)
    assert deleting.is_alive()  # it waits for the Check being written
    go_on.set()
    writer.join(30)
    deleting.join(30)
    assert deleted and deleted[0]["attempts"] == 1 and deleted[0]["learners"] == 1
    with database.connect() as conn:
        assert counts(conn)["attempts"] == 0 and list(attempt_rows(conn)) == []


def forget_in_own_transaction(database, learner: str) -> dict:
    with database.connect() as conn:
        return forgetting(conn, ISSUER, "course-1", learner)
