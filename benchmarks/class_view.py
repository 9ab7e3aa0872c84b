"""Benchmark the class view at a course's scale: 1,000 learners x 30 Checks, on SQLite and PostgreSQL.

    .venv/bin/python -m benchmarks.class_view [--learners 1000] [--checks 30] [--runs 15] [--only sqlite]

For each database (SQLite in a temporary folder, WAL as the server opens it; PostgreSQL, a private
server as tests/support/postgres.py starts one), writes one class with tests/support/classroom.py (a
second, smaller course beside it, so that every query must pick its course out), then measures, --runs
times each, interleaved, and prints the medians:
- the class view's server time: server/classview/stats.py's class_summary(conn, issuer, course,
  activity) where it exists, and the queries below that stood in for it before it did (what the view
  shows, each counted in the database), each timed, and their sum;
- the floor: a bare `SELECT count(*)` round trip on the same connection, and the class's attempts
  counted (one index range).
The class view's target is 300 ms (issue 43); the ratios to the floor are beside the figures. What
recording a Check adds to its request is benchmarks/record.py's to measure (POST /record itself).
"""

import argparse
import contextlib
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import Connection, and_, case, distinct, func, or_, select

from server.db import Database
from server.db.tables import attempts, learners, results
from tests.support import classroom
from tests.support.postgres import postgres_server, server_bin

Scope = tuple[str, str, str]


def of(table, scope: Scope):
    issuer, course, activity = scope
    return and_(table.c.issuer == issuer, table.c.course == course, table.c.activity == activity)


def judged(scope: Scope):
    return and_(of(attempts, scope), attempts.c.state == "judged")


def each_learner(scope: Scope, where=None):
    """Each learner who Checked: their Checks (n), the time of the last, and whether any passed (ever: 1,
    0); of the judged Checks unless `where` says which.

    Grouped, not windowed: one pass over the learner index in its order, nothing sorted, no row kept."""
    return (
        select(
            attempts.c.sub,
            func.count().label("n"),
            func.max(attempts.c.time).label("last"),
            func.max(case((attempts.c.passed.is_(True), 1), else_=0)).label("ever"),
        )
        .where(judged(scope) if where is None else where)
        .group_by(attempts.c.sub)
        .subquery()
    )


def last_checks(scope: Scope):
    """Each learner's last judged Check (found by the learner index, a seek per learner), with `ever`: a
    table of its own for the statement (a materialised CTE: a join reads it as it is, not made again)."""
    per = each_learner(scope)
    return (
        select(attempts.c.id, attempts.c.sub, attempts.c.passed, attempts.c.mistake, per.c.ever)
        .join(per, and_(attempts.c.sub == per.c.sub, attempts.c.time == per.c.last))
        .where(judged(scope))
        .cte("last_checks")
        .prefix_with("MATERIALIZED")
    )


def counts(conn: Connection, scope: Scope) -> list:
    """How many opened the activity, Checked, passed, and their Checks."""
    opened = select(func.count()).select_from(learners).where(of(learners, scope)).scalar_subquery()
    per = each_learner(scope, of(attempts, scope))
    return list(conn.execute(select(opened, func.count(), func.sum(per.c.ever), func.sum(per.c.n))))


def mistakes_met(conn: Connection, scope: Scope) -> list:
    """Each mistake: how many learners made it, and how many Checks (the mistake index, in its order)."""
    pairs = (
        select(attempts.c.mistake, attempts.c.sub, func.count().label("n"))
        .where(of(attempts, scope), attempts.c.mistake.is_not(None))
        .group_by(attempts.c.mistake, attempts.c.sub)
        .subquery()
    )
    return list(
        conn.execute(select(pairs.c.mistake, func.count(), func.sum(pairs.c.n)).group_by(pairs.c.mistake))
    )


def still_on_it(conn: Connection, scope: Scope) -> list:
    last = last_checks(scope)
    return list(
        conn.execute(
            select(last.c.mistake, func.count())
            .where(last.c.mistake.is_not(None), last.c.ever == 0)
            .group_by(last.c.mistake)
        )
    )


