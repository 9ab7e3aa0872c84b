"""The class view's numbers for one activity, counted in the database (SQLAlchemy Core, server/db/tables.py).

Every query is scoped to one (issuer, course, activity), as the teacher's token names it. Verdicts and
mistakes are the server's own (an attempt's `passed` and `mistake` once judged); a Check still waiting
for the sandbox, or never judged (over the bound), counts as a Check made but says nothing of a mistake.
The queries use window functions and GROUP BY that SQLite (3.25 and later) and PostgreSQL both run;
Python only reads the grouped rows (a few per mistake, per day, per learner).
"""

import datetime
import difflib
from collections.abc import Iterable

from sqlalchemy import Connection, Integer, and_, case, cast, distinct, func, or_, select, true
from sqlalchemy.sql import ColumnElement

from engine import cases
from server.db.tables import attempts, learners, results

EXAMPLES = 3  # code examples shown per mistake, each a different shape (the normalised code)
STUCK_RUN = 3  # the same mistake at this many last Checks in a row, and no pass: stuck
# The distribution of attempts to the first pass: one bar per count up to 5, then ranges.
BUCKETS = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 10), (11, 20), (21, None))
DAY_S = 86400


def in_activity(table, issuer: str, course: str, activity: str) -> ColumnElement[bool]:
    return and_(table.c.issuer == issuer, table.c.course == course, table.c.activity == activity)


def passed_as_number() -> ColumnElement[int]:
    """1 for a passed Check, else 0 (a boolean both databases sum and compare alike)."""
    return case((attempts.c.passed.is_(True), 1), else_=0)


def judged_checks(issuer: str, course: str, activity: str):
    """Each judged Check of the activity: its learner's Check number from the first (n) and from the
    last (back), and whether that learner passed at any Check (ever)."""
    by_learner = {"partition_by": attempts.c.sub}
    return (
        select(
            attempts.c.id,
            attempts.c.sub,
            attempts.c.time,
            attempts.c.mistake,
            passed_as_number().label("ok"),
            func.row_number().over(**by_learner, order_by=(attempts.c.time, attempts.c.id)).label("n"),
            func.row_number()
            .over(**by_learner, order_by=(attempts.c.time.desc(), attempts.c.id.desc()))
            .label("back"),
            func.max(passed_as_number()).over(**by_learner).label("ever"),
        )
        .where(in_activity(attempts, issuer, course, activity), attempts.c.state == "judged")
        .cte("judged")
    )


