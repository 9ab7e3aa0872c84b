"""A class's records written straight into the tables (server/db/tables.py), as the recording leaves them:
learners who opened an activity, their Checks, each judged with its per-expression results."""

import hashlib
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import func, insert, select

from server.db import Database
from server.db.tables import attempts, launches, learners, passbacks, results
from tests.support.postgres import database_on

ISSUER = "https://lms.example.edu"
DAY_S = 86400


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request, tmp_path) -> Iterator[Database]:
    """An empty database of each kind (PostgreSQL: one server for a test process's tests, a database
    each)."""
    if request.param == "sqlite":
        yield Database(f"sqlite:///{tmp_path / 'records.sqlite3'}")
        return
    with database_on(request.getfixturevalue("postgres")) as url:
        made = Database(url)
        yield made
        made.engine.dispose()


def source_sha256(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def opened(
    conn, sub: str, *, course="course-1", activity="link-1", issuer=ISSUER, name=None, when=None, learner=None
):
    """A learner who opened an activity (their pseudonym: learner, or "p-" + sub)."""
    when = time.time() if when is None else when
    conn.execute(
        insert(learners).values(
            issuer=issuer,
            course=course,
            activity=activity,
            sub=sub,
            learner=learner or f"p-{sub}",
            name=name,
            opened=when,
            last_opened=when,
        )
    )


def checked(
    conn,
    sub: str,
    source: str,
    *,
    passed: bool | None,
    mistake: str | None = None,
    expressions: dict | None = None,
    course="course-1",
    activity="link-1",
    issuer=ISSUER,
    when=None,
    state="judged",
    exercise="backward",
    rule="seed",
) -> int:
    """A Check of an exercise and its results (group -> (passed, mistake)); its attempt id."""
    when = time.time() if when is None else when
    attempt_id = conn.execute(
        insert(attempts).values(
            issuer=issuer,
            course=course,
            activity=activity,
            sub=sub,
            time=when,
            source=source,
            source_sha256=source_sha256(source),
            shape_sha256=source_sha256(" ".join(source.split())),
            exercise=exercise,
            rule=rule,
            state=state,
            passed=passed,
            mistake=mistake,
            judged=None if state != "judged" else when + 1,
        )
    ).inserted_primary_key[0]
    for expr, (right, why) in (expressions or {}).items():
        conn.execute(insert(results).values(attempt_id=attempt_id, expr=expr, passed=right, mistake=why))
    return attempt_id


def launched(conn, launch_id: str, sub: str, *, course="course-1", issuer=ISSUER, when=None, passback=None):
    """A learner's LTI launch, with a grade passback in the state given (None: none)."""
    conn.execute(
        insert(launches).values(
            id=launch_id,
            issuer=issuer,
            client_id="client",
            deployment_id="deployment",
            sub=sub,
            resource_link_id="link-1",
            course="Machine Learning 101",
            created=time.time() if when is None else when,
            context_id=course,
        )
    )
    if passback is not None:
        conn.execute(
            insert(passbacks).values(
                jti=f"jti-{launch_id}",
                launch_id=launch_id,
                score=1.0,
                maximum=1.0,
                timestamp="2026-12-05T10:00:00.000Z",
                state=passback,
                next_try=0,
            )
        )


def counts(conn) -> dict[str, int]:
    """How many rows each table of the records holds."""
    tables = {"attempts": attempts, "results": results, "learners": learners}
    tables |= {"launches": launches, "passbacks": passbacks}
    return {
        name: conn.execute(select(func.count()).select_from(t)).scalar_one() for name, t in tables.items()
    }
