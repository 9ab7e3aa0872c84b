"""The class view's numbers for one activity, counted in the database (SQLAlchemy Core, server/db/tables.py).

Every query is scoped to one (issuer, course, activity), as the teacher's token names it, and its Checks to
one exercise (the activity's: server/classview/pages.py's exercise_id; LEGACY, the seed's, by default; None:
every exercise's, as before there were several). Verdicts and mistakes are the server's own (an attempt's
`passed` and `mistake` once judged); a Check still waiting for the sandbox, or never judged (over the
bound), counts as a Check made but says nothing of a mistake.
The numbers that need each learner's Checks in order are counted in one statement of window functions
(in_order.py) and made into the overview's figures in Python (figures.py); the rows each query reads,
scope.py. Python only reads grouped rows (a few per mistake, per day, per learner).
"""

import datetime
import difflib
from collections.abc import Iterable

from sqlalchemy import Connection, Integer, and_, cast, distinct, func, select
from sqlalchemy.sql import ColumnElement

from server.classview import figures, in_order
from server.classview.scope import in_activity, passed_as_number, who
from server.db.tables import attempts, learners, results
from server.exercises.registry import LEGACY

EXAMPLES = 3  # code examples shown per mistake, each a different shape (the normalised code)
DAY_S = 86400


def day_of(column: ColumnElement[float], dialect: str) -> ColumnElement[int]:
    """The UTC day of a Unix time, days since 1970-01-01 (SQLite's cast truncates; PostgreSQL's rounds)."""
    if dialect == "postgresql":
        return cast(func.floor(column / DAY_S), Integer)
    return cast(column / DAY_S, Integer)


