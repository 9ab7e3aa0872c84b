"""The class view's records in the database (server/db/tables.py's learners, attempts, results): who
opened an activity, every Check they made there, and the server's verdict on each.

SQLAlchemy Core over the connection a caller holds (server/db: `with database().connect() as conn`),
the same statements on SQLite and PostgreSQL; counts are counted in the database.
"""

import hashlib
import io
import time
import tokenize

from sqlalchemy import Connection, and_, delete, func, insert, literal, or_, select, update

from server.db import upsert
from server.db.tables import attempts, learners, results
from server.exercises.registry import LEGACY
from server.records import quota
from server.records.quota import size

CLAIM_S = 120  # a worker judging a Check keeps others off it this long (its sandbox's limit is seconds)


def source_sha256(source: str) -> str:
    """The source's SHA-256, of its UTF-8 bytes, as the receipt's (server/verify/receipt.py)."""
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def shape(source: str) -> str:
    """The source without its comments, blank lines and trailing spaces (read with tokenize), so code
    that differs in those only is one; the source as it is when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    lines = source.splitlines()
    for token in reversed(tokens):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col]
    return "\n".join(line.rstrip() for line in lines if line.strip())


def opened(
    conn: Connection, issuer: str, course: str, activity: str, sub: str, learner: str, name: str | None
) -> None:
    """Note that a learner opened an activity (a launch; a course page's Check): first time kept, last
    time and name (None where the LMS shares none) as now."""
    now = time.time()
    statement = upsert(conn, learners).values(
        issuer=issuer,
        course=course,
        activity=activity,
        sub=sub,
        learner=learner,
        per_course=True,
        name=name,
        opened=now,
        last_opened=now,
    )
    conn.execute(
        statement.on_conflict_do_update(
            index_elements=[learners.c.issuer, learners.c.course, learners.c.activity, learners.c.sub],
            set_={"learner": learner, "per_course": True, "name": name, "last_opened": now},
        )
    )


def last_source(
    conn: Connection, issuer: str, course: str, activity: str, sub: str, exercise: str | None = None
) -> str | None:
    """The code of this learner's latest Check in this activity (theirs only: scoped by the platform,
    course, activity and sub a signed launch names), of its exercise where one is named (an activity
    whose exercise changed gives no code of another), or None when they made none there. A latest Check
    whose code was not kept as the same as one kept before (server/records/quota.py) gives that code;
    one not kept at all gives None: an older Check's code would not be their last."""
    mine = (
        attempts.c.issuer == issuer,
        attempts.c.course == course,
        attempts.c.activity == activity,
        attempts.c.sub == sub,
        *([attempts.c.exercise == exercise] if exercise is not None else []),
    )
    latest = conn.execute(
        select(attempts.c.source, attempts.c.source_sha256)
        .where(*mine)
        .order_by(attempts.c.time.desc(), attempts.c.id.desc())
        .limit(1)
    ).first()
    if latest is None or latest.source is not None:
        return None if latest is None else latest.source
    same = select(attempts.c.source).where(
        *mine, attempts.c.source_sha256 == latest.source_sha256, attempts.c.source.is_not(None)
    )
    return conn.execute(same.limit(1)).scalar()


def add_attempt(
    conn: Connection,
    issuer: str,
    course: str,
    activity: str,
    sub: str,
    source: str,
    rule: str,
    state: str = "queued",
    keep_code: bool = True,
    exercise: str = LEGACY,
) -> int | None:
    """Record a Check of an exercise as the server received it now (queued for the judge, skipped over the
    bound, or judged already: /verify's), with its code or, where keep_code is false, without (its hashes
    kept: server/records/quota.py); its id. Only beside its learner's row (opened()): None, and nothing
    written, when there is none (their records were deleted). On PostgreSQL the row is held (FOR KEY
    SHARE) while the Check is written, so a delete of the learner (retention.py's, which deletes the
    learners rows first) waits for it and then deletes it too: no Check outlives its learner."""
    values = {
        "issuer": issuer,
        "course": course,
        "activity": activity,
        "sub": sub,
        "time": time.time(),
        "source": source if keep_code else None,
        "source_bytes": size(source) if keep_code else 0,
        "source_sha256": source_sha256(source),
        "shape_sha256": source_sha256(shape(source)),
        "exercise": exercise,
        "rule": rule,
        "state": state,
    }
    beside = (
        select(*(literal(value, attempts.c[name].type).label(name) for name, value in values.items()))
        .where(
            learners.c.issuer == issuer,
            learners.c.course == course,
            learners.c.activity == activity,
            learners.c.sub == sub,
        )
        .with_for_update(read=True, key_share=True)
    )
    added = insert(attempts).from_select(list(values), beside).returning(attempts.c.id)
    found = conn.execute(added).scalar()
    return None if found is None else int(found)


