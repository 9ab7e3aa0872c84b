"""The class view's records as a teacher takes them away: JSON Lines (one Check a line) and a learners' CSV.

FIELDS is the one home of a line's fields: each one's JSON Schema, with its description. The schema of a
line (schema(), served at <prefix>/schema/attempt.json beside the page contract's) and
docs/data.md's table are made from it, and the tests hold both, and real exported lines, to it. COLUMNS
is the same for the learners' CSV.

Both stream: the rows come from the database as they are read (a server-side cursor on PostgreSQL), each
Check joined to its per-expression results there, and the CSV's numbers are counted by the database, so
exporting a course of any size holds a few hundred rows in memory at most.

How long the records are kept and how one learner's are deleted (expire, forget_learner) is
server/records/retention.py's.
"""

import csv
import io
import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from itertools import groupby

from sqlalchemy import Connection, and_, case, func, select

from server.db.tables import attempts, learners, results

BATCH = 500  # rows fetched from the database at a time
DIALECT = "https://json-schema.org/draft/2020-12/schema"
STATES = ("queued", "judged", "skipped")  # server/db/tables.py's attempts.state
# An exercise's id, and what a Check's mistake may be: a key of its exercise's named mistakes (the seed's:
# exercises/backward/plugin/kinds.py), an error's kind (engine/report.py's KINDS) or `wrong`: each a key
# as server/exercises/schemas/exercise.json has them.
KEY = r"^[a-z][a-z0-9-]{0,39}$"


