"""The class view's numbers that need each learner's Checks in order, counted in one statement of window
functions (SQLAlchemy Core, server/db/tables.py): each mistake's learners and the Checks it took to get
past it, each learner's last mistake and whether they are stuck, each expression's learners right at
their last Check, the Checks to the first pass.

Window functions and GROUP BY that SQLite (3.25 and later) and PostgreSQL both run; server/classview/
figures.py reads the grouped rows (a few per mistake, per learner, per count).
"""

from sqlalchemy import (
    Connection,
    Float,
    Integer,
    Text,
    and_,
    case,
    cast,
    func,
    literal,
    null,
    select,
    union_all,
)

from server.classview.scope import in_activity, passed_as_number
from server.db.tables import attempts, results
from server.exercises.registry import LEGACY

STUCK_RUN = 3  # the same mistake at this many last Checks in a row, and no pass: stuck


def judged_checks(issuer: str, course: str, activity: str, exercise: str | None = LEGACY):
    """Each judged Check of the activity's exercise: its learner's Check number from the first (n) and
    from the last (back), how many they made (total), whether that learner passed at any Check (ever), and the
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
        .where(in_activity(attempts, issuer, course, activity, exercise), attempts.c.state == "judged")
        .subquery()
    )
    return select(numbered, (numbered.c.total - numbered.c.n + 1).label("back")).cte("judged")


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