def median(histogram: dict[int, int]) -> float | None:
    """The median of values given as value -> how many times (None for none)."""
    total = sum(histogram.values())
    if not total:
        return None
    middle, seen, found = ((total - 1) // 2, total // 2), 0, []
    for value in sorted(histogram):
        for index in middle:
            if seen <= index < seen + histogram[value]:
                found.append(value)
        seen += histogram[value]
    return sum(found) / 2


def buckets(histogram: dict[int, int]) -> list[dict]:
    """The distribution in BUCKETS: each with its lowest and highest value (None: no limit) and count."""
    return [
        {
            "low": low,
            "high": high,
            "learners": sum(n for v, n in histogram.items() if v >= low and (high is None or v <= high)),
        }
        for low, high in BUCKETS
    ]


def day_of(column: ColumnElement[float], dialect: str) -> ColumnElement[int]:
    """The UTC day of a Unix time, days since 1970-01-01 (SQLite's cast truncates; PostgreSQL's rounds)."""
    if dialect == "postgresql":
        return cast(func.floor(column / DAY_S), Integer)
    return cast(column / DAY_S, Integer)


def counts(conn: Connection, issuer: str, course: str, activity: str) -> dict:
    """How many opened the activity, tried it (made a Check), passed (the server's verdict); Checks made."""
    mine = in_activity(attempts, issuer, course, activity)
    opened = conn.scalar(select(func.count()).where(in_activity(learners, issuer, course, activity)))
    tried, checks, passed = conn.execute(
        select(
            func.count(distinct(attempts.c.sub)),
            func.count(),
            func.count(distinct(case((attempts.c.passed.is_(True), attempts.c.sub)))),
        ).where(mine)
    ).one()
    return {"opened": opened, "tried": tried, "passed": passed, "checks": checks}


def mistakes(conn: Connection, judged, issuer: str, course: str, activity: str) -> list[dict]:
    """Each mistake made: learners who met it, still on it, the Checks it took to get past, examples."""
    met = dict(
        conn.execute(
            select(judged.c.mistake, func.count(distinct(judged.c.sub)))
            .where(judged.c.mistake.is_not(None))
            .group_by(judged.c.mistake)
        ).all()
    )
    still = dict(
        conn.execute(
            select(judged.c.mistake, func.count())
            .where(judged.c.back == 1, judged.c.ever == 0, judged.c.mistake.is_not(None))
            .group_by(judged.c.mistake)
        ).all()
    )
    # Getting past a mistake: the first later Check without it; it took the Checks from the first with it
    # to that one, both counted.
    first = (
        select(judged.c.sub, judged.c.mistake, func.min(judged.c.n).label("n"))
        .where(judged.c.mistake.is_not(None))
        .group_by(judged.c.sub, judged.c.mistake)
        .cte("first_met")
    )
    later = judged.alias("later")
    took = (
        select(first.c.mistake, (func.min(later.c.n) - first.c.n + 1).label("took"))
        .join(
            later,
            and_(
                later.c.sub == first.c.sub,
                later.c.n > first.c.n,
                or_(later.c.mistake.is_(None), later.c.mistake != first.c.mistake),
            ),
        )
        .group_by(first.c.sub, first.c.mistake, first.c.n)
        .subquery()
    )
    past: dict[str, dict[int, int]] = {}
    for mistake, checks, how_many in conn.execute(
        select(took.c.mistake, took.c.took, func.count()).group_by(took.c.mistake, took.c.took)
    ):
        past.setdefault(mistake, {})[checks] = how_many
    found = examples(conn, issuer, course, activity)
    return [
        {
            "mistake": mistake,
            "met": met[mistake],
            "still": still.get(mistake, 0),
            "past": sum(past.get(mistake, {}).values()),
            "median": median(past.get(mistake, {})),
            "examples": found.get(mistake, []),
        }
        for mistake in sorted(met, key=lambda m: (-met[m], m))
    ]


def examples(conn: Connection, issuer: str, course: str, activity: str) -> dict[str, list[dict]]:
    """Up to EXAMPLES sources per mistake, one per shape (normalised code), the most made first."""
    shapes = (
        select(
            attempts.c.mistake,
            func.count().label("checks"),
            func.count(distinct(attempts.c.sub)).label("learners"),
            func.min(attempts.c.id).label("first_id"),
        )
        .where(
            in_activity(attempts, issuer, course, activity),
            attempts.c.state == "judged",
            attempts.c.mistake.is_not(None),
        )
        .group_by(attempts.c.mistake, attempts.c.shape_sha256)
        .subquery()
    )
    ranked = select(
        shapes,
        func.row_number()
        .over(partition_by=shapes.c.mistake, order_by=(shapes.c.checks.desc(), shapes.c.first_id))
        .label("k"),
    ).subquery()
    found: dict[str, list[dict]] = {}
    rows = conn.execute(
        select(ranked.c.mistake, ranked.c.checks, ranked.c.learners, attempts.c.source)
        .join(attempts, attempts.c.id == ranked.c.first_id)
        .where(ranked.c.k <= EXAMPLES)
        .order_by(ranked.c.mistake, ranked.c.k)
    )
    for mistake, checks, how_many, source in rows:
        found.setdefault(mistake, []).append({"source": source, "checks": checks, "learners": how_many})
    return found


def who(issuer: str, course: str, activity: str, sub: ColumnElement[str]):
    """The learners row of a learner of the activity, for a join."""
    return and_(in_activity(learners, issuer, course, activity), learners.c.sub == sub)


def stuck(conn: Connection, judged, issuer: str, course: str, activity: str) -> list[dict]:
    """Learners whose last STUCK_RUN Checks all have the same mistake and who never passed."""
    runs = (
        select(
            judged.c.sub,
            func.min(judged.c.mistake).label("mistake"),
            func.min(judged.c.time).label("since"),
            func.max(judged.c.time).label("last"),
        )
        .where(judged.c.back <= STUCK_RUN, judged.c.ever == 0)
        .group_by(judged.c.sub)
        .having(
            func.count() == STUCK_RUN,
            func.count(judged.c.mistake) == STUCK_RUN,
            func.min(judged.c.mistake) == func.max(judged.c.mistake),
        )
        .subquery()
    )
    rows = conn.execute(
        select(learners.c.learner, learners.c.name, learners.c.sub, runs.c.mistake, runs.c.since, runs.c.last)
        .join(learners, who(issuer, course, activity, runs.c.sub))
        .order_by(runs.c.since, learners.c.learner)
    )
    return [dict(row._mapping) for row in rows]


def expressions(conn: Connection, judged) -> list[dict]:
    """Per expression and order graph: how many learners had it right at their last judged Check."""
    last = select(judged.c.id).where(judged.c.back == 1).subquery()
    rows = conn.execute(
        select(
            results.c.expr,
            func.sum(case((results.c.passed.is_(True), 1), else_=0)),
            func.count(),
        )
        .join(last, last.c.id == results.c.attempt_id)
        .group_by(results.c.expr)
    )
    order = {name: k for k, name in enumerate(cases.SEED + cases.EXTRAS)}
    found = [
        {"expr": expr, "role": cases.role(expr) if expr in order else "", "right": int(right), "of": of}
        for expr, right, of in rows
    ]
    return sorted(found, key=lambda row: (order.get(row["expr"], len(order)), row["expr"]))


def first_pass(conn: Connection, judged) -> dict:
    """Checks to the first pass (that one counted): the median, each count's learners, the buckets."""
    firsts = (
        select(func.min(judged.c.n).label("took")).where(judged.c.ok == 1).group_by(judged.c.sub).subquery()
    )
    histogram = dict(conn.execute(select(firsts.c.took, func.count()).group_by(firsts.c.took)).all())
    return {"median": median(histogram), "histogram": histogram, "buckets": buckets(histogram)}


def days(conn: Connection, issuer: str, course: str, activity: str) -> list[dict]:
    """Checks per UTC day (and the learners who made them), the days with any, in order."""
    day = day_of(attempts.c.time, conn.dialect.name).label("day")
    rows = conn.execute(
        select(day, func.count(), func.count(distinct(attempts.c.sub)))
        .where(in_activity(attempts, issuer, course, activity))
        .group_by(day)
        .order_by(day)
    )
    epoch = datetime.date(1970, 1, 1)
    return [
        {"day": (epoch + datetime.timedelta(days=number)).isoformat(), "checks": checks, "learners": how_many}
        for number, checks, how_many in rows
    ]


def roll(
    conn: Connection, judged, issuer: str, course: str, activity: str, learner: str | None = None
) -> list[dict]:
    """Every learner who opened the activity (or the one whose pseudonym is learner): Checks made,
    passed, the last Check's mistake and time."""
    made = (
        select(
            attempts.c.sub,
            func.count().label("checks"),
            func.max(passed_as_number()).label("passed"),
            func.max(attempts.c.time).label("last"),
        )
        .where(in_activity(attempts, issuer, course, activity))
        .group_by(attempts.c.sub)
        .subquery()
    )
    last = select(judged.c.sub, judged.c.mistake).where(judged.c.back == 1).subquery()
    rows = conn.execute(
        select(
            learners.c.learner,
            learners.c.name,
            learners.c.sub,
            learners.c.opened,
            func.coalesce(made.c.checks, 0).label("checks"),
            func.coalesce(made.c.passed, 0).label("passed"),
            made.c.last,
            last.c.mistake,
        )
        .outerjoin(made, made.c.sub == learners.c.sub)
        .outerjoin(last, last.c.sub == learners.c.sub)
        .where(
            in_activity(learners, issuer, course, activity),
            true() if learner is None else learners.c.learner == learner,
        )
        .order_by(func.coalesce(learners.c.name, learners.c.learner), learners.c.learner)
    )
    return [{**row._mapping, "passed": bool(row.passed)} for row in rows]


def class_summary(conn: Connection, issuer: str, course: str, activity: str) -> dict:
    """Everything the class view's overview shows of one activity (see the module's docstring)."""
    judged = judged_checks(issuer, course, activity)
    return {
        **counts(conn, issuer, course, activity),
        "mistakes": mistakes(conn, judged, issuer, course, activity),
        "stuck": stuck(conn, judged, issuer, course, activity),
        "expressions": expressions(conn, judged),
        "first_pass": first_pass(conn, judged),
        "days": days(conn, issuer, course, activity),
        "learners": roll(conn, judged, issuer, course, activity),
    }


def learner_row(conn: Connection, issuer: str, course: str, activity: str, learner: str) -> dict | None:
    """The activity's learner with this pseudonym, as class_summary's learners have each, or None."""
    found = roll(conn, judged_checks(issuer, course, activity), issuer, course, activity, learner)
    return found[0] if found else None


def changes(before: str | None, after: str) -> list[str]:
    """What changed from one Check's code to the next, as a unified diff's lines (none for the first)."""
    if before is None:
        return []
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm="")
    return list(lines)[2:]  # without the two file lines