def described(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


TEXT = {"type": "string"}
ISO_TIME = {
    "type": "string",
    "format": "date-time",
    "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$",
}
MISTAKE = {"type": ["string", "null"], "pattern": KEY}
EXPRESSION = {
    "type": "object",
    "properties": {
        "passed": described({"type": "boolean"}, "Whether its gradients were right."),
        "mistake": described(MISTAKE, "Its named mistake, or its error's kind; null when right."),
    },
    "required": ["passed", "mistake"],
    "additionalProperties": False,
}

# One exported Check (a line of JSON Lines): field -> its JSON Schema, with what it means.
FIELDS: dict[str, dict] = {
    "issuer": described(
        TEXT, "The LMS the Check came through: its LTI issuer (a course page's: its token's)."
    ),
    "course": described(
        TEXT, "The course: the LTI context's id (a course page's learner token: its `course`, or empty)."
    ),
    "activity": described(TEXT, "The activity: the LTI resource link's id (empty for a course page)."),
    "exercise": described(
        {"type": "string", "pattern": KEY},
        "The exercise the Check was made in and judged with: its id (one of the course's, `ops` to"
        " `train`, or a teacher's own; `backward`, the seed's, for every Check made before there were"
        " several).",
    ),
    "learner": described(
        TEXT,
        "The learner's pseudonym in this course (another in each other course), the one the class view"
        " shows where the LMS shares no name (a Check is kept only beside its learner's row: deleted, a"
        " learner's Checks go with them).",
    ),
    "sub": described(TEXT, "The learner's id at the LMS (the launch's `sub`)."),
    "time": described(ISO_TIME, "When the server received the Check: ISO 8601, UTC, to the millisecond."),
    "passed": described(
        {"type": ["boolean", "null"]},
        "The server's own verdict (its sandbox, as at /verify), never the page's word; null until judged"
        " (`state` queued) or when never judged (`state` skipped).",
    ),
    "mistake": described(
        MISTAKE,
        "The Check's named mistake: a key of its exercise's mistakes (ops's assign, the seed's reversed...),"
        " `wrong` where none is named, or its error's kind (syntax, runtime, timeout...); null when it"
        " passed or is not judged.",
    ),
    "expressions": described(
        {"type": "object", "additionalProperties": EXPRESSION},
        "Each counted group's result, by its name in the exercise (the seed's expressions and graphs):"
        " passed, and its mistake. Empty until judged.",
    ),
    "source_sha256": described(
        {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "The SHA-256 of the source's UTF-8 bytes, in hex: a receipt's `source_sha256` for the same code.",
    ),
    "source": described(
        {"type": ["string", "null"]},
        "The code the learner checked; null where it was not kept (a Check past what the server keeps of"
        " one learner, or the same code, by `source_sha256`, as an earlier Check of theirs in the"
        " activity, kept there).",
    ),
    "rule": described(
        TEXT, "The verdict it was judged under: the seed's seed or strict; another exercise's own (all)."
    ),
    "state": described(
        {"enum": list(STATES)},
        "queued: waiting for the sandbox; judged; skipped: recorded over the bounds on judging, never"
        " judged.",
    ),
}

# One row of the learners' CSV: column -> what it holds.
COLUMNS: dict[str, str] = {
    "activity": "The activity (the LTI resource link's id).",
    "exercise": "The exercise of the Checks counted in the row; empty for a learner who made none.",
    "learner": "The learner's pseudonym in this course (another in each other course).",
    "sub": "The learner's id at the LMS.",
    "name": "The learner's name, only where the LMS shared it; else empty.",
    "opened": "When they first opened the activity (ISO 8601, UTC).",
    "last_opened": "When they last opened it.",
    "checks": "How many Checks they made (of that exercise).",
    "passed": "true once the server judged one of them a pass, else false.",
    "first_pass": "When their first pass was made; empty before.",
    "checks_to_first_pass": "How many Checks it took, the passing one included; empty before a pass.",
    "last_mistake": "Their last Check's named mistake or error kind; empty when it passed or is not judged.",
}
UNSAFE_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
# Line ends that JSON leaves raw inside a string (it escapes only those under U+0020), and that JavaScript
# (U+2028, U+2029) and Python's str.splitlines (all three) split lines on: written as \\u escapes.
LINE_ENDS = {ord(end): f"\\u{ord(end):04x}" for end in "\u0085\u2028\u2029"}


def schema() -> dict:
    """The JSON Schema of one exported line: exactly FIELDS, every one required."""
    return {
        "$schema": DIALECT,
        "title": "A Check as `flask --app server lti export-attempts` and the class view export it",
        "type": "object",
        "properties": FIELDS,
        "required": list(FIELDS),
        "additionalProperties": False,
        # Judged, a Check has its verdict.
        "if": {"properties": {"state": {"const": "judged"}}},
        "then": {"properties": {"passed": {"type": "boolean"}}},
    }


def iso(seconds: float | None) -> str | None:
    """A Unix time as ISO 8601 in UTC, to the millisecond (as the grade passback's timestamps)."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def scope(table, issuer: str | None, course: str | None, activity: str | None) -> list:
    """The conditions that keep a table's rows to an issuer, a course, an activity (None: any)."""
    wanted = {"issuer": issuer, "course": course, "activity": activity}
    return [table.c[name] == value for name, value in wanted.items() if value is not None]


def attempt_rows(
    conn: Connection, issuer: str | None = None, course: str | None = None, activity: str | None = None
) -> Iterator[dict]:
    """Every Check of an issuer, a course, an activity (None: all), oldest first, as FIELDS says each."""
    a, r, who = attempts, results, learners
    joined = a.join(  # a Check is kept only beside its learner (store.add_attempt): never a null learner
        who,
        and_(
            who.c.issuer == a.c.issuer,
            who.c.course == a.c.course,
            who.c.activity == a.c.activity,
            who.c.sub == a.c.sub,
        ),
    ).outerjoin(r, r.c.attempt_id == a.c.id)
    query = (
        select(
            a,
            who.c.learner,
            r.c.expr.label("result_expr"),
            r.c.passed.label("result_passed"),
            r.c.mistake.label("result_mistake"),
        )
        .select_from(joined)
        .where(*scope(a, issuer, course, activity))
        .order_by(a.c.id, r.c.expr)
    )
    rows = conn.execute(query.execution_options(yield_per=BATCH)).mappings()
    for _, same in groupby(rows, key=lambda row: row["id"]):
        first, *rest = same
        yield line(first, [first, *rest])


def line(row, with_results: list) -> dict:
    """A Check's line, from its row and the rows of its results (one, all None, when it has none)."""
    expressions = {
        each["result_expr"]: {"passed": bool(each["result_passed"]), "mistake": each["result_mistake"]}
        for each in with_results
        if each["result_expr"] is not None
    }
    said = {
        "time": iso(row["time"]),
        "passed": None if row["passed"] is None else bool(row["passed"]),
        "expressions": expressions,
    }
    return {name: said[name] if name in said else row[name] for name in FIELDS}


def jsonl(rows: Iterable[dict]) -> Iterator[str]:
    """JSON Lines: each row as one line of JSON (UTF-8 text as it is), ending in a newline. The line ends
    that JSON leaves raw (LINE_ENDS) are escaped, so that any line reader reads one Check a line."""
    for row in rows:
        yield json.dumps(row, ensure_ascii=False, separators=(",", ":")).translate(LINE_ENDS) + "\n"


def learners_csv(conn: Connection, issuer: str, course: str, activity: str | None = None) -> Iterator[str]:
    """The learners of an activity (None: of every activity of the course) as CSV, a header line first:
    COLUMNS, counted by the database. A learner who opened it and made no Check is there too."""
    a, who = attempts, learners
    mine = scope(a, issuer, course, activity)
    learner = (a.c.activity, a.c.exercise, a.c.sub)
    # One pass over the activity's Checks (a sort by learner): each Check beside its learner's first pass
    # and last Check (the latest recorded), then counted by learner. Materialized on PostgreSQL, so that a
    # plan made without statistics (a database just filled) cannot compute it again for every learner.
    by_learner = {"partition_by": learner}
    each = (
        select(
            *learner,
            a.c.id,
            a.c.time,
            a.c.mistake,
            func.min(case((a.c.passed.is_(True), a.c.time))).over(**by_learner).label("first"),
            func.max(a.c.id).over(**by_learner).label("last_id"),
        )
        .where(*mine)
        .subquery()
    )
    counted = (
        select(
            each.c.activity,
            each.c.exercise,
            each.c.sub,
            func.count(each.c.id).label("checks"),
            func.min(each.c.first).label("first"),
            func.sum(case((each.c.time <= each.c.first, 1), else_=0)).label("to_first"),
            func.max(case((each.c.id == each.c.last_id, each.c.mistake))).label("last_mistake"),
        )
        .group_by(each.c.activity, each.c.exercise, each.c.sub)
        .cte("counted")
        .prefix_with("MATERIALIZED", dialect="postgresql")
    )
    query = (
        select(
            who,
            counted.c.exercise,
            func.coalesce(counted.c.checks, 0).label("checks"),
            counted.c.first,
            case((counted.c.first.is_(None), None), else_=counted.c.to_first).label("checks_to_first_pass"),
            counted.c.last_mistake,
        )
        .select_from(
            who.outerjoin(counted, and_(counted.c.activity == who.c.activity, counted.c.sub == who.c.sub))
        )
        .where(*scope(who, issuer, course, activity))
        .order_by(who.c.activity, who.c.opened, who.c.learner, counted.c.exercise)
    )
    yield csv_line(list(COLUMNS))
    for row in conn.execute(query.execution_options(yield_per=BATCH)).mappings():
        said = {
            "opened": iso(row["opened"]),
            "last_opened": iso(row["last_opened"]),
            "passed": "true" if row["first"] is not None else "false",
            "first_pass": iso(row["first"]),
        }
        yield csv_line([said[name] if name in said else row[name] for name in COLUMNS])


def spreadsheet_safe(value: object) -> object:
    """A cell kept from being read as a formula by a spreadsheet (OWASP's advice): a text starting with
    one of UNSAFE_START gets a `'` in front. Every cell of the CSV goes through it (csv_line): the LMS's
    ids and names, and the pseudonyms (URL-safe base64: 1 in 64 starts with `-`)."""
    return "'" + value if isinstance(value, str) and value.startswith(UNSAFE_START) else value


def csv_line(values: list) -> str:
    """One CSV line (RFC 4180: quoted where needed, CRLF), every cell spreadsheet_safe; None as an empty
    cell."""
    out = io.StringIO()
    csv.writer(out).writerow(["" if value is None else spreadsheet_safe(value) for value in values])
    return out.getvalue()