def stuck(conn: Connection, scope: Scope) -> list:
    """The learners who never passed whose last three Checks made one mistake (a seek per learner finds the
    third last)."""
    per = each_learner(scope)
    third_last = (
        select(attempts.c.time)
        .where(judged(scope), attempts.c.sub == per.c.sub)
        .order_by(attempts.c.time.desc())
        .limit(1)
        .offset(2)
        .scalar_subquery()
    )
    since = select(per.c.sub, third_last.label("since")).where(per.c.ever == 0).subquery()
    return list(
        conn.execute(
            select(attempts.c.sub, func.min(attempts.c.mistake))
            .join(since, and_(attempts.c.sub == since.c.sub, attempts.c.time >= since.c.since))
            .where(judged(scope))
            .group_by(attempts.c.sub)
            .having(
                func.count() == 3,
                func.count(distinct(attempts.c.mistake)) == 1,
                func.count(attempts.c.mistake) == 3,
            )
        )
    )


def tries_per_mistake(conn: Connection, scope: Scope) -> list:
    """The Checks each learner who got past a mistake made with it (they passed since, or their last Check
    made another): their mean and most, per mistake. Two grouped passes joined by learner."""
    per = each_learner(scope)
    past = (
        select(
            attempts.c.mistake,
            attempts.c.sub,
            func.count().label("n"),
            func.max(attempts.c.time).label("last"),
        )
        .where(judged(scope), attempts.c.mistake.is_not(None))
        .group_by(attempts.c.mistake, attempts.c.sub)
        .subquery()
    )
    return list(
        conn.execute(
            select(past.c.mistake, func.avg(past.c.n), func.max(past.c.n))
            .join(per, per.c.sub == past.c.sub)
            .where(or_(per.c.ever == 1, past.c.last < per.c.last))
            .group_by(past.c.mistake)
        )
    )


def examples(conn: Connection, scope: Scope) -> list:
    """Up to three sources per mistake, the most made shapes first (duplicates folded)."""
    shapes = (
        select(
            attempts.c.mistake,
            attempts.c.shape_sha256,
            func.min(attempts.c.id).label("id"),
            func.row_number()
            .over(partition_by=attempts.c.mistake, order_by=(func.count().desc(), attempts.c.shape_sha256))
            .label("rank"),
        )
        .where(of(attempts, scope), attempts.c.mistake.is_not(None))
        .group_by(attempts.c.mistake, attempts.c.shape_sha256)
        .subquery()
    )
    return list(
        conn.execute(
            select(shapes.c.mistake, attempts.c.source)
            .join(attempts, attempts.c.id == shapes.c.id)
            .where(shapes.c.rank <= 3)
        )
    )


def expressions_at_last(conn: Connection, scope: Scope) -> list:
    last = last_checks(scope)
    return list(
        conn.execute(
            select(results.c.expr, func.count(), func.count(case((results.c.passed.is_(True), 1))))
            .join(last, last.c.id == results.c.attempt_id)
            .group_by(results.c.expr)
        )
    )


def to_first_pass(conn: Connection, scope: Scope) -> list:
    """How many learners took 1, 2, ... Checks to their first pass (each counted by a seek per learner)."""
    first = (
        select(attempts.c.sub, func.min(attempts.c.time).label("at"))
        .where(judged(scope), attempts.c.passed.is_(True))
        .group_by(attempts.c.sub)
        .subquery()
    )
    upto = (
        select(func.count())
        .where(judged(scope), attempts.c.sub == first.c.sub, attempts.c.time <= first.c.at)
        .scalar_subquery()
    )
    took = select(upto.label("n")).select_from(first).subquery()
    return list(conn.execute(select(took.c.n, func.count()).group_by(took.c.n).order_by(took.c.n)))


def per_day(conn: Connection, scope: Scope) -> list:
    day = func.floor(attempts.c.time / 86400).label("day")
    return list(
        conn.execute(select(day, func.count()).where(of(attempts, scope)).group_by(day).order_by(day))
    )


# What the class view shows, as queries: each reads the activity's rows in the database and returns a
# few rows (the stuck learners are the most: one row each).
STAND_IN: dict[str, Callable[[Connection, Scope], list]] = {
    "opened, tried, passed": counts,
    "each mistake: learners met": mistakes_met,
    "each mistake: still on it": still_on_it,
    "stuck now": stuck,
    "each mistake: tries to get past": tries_per_mistake,
    "each mistake: 3 examples": examples,
    "each expression at the last Check": expressions_at_last,
    "Checks to the first pass": to_first_pass,
    "Checks per day": per_day,
}


def class_summary_function() -> Callable | None:
    """server/classview/stats.py's class_summary, once the class view has landed."""
    try:
        return importlib.import_module("server.classview.stats").class_summary
    except (ImportError, AttributeError):
        return None