def timeline(conn: Connection, issuer: str, course: str, activity: str, learner: str) -> list[dict]:
    """One learner's Checks (learner: the pseudonym) in order: time, state, verdict, mistake, code, each
    expression's result, and what changed from the Check before."""
    rows = conn.execute(
        select(
            attempts.c.id,
            attempts.c.time,
            attempts.c.state,
            attempts.c.passed,
            attempts.c.mistake,
            attempts.c.source,
        )
        .join(learners, who(issuer, course, activity, attempts.c.sub))
        .where(in_activity(attempts, issuer, course, activity), learners.c.learner == learner)
        .order_by(attempts.c.time, attempts.c.id)
    ).all()
    found = expression_results(conn, (row.id for row in rows))
    checks, before = [], None
    for row in rows:
        checks.append(
            {**row._mapping, "results": found.get(row.id, {}), "changes": changes(before, row.source)}
        )
        before = row.source
    return checks


def expression_results(conn: Connection, ids: Iterable[int]) -> dict[int, dict[str, dict]]:
    """Each attempt's results by expression: passed, and the mistake there."""
    ids = list(ids)
    found: dict[int, dict[str, dict]] = {}
    if not ids:
        return found
    for attempt_id, expr, passed, mistake in conn.execute(
        select(results.c.attempt_id, results.c.expr, results.c.passed, results.c.mistake).where(
            results.c.attempt_id.in_(ids)
        )
    ):
        found.setdefault(attempt_id, {})[expr] = {"passed": bool(passed), "mistake": mistake}
    return found
