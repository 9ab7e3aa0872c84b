"""A class that looks real, written straight into the database: the class view's tests, its screenshots
and its benchmark (benchmarks/class_view.py) read it.

write_class(conn, learners=30) writes a course's activity as the records would have it after a fortnight:
a `learners` row for each learner (some who only opened it, if asked), their Checks as `attempts` rows
spread over the days (sessions in the afternoons and evenings, Checks a few seconds to minutes apart),
each with its judged verdict, its named mistake or error kind and a `results` row per expression. Most
learners pass after a few tries (and some go on Checking after), some are stuck on one mistake three
Checks in a row or more, some never get there.

Every source is learner code that really makes the verdict it is written with: the tests' known-wrong
solutions (tests/support/solutions.py, orders.py) and a few more, each graded once by the engine
(engine/grade.py) under the class's rule, and filed under the mistake its report names. Only the endless
loop is not run here: its verdict is the sandbox's time limit (kind "timeout", no results).

Seeded: the same arguments write the same rows. Rows go in by executemany (Core inserts; COPY on
PostgreSQL), a thousand learners' 30,000 Checks and their results in a few seconds, on SQLite and PostgreSQL.
"""

import ast
import datetime
import functools
import hashlib
import random
import re
import uuid
from dataclasses import dataclass, field

from sqlalchemy import Connection, func, insert, select, text

from server.db.tables import attempts, learners, results
from server.exercises.reference import graded_cases
from server.page.page import read
from tests.support import orders, solutions
from tests.support.seed import grade

ISSUER = "https://lms.example.edu"
COURSE = "course-ml-101"
ACTIVITY = "backprop-1"
# A Monday morning, UTC: the day the activity opened.
START = datetime.datetime(2026, 11, 2, 8, tzinfo=datetime.UTC).timestamp()
DAY = 86_400.0

