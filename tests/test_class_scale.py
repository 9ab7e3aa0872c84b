"""A class at a course's scale: the generated class is what the judge would have recorded, and the class
view counts a 1,000-learner class in the database instead of reading its 30,000 Checks into Python (it
reads a few rows per learner: it lists them all).

Nothing here is timed (benchmarks/class_view.py measures the time, docs/speed.md has its figures)."""

import contextlib
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Connection, event, insert, select

from benchmarks.class_view import STAND_IN
from exercises.backward.plugin.kinds import MISTAKES
from server.classview import stats
from server.db import Database
from server.db.tables import attempts, learners, results
from tests.support import classroom
from tests.support.postgres import database_on

pytestmark = pytest.mark.slow  # a class at a course's scale in a database: seconds a test

LEARNERS, CHECKS, IDLE = 1000, 30, 50


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('class') / 'lti.sqlite3'}")
    with db.engine.begin() as conn:
        made = classroom.write_class(conn, learners=30, idle=2, queued=2)
    yield db, made
    db.engine.dispose()


def test_every_source_makes_the_mistake_it_is_recorded_with(small):
    db, _ = small
    with db.engine.connect() as conn:
        judged = conn.execute(select(attempts).where(attempts.c.state == "judged")).all()
        per_expr = {}
        for row in conn.execute(select(results)):
            per_expr.setdefault(row.attempt_id, {})[row.expr] = (row.passed, row.mistake)
    seen = set()
    for row in judged:
        if row.source in seen or row.mistake == "timeout":  # the endless loop is the sandbox's to stop
            continue
        seen.add(row.source)
        verdict = classroom.judge(row.source, row.rule)
        assert (verdict.passed, verdict.mistake) == (row.passed, row.mistake), row.source
        assert verdict.results == per_expr.get(row.id, {}), row.source
    assert len(seen) > 20  # the restyled copies too: renamed, commented, spaced


def test_a_small_class_makes_every_named_mistake_and_every_kind_of_learner(small):
    db, made = small
    with db.engine.connect() as conn:
        kinds = set(conn.execute(select(attempts.c.mistake).distinct()).scalars())
        states = set(conn.execute(select(attempts.c.state).distinct()).scalars())
        opened = conn.execute(select(learners.c.sub)).scalars().all()
    assert kinds >= {*MISTAKES, "syntax", "runtime", "timeout", None}
    assert states == {"judged", "queued"}
    assert len(opened) == 32 and sum(1 for each in made.learners if not each.checks) == 2
    passed = [each for each in made.learners if each.passed]
    assert 15 <= len(passed) < 30
    assert any(next(i for i, c in enumerate(each.checks) if c.passed) >= 2 for each in passed)
    assert any(each.stuck for each in made.learners)
    days = {int((c.time - classroom.START) // classroom.DAY) for each in made.learners for c in each.checks}
    assert len(days) >= 7


def test_the_same_seed_writes_the_same_class_and_another_seed_another(small, tmp_path):
    db, _ = small
    again = Database(f"sqlite:///{tmp_path / 'again.sqlite3'}")
    with again.engine.begin() as conn:
        classroom.write_class(conn, learners=30, idle=2, queued=2)
        classroom.write_class(conn, learners=30, seed=44, course="another")
    with db.engine.connect() as first, again.engine.connect() as second:
        for table in (learners, attempts):
            scoped = (
                select(table).where(table.c.course == classroom.COURSE).order_by(*table.primary_key.columns)
            )
            assert [tuple(r) for r in first.execute(scoped)] == [tuple(r) for r in second.execute(scoped)]
        other = second.execute(select(attempts.c.sub, attempts.c.time).where(attempts.c.course == "another"))
        mine = set(first.execute(select(attempts.c.sub, attempts.c.time)))
        assert not mine & set(other)
    again.engine.dispose()


@contextlib.contextmanager
def rows_read(db: Database) -> Iterator[list[tuple[str, int]]]:
    """Each SELECT run on the database inside the block, with the number of rows it returned (counted by
    running it again inside `SELECT count(*)`, once the block is over)."""
    ran: list[tuple[str, object]] = []

    def seen(conn, cursor, statement, parameters, context, executemany) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            ran.append((statement, parameters))

    event.listen(db.engine, "after_cursor_execute", seen)
    counted: list[tuple[str, int]] = []
    try:
        yield counted
    finally:
        event.remove(db.engine, "after_cursor_execute", seen)
    with db.engine.connect() as conn:
        for statement, parameters in ran:
            wrapped = f"SELECT count(*) FROM ({statement}) AS q"
            counted.append((statement, conn.exec_driver_sql(wrapped, parameters).scalar_one()))


def class_summary() -> Callable:
    return stats.class_summary


def stand_in(conn: Connection, issuer: str, course: str, activity: str) -> None:
    for query in STAND_IN.values():
        query(conn, (issuer, course, activity))


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def course_class(request, tmp_path_factory):
    """A class of 1,000 learners x 30 Checks, and a smaller course beside it, on each database."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('course') / 'lti.sqlite3'}"
        else:
            url = stack.enter_context(database_on(request.getfixturevalue("postgres")))
        db = Database(url)
        stack.callback(db.engine.dispose)
        with db.engine.begin() as conn:
            made = classroom.write_class(conn, learners=LEARNERS, checks=CHECKS, idle=IDLE)
            classroom.write_class(conn, learners=100, checks=CHECKS, course="another")
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            # The planner's statistics, as a live database has them (autovacuum; benchmarks/class_view.py
            # likewise): without them PostgreSQL plans the stand-in queries' joins as if the tables were
            # empty, and their rows take minutes to count (the same rows, whatever the plan).
            conn.exec_driver_sql("VACUUM ANALYZE" if db.postgres else "ANALYZE")
        yield db, made


@pytest.mark.parametrize("summary", [class_summary, lambda: stand_in], ids=["class_summary", "bench-queries"])
def test_the_class_view_counts_in_the_database(course_class, summary):
    db, made = course_class
    summarise = summary()
    with rows_read(db) as counted, db.engine.connect() as conn:
        summarise(conn, made.issuer, made.course, made.activity)
    assert made.attempts == LEARNERS * CHECKS
    opened = LEARNERS + IDLE  # the view lists every learner: a few rows each, never a row per Check
    assert 0 < len(counted) <= 50  # a few statements, not one per learner
    assert max(n for _, n in counted) <= 2 * opened
    assert sum(n for _, n in counted) <= 4 * opened  # a row per Check would be 30,000


def test_a_read_of_every_check_is_seen(course_class):
    db, made = course_class
    with rows_read(db) as counted, db.engine.connect() as conn:
        conn.execute(select(attempts.c.mistake).where(attempts.c.course == made.course)).all()
    assert [n for _, n in counted] == [made.attempts]


def test_the_ids_given_by_hand_leave_the_next_to_the_database(course_class):
    db, made = course_class
    with db.engine.connect() as conn:  # not committed
        last = max(r.id for r in conn.execute(select(attempts.c.id)))
        row = {
            "issuer": made.issuer,
            "course": made.course,
            "activity": made.activity,
            "sub": "s",
            "time": 0.0,
        }
        row |= {"source": "", "source_sha256": "", "shape_sha256": "", "rule": "seed", "state": "queued"}
        new = conn.execute(insert(attempts).returning(attempts.c.id), row).scalar_one()
        assert new == last + 1