def examples(
    conn: Connection, issuer: str, course: str, activity: str, exercise: str | None = LEGACY
) -> dict[str, list[dict]]:
    """Up to EXAMPLES sources per mistake, one per shape (normalised code), the most made first."""
    shapes = (
        select(
            attempts.c.mistake,
            func.count().label("checks"),
            func.count(distinct(attempts.c.sub)).label("learners"),
            func.min(attempts.c.id).filter(attempts.c.source.is_not(None)).label("first_id"),  # code kept
        )
        .where(
            in_activity(attempts, issuer, course, activity, exercise),
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


def days(
    conn: Connection, issuer: str, course: str, activity: str, exercise: str | None = LEGACY
) -> list[dict]:
    """Checks per UTC day (and the learners who made them), the days with any, in order."""
    day = day_of(attempts.c.time, conn.dialect.name).label("day")
    rows = conn.execute(
        select(day, func.count(), func.count(distinct(attempts.c.sub)))
        .where(in_activity(attempts, issuer, course, activity, exercise))
        .group_by(day)
        .order_by(day)
    )
    epoch = datetime.date(1970, 1, 1)
    return [
        {"day": (epoch + datetime.timedelta(days=number)).isoformat(), "checks": checks, "learners": how_many}
        for number, checks, how_many in rows
    ]


def checks_made(conn: Connection, where: ColumnElement[bool]) -> dict[str, dict]:
    """Each learner's Checks where says (judged or not): how many, passed at any, the last one's time."""
    return {
        sub: {"checks": checks, "passed": bool(passed), "last": last}
        for sub, checks, passed, last in conn.execute(
            select(attempts.c.sub, func.count(), func.max(passed_as_number()), func.max(attempts.c.time))
            .where(where)
            .group_by(attempts.c.sub)
        )
    }


def roll(
    conn: Connection,
    issuer: str,
    course: str,
    activity: str,
    last_mistake: dict[str, str | None],
    learner: str | None = None,
    made: dict[str, dict] | None = None,
    exercise: str | None = LEGACY,
) -> list[dict]:
    """Every learner who opened the activity (or the one whose pseudonym is learner): Checks made,
    passed, the last Check's mistake (from last_mistake, by sub) and time (from made, checks_made's for
    the activity, when the caller has it)."""
    who_opened = in_activity(learners, issuer, course, activity)
    mine = in_activity(attempts, issuer, course, activity, exercise)
    if learner is not None:
        who_opened = and_(who_opened, learners.c.learner == learner)
        mine = and_(mine, attempts.c.sub.in_(select(learners.c.sub).where(who_opened).scalar_subquery()))
    rows = conn.execute(
        select(learners.c.learner, learners.c.name, learners.c.sub, learners.c.opened)
        .where(who_opened)
        .order_by(func.coalesce(learners.c.name, learners.c.learner), learners.c.learner)
    ).all()
    if made is None:
        made = checks_made(conn, mine)
    none = {"checks": 0, "passed": False, "last": None}
    return [{**row._mapping, **made.get(row.sub, none), "mistake": last_mistake.get(row.sub)} for row in rows]


def class_summary(
    conn: Connection,
    issuer: str,
    course: str,
    activity: str,
    exercise: str | None = LEGACY,
    order: list[tuple[str, str]] | None = None,
) -> dict:
    """Everything the class view's overview shows of one activity and its exercise (see the module's
    docstring); its groups' rows in order (figures.order_of: the exercise's; None: the seed's)."""
    found = in_order.windowed(conn, in_order.judged_checks(issuer, course, activity, exercise))
    made = checks_made(conn, in_activity(attempts, issuer, course, activity, exercise))
    last_mistake = {row.key: row.key2 for row in found["learner"]}
    everyone = roll(conn, issuer, course, activity, last_mistake, made=made, exercise=exercise)
    by_sub = {row["sub"]: row for row in everyone}
    stuck = [row for row in found["learner"] if row.a == 1 and row.key in by_sub]
    return {
        "opened": len(everyone),
        # who made a Check, who passed, and their Checks: each learner's, added up
        "tried": len(made),
        "passed": sum(each["passed"] for each in made.values()),
        "checks": sum(each["checks"] for each in made.values()),
        "mistakes": figures.mistakes(found["mistake"], examples(conn, issuer, course, activity, exercise)),
        "stuck": [
            {
                **{k: by_sub[row.key][k] for k in ("learner", "name", "sub")},
                "mistake": row.key2,
                "since": row.time,
            }
            for row in sorted(stuck, key=lambda row: (row.time, by_sub[row.key]["learner"]))
        ],
        "expressions": figures.expression_rows(found["expr"], order),
        "first_pass": figures.distribution({row.a: row.b for row in found["first"]}),
        "days": days(conn, issuer, course, activity, exercise),
        "learners": everyone,
    }


def learner_row(
    conn: Connection, issuer: str, course: str, activity: str, learner: str, exercise: str | None = LEGACY
) -> dict | None:
    """The activity's learner with this pseudonym, as class_summary's learners have each, or None."""
    last = (
        select(attempts.c.sub, attempts.c.mistake)
        .join(learners, who(issuer, course, activity, attempts.c.sub))
        .where(in_activity(attempts, issuer, course, activity, exercise), attempts.c.state == "judged")
        .where(learners.c.learner == learner)
        .order_by(attempts.c.time.desc(), attempts.c.id.desc())
        .limit(1)
    )
    found = roll(conn, issuer, course, activity, dict(conn.execute(last).all()), learner, exercise=exercise)
    return found[0] if found else None


def changes(before: str | None, after: str | None) -> list[str]:
    """What changed from one Check's code to the next, as a unified diff's lines (none for the first, or
    where either code was not kept)."""
    if before is None or after is None:
        return []
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm="")
    return list(lines)[2:]  # without the two file lines


def timeline(
    conn: Connection, issuer: str, course: str, activity: str, learner: str, exercise: str | None = LEGACY
) -> list[dict]:
    """One learner's Checks (learner: the pseudonym) in order: time, state, verdict, mistake, code (a Check
    that did not keep the same code as an earlier one kept shows that one's; None: not kept), each
    expression's result, and what changed from the Check before."""
    rows = conn.execute(
        select(
            attempts.c.id,
            attempts.c.time,
            attempts.c.state,
            attempts.c.passed,
            attempts.c.mistake,
            attempts.c.source,
            attempts.c.source_sha256,
        )
        .join(learners, who(issuer, course, activity, attempts.c.sub))
        .where(in_activity(attempts, issuer, course, activity, exercise), learners.c.learner == learner)
        .order_by(attempts.c.time, attempts.c.id)
    ).all()
    found = expression_results(conn, (row.id for row in rows))
    checks, before, codes = [], None, {}
    for row in rows:
        code = codes.setdefault(row.source_sha256, row.source) if row.source is not None else None
        code = codes.get(row.source_sha256) if code is None else code
        checks.append(
            {
                **row._mapping,
                "source": code,
                "results": found.get(row.id, {}),
                "changes": changes(before, code),
            }
        )
        before = code
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