ENDLESS = "def backward(out):\n    while True:\n        pass\n"
# Right gradients nowhere, with no grad set by hand: the data the _backward()s read is changed first.
DATA_CHANGED = solutions.CORRECT.replace(
    "    out.grad = 1\n", "    for v in topo:\n        v.data = 0.5\n    out.grad = 1\n"
)
# The learner code the class writes, graded once to know what each makes.
CANDIDATES = (
    read("exercises/backward/starter.py"),
    solutions.CORRECT,
    solutions.ITERATIVE,
    solutions.NO_SEED,
    solutions.OUT_TWO,
    solutions.NOT_REVERSED,
    solutions.TWICE,
    solutions.LEAF_BY_HAND,
    solutions.SKIP_TANH,
    "def backward(out):\n    out.grad = 1\n",
    DATA_CHANGED,
    solutions.CORRECT.replace("v._backward()", "v.backward()"),
    "def backward(out):\n    raise ValueError('no')\n",
    "def backward(out)\n    out.grad = 1\n",
    solutions.CORRECT.replace("for v in reversed(topo):", "for v in reversed(topo)"),
    *orders.RIGHT.values(),
    *orders.WRONG.values(),
)
# How often a learner who has not passed yet makes each mistake (as its report names it) at a Check.
WEIGHTS = {
    "nothing": 4,
    "out-grad": 14,
    "reversed": 20,
    "repeated": 12,
    "early": 10,
    "never": 9,
    "direct": 4,
    "wrong": 3,
    "syntax": 9,
    "runtime": 5,
    "timeout": 2,
}
# Names a few identifiers take in learners' code (the same program to the judge, another to the eye).
RENAMES = (
    {"topo": "order", "seen": "visited", "visit": "build"},
    {"topo": "nodes", "visit": "dfs"},
    {"seen": "done"},
)
FIRST = ("Ada", "Ben", "Chloé", "Dmitri", "Emma", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kai", "Lena")
LAST = ("Adler", "Brandt", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Huber", "Ivanova", "Jäger")


@dataclass(frozen=True)
class Judged:
    """What the judge made of a source: the verdict, the mistake (or error kind), each expression's result."""

    passed: bool
    mistake: str | None
    results: dict[str, tuple[bool, str | None]]


@dataclass
class Check:
    time: float
    source: str
    passed: bool | None  # None: still queued
    mistake: str | None
    verdict: Judged | None  # the judge's, with each expression's result (None: still queued)


@dataclass
class Learner:
    sub: str
    learner: str  # the pseudonym
    name: str | None
    opened: float
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return any(c.passed for c in self.checks)

    @property
    def stuck(self) -> str | None:
        """The mistake of the last three Checks, when it is the same and the learner never passed."""
        last = [c.mistake for c in self.checks[-3:]]
        return last[0] if len(last) == 3 and len(set(last)) == 1 and not self.passed else None


@dataclass
class Classroom:
    """What write_class wrote: the activity's names and each learner with their Checks, in time order."""

    issuer: str
    course: str
    activity: str
    rule: str
    learners: list[Learner]

    @property
    def attempts(self) -> int:
        return sum(len(each.checks) for each in self.learners)


def mistake_of(report: dict) -> str | None:
    """The Check's mistake: the error that ended it, else the first failing counted expression's mistake
    (or its error's kind); None when it passed."""
    if report["error"]:
        return report["error"]["kind"]
    if report["passed"]:
        return None
    for expr in report["expressions"]:
        if not expr["passed"] and not expr["extra"]:
            if expr["mistake"]:
                return expr["mistake"]["kind"]
            return expr["error"]["kind"] if expr.get("error") else "wrong"
    return "wrong"


@functools.cache
def cases_of(rule: str) -> list[dict]:
    """A rule's graded value sets, made once (the reference's gradients: a third of a second each time)."""
    return graded_cases(rule)


def judge(source: str, rule: str) -> Judged:
    """Grade a source as the judge does (the engine, under the class's rule)."""
    report = grade(source, cases_of(rule))
    per_expr = {
        e["name"]: (
            e["passed"],
            e["mistake"]["kind"] if e["mistake"] else e["error"]["kind"] if e.get("error") else None,
        )
        for e in report["expressions"]
    }
    return Judged(report["passed"], mistake_of(report), per_expr)


@functools.cache
def catalogue(rule: str) -> tuple[dict[str, Judged], dict[str | None, list[str]]]:
    """Every candidate source's verdict under a rule, and the sources filed by what they make (None: a
    pass)."""
    judged = {source: judge(source, rule) for source in CANDIDATES}
    judged[ENDLESS] = Judged(False, "timeout", {})
    by_mistake: dict[str | None, list[str]] = {}
    for source, verdict in judged.items():
        by_mistake.setdefault(verdict.mistake, []).append(source)
    return judged, by_mistake


def restyle(source: str, rng: random.Random) -> str:
    """The same program as a learner might write it: renamed, commented, spaced; most sources as they are."""
    roll = rng.random()
    if roll < 0.5:
        return source
    if roll < 0.75:
        for old, new in rng.choice(RENAMES).items():
            source = re.sub(rf"\b{old}\b", new, source)
        return source
    if roll < 0.9:
        return "# my attempt\n" + source
    return source.replace("    ", "  ")


def shape_of(source: str) -> str:
    """The normalised source (comments, spacing and blank lines gone), for folding duplicates."""
    try:
        return ast.unparse(ast.parse(source))
    except (SyntaxError, ValueError):
        return "\n".join(" ".join(line.split()) for line in source.splitlines() if line.strip())


def sha256(text_: str) -> str:
    return hashlib.sha256(text_.encode()).hexdigest()


def times(count: int, rng: random.Random, days: int) -> list[float]:
    """When a learner's Checks came: a few sessions on the course's days, Checks within a session close."""
    sessions = sorted(
        START + rng.randrange(days) * DAY + rng.uniform(5, 14) * 3600
        for _ in range(max(1, min(days, round(count / rng.uniform(4, 10)))))
    )
    per = [1] * len(sessions)
    for _ in range(count - len(sessions)):
        per[rng.randrange(len(sessions))] += 1
    out = []
    for at, n in zip(sessions, per, strict=True):
        for _ in range(n):
            at += rng.choice((rng.uniform(8, 60), rng.uniform(30, 240), rng.uniform(120, 900)))
            out.append(at)
    return sorted(out)


def journey(count: int, rng: random.Random, kinds: list[str]) -> list[str | None]:
    """The mistakes of a learner's Checks in order (None: a pass): most pass after a few tries and may go
    on Checking; some end stuck on one mistake three times or more; some just never pass."""
    weights = [WEIGHTS[k] for k in kinds]

    def wrongs(n: int) -> list[str | None]:
        made: list[str | None] = []
        current = rng.choices(kinds, weights)[0]
        if rng.random() < 0.5 and "nothing" in kinds:
            current = "nothing"  # the starter, Checked as it is
        for _ in range(n):
            made.append(current)
            if rng.random() < 0.55:  # moves on to another mistake (or the same one again)
                current = rng.choices(kinds, weights)[0]
        return made

    kind = rng.random()
    if kind < 0.72:  # passes after a few tries, then goes on (a variant, a mistake tried on purpose)
        tries = min(count - 1, int(rng.expovariate(1 / 3.5)))
        after = [
            None if rng.random() < 0.8 else rng.choices(kinds, weights)[0] for _ in range(count - tries - 1)
        ]
        return [*wrongs(tries), None, *after]
    if kind < 0.85 and count >= 3:  # stuck: the same mistake at the last three Checks or more
        run = min(count, rng.randint(3, 6))
        made = wrongs(count - run)
        choices = [k for k in kinds if k not in ("syntax", "timeout")] or kinds
        last = rng.choices(choices, [WEIGHTS[k] for k in choices])[0]
        return [*made, *[last] * run]
    made = wrongs(count)  # never passed, not (yet) stuck
    if len(made) >= 3 and len(set(made[-3:])) == 1:
        made[-1] = next(k for k in kinds if k != made[-2])
    return made


def write_class(
    conn: Connection,
    *,
    learners: int = 30,
    checks: int | tuple[int, int] = (1, 16),
    idle: int = 0,
    queued: int = 0,
    seed: int = 43,
    issuer: str = ISSUER,
    course: str = COURSE,
    activity: str = ACTIVITY,
    rule: str = "strict",
    days: int = 14,
    names: bool = True,
) -> Classroom:
    """Write a class into the database: `learners` who Checked (each `checks` times, or a number drawn in
    the range), `idle` more who only opened the activity, the last `queued` Checks not judged yet.

    rule: the verdict the Checks were judged under ("strict" makes every mistake, "early" among them).
    names: the LMS shared the learners' names (else only the pseudonym is known).
    """
    rng = random.Random(f"{seed}/{issuer}/{course}/{activity}")
    judged, by_mistake = catalogue(rule)
    kinds = [k for k in WEIGHTS if by_mistake.get(k)]
    made: list[Learner] = []
    for i in range(learners + idle):
        sub = str(uuid.UUID(int=rng.getrandbits(128)))
        pseudonym = "p-" + sha256(f"{issuer}\n{sub}")[:16]
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}" if names else None
        if i >= learners:
            made.append(Learner(sub, pseudonym, name, START + rng.uniform(0, days) * DAY))
            continue
        count = checks if isinstance(checks, int) else rng.randint(*checks)
        at = times(count, rng, days)
        each = Learner(sub, pseudonym, name, at[0] - rng.uniform(20, 600))
        for when, mistake in zip(at, journey(count, rng, kinds), strict=True):
            source = rng.choice(by_mistake[mistake])
            each.checks.append(Check(when, restyle(source, rng), mistake is None, mistake, judged[source]))
        made.append(each)
    classroom = Classroom(issuer, course, activity, rule, made)
    if queued:
        for check in sorted((c for e in made for c in e.checks), key=lambda c: c.time)[-queued:]:
            check.passed = check.mistake = check.verdict = None
    insert_class(conn, classroom)
    return classroom


def bulk(conn: Connection, table, rows: list[dict]) -> None:
    """Insert rows (each with the same keys), in the same transaction: on SQLite by the driver's own
    executemany (SQLAlchemy's builds each row's parameters anew: half the time of 600,000 rows), on
    PostgreSQL by COPY (executemany there sends a statement per row: a minute for a 1,000-learner class)."""
    if not rows:
        return
    names = list(rows[0])
    if conn.dialect.name != "postgresql":
        statement = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        conn.exec_driver_sql(statement, [tuple(row[n] for n in names) for row in rows])
        return
    cursor = conn.connection.driver_connection.cursor()
    with cursor.copy(f"COPY {table.name} ({', '.join(names)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([row[n] for n in names])


def insert_class(conn: Connection, classroom: Classroom) -> None:
    """The rows, by executemany (COPY on PostgreSQL): learners, attempts (ids given here, after any already
    there), results."""
    scope = {"issuer": classroom.issuer, "course": classroom.course, "activity": classroom.activity}
    conn.execute(
        insert(learners),
        [
            {
                **scope,
                "sub": each.sub,
                "learner": each.learner,
                "name": each.name,
                "opened": each.opened,
                "last_opened": each.checks[-1].time if each.checks else each.opened,
            }
            for each in classroom.learners
        ],
    )
    next_id = (conn.execute(select(func.max(attempts.c.id))).scalar() or 0) + 1
    attempt_rows, result_rows = [], []
    seen: dict[str, tuple[str, str]] = {}
    for each in classroom.learners:
        for check in each.checks:
            if check.source not in seen:
                seen[check.source] = (sha256(check.source), sha256(shape_of(check.source)))
            source_sha, shape_sha = seen[check.source]
            done = check.verdict is not None
            attempt_rows.append(
                {
                    "id": next_id,
                    **scope,
                    "sub": each.sub,
                    "time": check.time,
                    "source": check.source,
                    "source_sha256": source_sha,
                    "shape_sha256": shape_sha,
                    "rule": classroom.rule,
                    "state": "judged" if done else "queued",
                    "passed": check.passed,
                    "mistake": check.mistake,
                    "judged": check.time + 0.4 if done else None,
                }
            )
            if check.verdict is not None:
                result_rows.extend(
                    {"attempt_id": next_id, "expr": expr, "passed": ok, "mistake": kind}
                    for expr, (ok, kind) in check.verdict.results.items()
                )
            next_id += 1
    bulk(conn, attempts, attempt_rows)
    bulk(conn, results, result_rows)
    if conn.dialect.name == "postgresql":  # ids given by hand: the sequence goes on after them
        conn.execute(
            text("SELECT setval(pg_get_serial_sequence('attempts', 'id'), :last)"), {"last": next_id - 1}
        )
