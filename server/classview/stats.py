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

from sqlalchemy import (
    Connection,
    Float,
    Integer,
    Text,
    and_,
    case,
    cast,
    distinct,
    func,
    literal,
    null,
    select,
    union_all,
)
from sqlalchemy.sql import ColumnElement

from exercises.backward import seed as cases
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
    last (back), how many they made (total), whether that learner passed at any Check (ever), and the
    mistake of their next Check (following: None after the last).

    One pass in each learner's order (the `attempts_counted` index gives it) serves every window (the
    whole partition for total and ever)."""
    in_order = {"partition_by": attempts.c.sub, "order_by": attempts.c.time}
    whole = {**in_order, "rows": (None, None)}  # the same order, framed by the whole partition
    numbered = (
        select(
            attempts.c.id,
            attempts.c.sub,
            attempts.c.time,
            attempts.c.mistake,
            passed_as_number().label("ok"),
            func.row_number().over(**in_order).label("n"),
            func.count().over(**whole).label("total"),
            func.max(passed_as_number()).over(**whole).label("ever"),
            func.lead(attempts.c.mistake).over(**in_order).label("following"),
        )
        .where(in_activity(attempts, issuer, course, activity), attempts.c.state == "judged")
        .subquery()
    )
    return select(numbered, (numbered.c.total - numbered.c.n + 1).label("back")).cte("judged")


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


def part(name: str, key=None, key2=None, a=None, b=None, c=None, time=None) -> list:
    """The columns of one part of the windowed statement: a union, so every part has the same ones
    (part's name, two texts, three whole numbers, a time), None where a part has nothing."""

    def typed(value, kind):
        return cast(null() if value is None else value, kind)

    values = (
        literal(name),
        typed(key, Text),
        typed(key2, Text),
        typed(a, Integer),
        typed(b, Integer),
        typed(c, Integer),
        typed(time, Float),
    )
    return [
        value.label(label)
        for value, label in zip(values, ("part", "key", "key2", "a", "b", "c", "time"), strict=True)
    ]


def windowed(conn: Connection, judged) -> dict[str, list]:
    """Every number that needs each learner's Checks in order, in one statement: the numbered Checks
    (judged) are counted once (a common table expression used more than once is materialised, by
    SQLite from 3.35 and PostgreSQL from 12), and each part groups them its own way. The parts' rows,
    by part."""
    parts = [each_mistake(judged), each_learner(judged), expressions(judged), first_pass(judged)]
    found: dict[str, list] = {name: [] for name in ("mistake", "learner", "expr", "first")}
    for row in conn.execute(union_all(*parts)):
        found[row.part].append(row)
    return found


def each_mistake(judged):
    """For each mistake and number of Checks it took to get past it (None: not past it yet), the learners
    who made it (b), and of those the ones still on it (c: their last Check made it, and no pass); part
    "mistake".

    A learner gets past a mistake at the first Check after its first run: the Checks from its first one
    to that Check, both counted. The first run ends at the learner's first Check with the mistake whose
    next Check does not make it; got past it when that is not their last Check. So one group per learner
    and mistake counts it, in one sort."""
    still_on_it = case((and_(judged.c.back == 1, judged.c.ever == 0), 1), else_=0)
    run_ends = case((judged.c.mistake.is_distinct_from(judged.c.following), judged.c.n))
    first, end, total = func.min(judged.c.n), func.min(run_ends), func.max(judged.c.total)
    pairs = (
        select(
            judged.c.mistake,
            case((end < total, end - first + 2)).label("took"),
            func.max(still_on_it).label("still"),
        )
        .where(judged.c.mistake.is_not(None))
        .group_by(judged.c.sub, judged.c.mistake)
        .subquery()
    )
    return select(
        *part("mistake", pairs.c.mistake, None, pairs.c.took, func.count(), func.sum(pairs.c.still))
    ).group_by(pairs.c.mistake, pairs.c.took)


def each_learner(judged):
    """Each learner's last judged Check's mistake (key2), whether they are stuck (a: 1 when their last
    STUCK_RUN Checks all have the same mistake and they never passed) and when that run began (time);
    part "learner"."""
    last_mistake = func.max(case((judged.c.back == 1, judged.c.mistake)))
    stuck_now = and_(
        func.count() == STUCK_RUN,
        func.count(judged.c.mistake) == STUCK_RUN,
        func.min(judged.c.mistake) == func.max(judged.c.mistake),
        func.max(judged.c.ever) == 0,
    )
    return (
        select(
            *part(
                "learner",
                judged.c.sub,
                last_mistake,
                case((stuck_now, 1), else_=0),
                None,
                None,
                func.min(judged.c.time),
            )
        )
        .where(judged.c.back <= STUCK_RUN)
        .group_by(judged.c.sub)
    )


def expressions(judged):
    """Per expression and order graph: learners who had it right at their last judged Check, of those
    whose last Check has a result for it (part "expr")."""
    last = select(judged.c.id).where(judged.c.back == 1).subquery()
    right = func.sum(case((results.c.passed.is_(True), 1), else_=0))
    return (
        select(*part("expr", results.c.expr, None, right, func.count()))
        .join(last, last.c.id == results.c.attempt_id)
        .group_by(results.c.expr)
    )


def first_pass(judged):
    """For each number of Checks to the first pass (that one counted), the learners it took (part "first")."""
    firsts = (
        select(func.min(judged.c.n).label("took")).where(judged.c.ok == 1).group_by(judged.c.sub).subquery()
    )
    return select(*part("first", None, None, firsts.c.took, func.count())).group_by(firsts.c.took)


def examples(conn: Connection, issuer: str, course: str, activity: str) -> dict[str, list[dict]]:
    """Up to EXAMPLES sources per mistake, one per shape (normalised code), the most made first."""
    shapes = (
        select(
            attempts.c.mistake,
            func.count().label("checks"),
            func.count(distinct(attempts.c.sub)).label("learners"),
            func.min(attempts.c.id).filter(attempts.c.source.is_not(None)).label("first_id"),  # code kept
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
) -> list[dict]:
    """Every learner who opened the activity (or the one whose pseudonym is learner): Checks made,
    passed, the last Check's mistake (from last_mistake, by sub) and time (from made, checks_made's for
    the activity, when the caller has it)."""
    who_opened = in_activity(learners, issuer, course, activity)
    mine = in_activity(attempts, issuer, course, activity)
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


def class_summary(conn: Connection, issuer: str, course: str, activity: str) -> dict:
    """Everything the class view's overview shows of one activity (see the module's docstring)."""
    found = windowed(conn, judged_checks(issuer, course, activity))
    made = checks_made(conn, in_activity(attempts, issuer, course, activity))
    last_mistake = {row.key: row.key2 for row in found["learner"]}
    everyone = roll(conn, issuer, course, activity, last_mistake, made=made)
    by_sub = {row["sub"]: row for row in everyone}
    stuck = [row for row in found["learner"] if row.a == 1 and row.key in by_sub]
    return {
        "opened": len(everyone),
        # who made a Check, who passed, and their Checks: each learner's, added up
        "tried": len(made),
        "passed": sum(each["passed"] for each in made.values()),
        "checks": sum(each["checks"] for each in made.values()),
        "mistakes": mistakes(found["mistake"], examples(conn, issuer, course, activity)),
        "stuck": [
            {
                **{k: by_sub[row.key][k] for k in ("learner", "name", "sub")},
                "mistake": row.key2,
                "since": row.time,
            }
            for row in sorted(stuck, key=lambda row: (row.time, by_sub[row.key]["learner"]))
        ],
        "expressions": expression_rows(found["expr"]),
        "first_pass": distribution({row.a: row.b for row in found["first"]}),
        "days": days(conn, issuer, course, activity),
        "learners": everyone,
    }


def mistakes(rows: list, shown: dict[str, list[dict]]) -> list[dict]:
    """Each mistake made, the most met first: learners who met it, still on it, the Checks it took to get
    past it (median, and how many got past), examples. rows: windowed's part "mistake"."""
    met: dict[str, int] = {}
    still: dict[str, int] = {}
    past: dict[str, dict[int, int]] = {}
    for row in rows:
        met[row.key] = met.get(row.key, 0) + row.b
        still[row.key] = still.get(row.key, 0) + row.c
        if row.a is not None:
            past.setdefault(row.key, {})[row.a] = row.b
    return [
        {
            "mistake": mistake,
            "met": met[mistake],
            "still": still[mistake],
            "past": sum(past.get(mistake, {}).values()),
            "median": median(past.get(mistake, {})),
            "examples": shown.get(mistake, []),
        }
        for mistake in sorted(met, key=lambda mistake: (-met[mistake], mistake))
    ]


def expression_rows(rows: list) -> list[dict]:
    """Each expression's row, in the exercise's order (cases.py)."""
    drawn = "random"  # /verify's random graphs under strict (server/verify.py's value_sets): order graphs
    order = {name: k for k, name in enumerate((*cases.SEED, *cases.EXTRAS, drawn))}
    found = [
        {
            "expr": row.key,
            "role": "drawn" if row.key == drawn else cases.role(row.key) if row.key in order else "",
            "right": row.a,
            "of": row.b,
        }
        for row in rows
    ]
    return sorted(found, key=lambda row: (order.get(row["expr"], len(order)), row["expr"]))


def distribution(histogram: dict[int, int]) -> dict:
    """Checks to the first pass: the median, each count's learners, the buckets."""
    return {"median": median(histogram), "histogram": histogram, "buckets": buckets(histogram)}


def learner_row(conn: Connection, issuer: str, course: str, activity: str, learner: str) -> dict | None:
    """The activity's learner with this pseudonym, as class_summary's learners have each, or None."""
    last = (
        select(attempts.c.sub, attempts.c.mistake)
        .join(learners, who(issuer, course, activity, attempts.c.sub))
        .where(in_activity(attempts, issuer, course, activity), attempts.c.state == "judged")
        .where(learners.c.learner == learner)
        .order_by(attempts.c.time.desc(), attempts.c.id.desc())
        .limit(1)
    )
    found = roll(conn, issuer, course, activity, dict(conn.execute(last).all()), learner)
    return found[0] if found else None


def who(issuer: str, course: str, activity: str, sub: ColumnElement[str]):
    """The learners row of a learner of the activity, for a join."""
    return and_(in_activity(learners, issuer, course, activity), learners.c.sub == sub)


def changes(before: str | None, after: str | None) -> list[str]:
    """What changed from one Check's code to the next, as a unified diff's lines (none for the first, or
    where either code was not kept)."""
    if before is None or after is None:
        return []
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm="")
    return list(lines)[2:]  # without the two file lines


def timeline(conn: Connection, issuer: str, course: str, activity: str, learner: str) -> list[dict]:
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
        .where(in_activity(attempts, issuer, course, activity), learners.c.learner == learner)
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