@contextlib.contextmanager
def class_view_page(url: str, scope: Scope, folder: Path) -> Iterator[Callable[[], object] | None]:
    """A GET of the class view's overview (the teacher's token in its link) through Flask's test client, on
    an app of the database at url (LTI on, no queue consumer), once the class view has landed; else None."""
    try:
        token_module = importlib.import_module("server.classview.token")
        lti = importlib.import_module("server.lti")
    except ImportError:
        yield None
        return
    from tests.support.verifying import verifying_app

    app = verifying_app(folder, LTI=True, DATABASE_URL=url, QUEUE_WORKERS=0)
    issuer, course, activity = scope
    view = {"issuer": issuer, "course": course, "activity": activity, "client_id": "bench"}
    with app.app_context():
        token = token_module.teacher_token(lti.state()["keys"], view, 3600)
    client = app.test_client()

    def get() -> None:
        page = client.get("/lti/class/", query_string={"t": token})
        assert page.status_code == 200, page.status_code

    yield get
    app.extensions["db"].engine.dispose()


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


@contextlib.contextmanager
def databases(only: str | None) -> Iterator[tuple[str, str]]:
    """(name, URL) of each database to measure, made for this run and gone after it."""
    with contextlib.ExitStack() as stack:
        made = []
        if only in (None, "sqlite"):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="class-view-")))
            made.append(("SQLite", f"sqlite:///{folder / 'lti.sqlite3'}"))
        if only in (None, "postgresql"):
            if server_bin() is None:
                print("PostgreSQL: not measured (no server programs: scripts/setup-postgres.sh)")
            else:
                made.append(("PostgreSQL", stack.enter_context(postgres_server())))
        yield made


def measure(name: str, url: str, args: argparse.Namespace) -> None:
    db = Database(url)
    start = time.perf_counter()
    with db.engine.begin() as conn:
        made = classroom.write_class(
            conn, learners=args.learners, checks=args.checks, idle=args.learners // 20
        )
        other = classroom.write_class(
            conn, learners=args.learners // 10, checks=args.checks, course="course-other"
        )
    wrote = time.perf_counter() - start
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        # The planner's statistics and PostgreSQL's visibility map, as a live database has them (autovacuum)
        conn.exec_driver_sql("VACUUM ANALYZE" if db.postgres else "ANALYZE")
    scope = (made.issuer, made.course, made.activity)
    summary = class_summary_function()
    times: dict[str, list[float]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="class-view-app-") as folder,
        class_view_page(url, scope, Path(folder)) as page,
        db.engine.connect() as conn,
    ):
        steps: dict[str, Callable[[], object]] = {
            "floor: SELECT count(*)": lambda: conn.exec_driver_sql("SELECT count(*)").all(),
            "floor: the class's attempts counted": lambda: conn.execute(
                select(func.count()).select_from(attempts).where(of(attempts, scope))
            ).all(),
        }
        for label, query in STAND_IN.items():
            steps[label] = lambda query=query: query(conn, scope)
        if summary is not None:
            steps["class_summary()"] = lambda: summary(conn, *scope)
        if page is not None:
            steps["GET the class view (test client)"] = page
        for _ in range(args.runs):
            for label, step in steps.items():
                times.setdefault(label, []).append(timed(step))
            times.setdefault("stand-in queries, all", []).append(sum(times[label][-1] for label in STAND_IN))
            conn.rollback()
    floor = statistics.median(times["floor: SELECT count(*)"])
    print(
        f"\n{name}: {len(made.learners)} learners ({args.learners // 20} only opened it), "
        f"{made.attempts:,} Checks (and {other.attempts:,} in another course), "
        f"written in {wrote:.1f} s; medians of {args.runs} runs"
    )
    print(f"{'':44}{'ms':>9}{'x floor':>10}{'target':>9}")
    targets = {"stand-in queries, all": 300, "class_summary()": 300, "GET the class view (test client)": 300}
    for label, values in times.items():
        ms = statistics.median(values)
        target = f"< {targets[label]}" if label in targets else ""
        print(f"{label:44}{ms:9.2f}{ms / floor:10.0f}{target:>9}")
    db.engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--checks", type=int, default=30)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    if class_summary_function() is None:
        print("server/classview/stats.py's class_summary is not here yet: its stand-in queries are measured")
    with databases(args.only) as made:
        for name, url in made:
            measure(name, url, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