def add_verified(
    conn: Connection,
    bounds: quota.Bounds,
    issuer: str,
    course: str,
    activity: str,
    sub: str,
    source: str,
    exercise: str,
    rule: str,
    passed: bool,
) -> int | None:
    """Record a Check of an exercise /verify judged, its code kept where it is worth keeping
    (server/records/quota.py: never refused, a pass's code always kept but the same code again); its id
    (None: add_attempt's)."""
    kept, _ = quota.learner_now(conn, bounds, issuer, sub)
    same = quota.identical(conn, issuer, course, activity, sub, source_sha256(source))
    keep_code = quota.keeps_code(bounds, kept, size(source), same, passed)
    return add_attempt(conn, issuer, course, activity, sub, source, rule, "judged", keep_code, exercise)


def judged(
    conn: Connection,
    attempt_id: int,
    passed: bool,
    mistake: str | None,
    results_: dict[str, tuple[bool, str | None]],
) -> None:
    """Keep the server's verdict on an attempt: passed, the Check's mistake (or error kind), and each
    expression's result (passed, its mistake or error kind)."""
    conn.execute(
        update(attempts)
        .where(attempts.c.id == attempt_id)
        .values(state="judged", passed=passed, mistake=mistake, judged=time.time())
    )
    conn.execute(delete(results).where(results.c.attempt_id == attempt_id))
    if results_:
        conn.execute(
            insert(results),
            [
                {"attempt_id": attempt_id, "expr": expr, "passed": ok, "mistake": kind}
                for expr, (ok, kind) in results_.items()
            ],
        )


def skip(conn: Connection, attempt_id: int) -> None:
    """Keep a queued Check as never judged (skipped): its exercise is no longer served here."""
    conn.execute(update(attempts).where(attempts.c.id == attempt_id).values(state="skipped"))


def queued(conn: Connection, issuer: str, sub: str) -> tuple[int, int]:
    """How many Checks wait for the judge: the learner's (of this platform), and in all."""
    mine = func.count().filter(and_(attempts.c.issuer == issuer, attempts.c.sub == sub))
    row = conn.execute(select(mine, func.count()).where(attempts.c.state == "queued")).one()
    return row[0], row[1]


def lost(conn: Connection, before: float, limit: int) -> list[int]:
    """The Checks queued before `before` that no worker is judging now (their task was lost with a
    process that stopped mid-way), oldest first, at most limit."""
    found = (
        select(attempts.c.id)
        .where(
            attempts.c.state == "queued",
            attempts.c.time < before,
            or_(attempts.c.judged.is_(None), attempts.c.judged < time.time() - CLAIM_S),
        )
        .order_by(attempts.c.time)
        .limit(limit)
    )
    return list(conn.execute(found).scalars())


def attempt(conn: Connection, attempt_id: int):
    """One attempt's row, or None."""
    return conn.execute(select(attempts).where(attempts.c.id == attempt_id)).first()


def verdict_before(conn: Connection, row) -> tuple[bool, str | None, dict] | None:
    """The verdict of the same source in the same exercise under the same rule, judged before (passed,
    mistake, results), or None: judged once, it is not judged again."""
    earlier = conn.execute(
        select(attempts.c.id, attempts.c.passed, attempts.c.mistake)
        .where(
            attempts.c.source_sha256 == row.source_sha256,
            attempts.c.exercise == row.exercise,
            attempts.c.rule == row.rule,
            attempts.c.state == "judged",
        )
        .limit(1)
    ).first()
    if earlier is None:
        return None
    rows = conn.execute(
        select(results.c.expr, results.c.passed, results.c.mistake).where(results.c.attempt_id == earlier.id)
    )
    return bool(earlier.passed), earlier.mistake, {r.expr: (bool(r.passed), r.mistake) for r in rows}
