"""What one learner can keep (issue 48, "A learner cannot fill the disk"): one launch or learner token
posting many of the largest Checks (100,000 characters of 4-byte UTF-8: ~396 kB each) as fast as it can,
against `make production`'s shape (gunicorn, 4 processes, no Redis), keeps no more than the bounds say,
in Checks and in bytes, per window and in all, on SQLite and PostgreSQL; more get a 429 with Retry-After.
"""

import json
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import pytest
import requests
from sqlalchemy import create_engine, select

from server.classview.stats import timeline
from server.db import engine_url
from server.db.tables import attempts, learners
from server.records import DEFAULTS
from server.records.store import source_sha256
from tests.support import servers, solutions
from tests.support.postgres import database_on
from tests.support.verifying import verifying_app

pytestmark = pytest.mark.slow  # real sandboxes, server processes and databases: not in make test-fast

SECRET = "a course's secret, shared with the playground, 32+ bytes"
POSTS = 88  # as many Checks as the red team kept in 30 s from one token (46-88)
BIG = 99_000  # 4-byte characters in a comment, under the 100,000 characters of a Check


def token(sub: str = "ada") -> str:
    claims = {"sub": sub, "exp": int(time.time()) + 600, "iss": "https://course.example", "course": "ml-101"}
    return jwt.encode(claims, SECRET, "HS256")


def big(n: int) -> str:
    """A Check of ~396 kB in UTF-8, each n its own (none the same as another)."""
    return f"# {n}: " + "\U0001f600" * BIG + "\n" + solutions.NO_SEED


@pytest.fixture(params=["sqlite", pytest.param("postgresql")])
def bounds_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lti.sqlite3'}"
        return
    with database_on(request.getfixturevalue("postgres")) as url:
        yield url


def production(tmp_path, database: str, **settings) -> dict:
    """`make production`'s environment, with records on (learner tokens) and no one judging."""
    env = {
        "PLAYGROUND_INSTANCE_PATH": str(tmp_path / "instance"),
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_OFFLINE": "0",
        "PLAYGROUND_SIGNING_KEY_FILE": str(tmp_path / "k.pem"),
        "PLAYGROUND_VERIFY_SLOTS_DIR": str(tmp_path / "slots"),
        "PLAYGROUND_LEARNER_TOKEN_SECRET": SECRET,
        "PLAYGROUND_DATABASE_URL": database,
        "PLAYGROUND_QUEUE_WORKERS": "0",
    }
    return env | {f"PLAYGROUND_{k}": str(v) for k, v in settings.items()}


def flood(base: str, sources: list[str]) -> list[requests.Response]:
    """Post each source as one learner's Check, eight at a time, as fast as the server takes them."""

    def post(source: str) -> requests.Response:
        body = json.dumps({"source": source, "learner": token()}, ensure_ascii=False).encode()
        return requests.post(
            base + "record", data=body, headers={"Content-Type": "application/json"}, timeout=60
        )

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(post, sources))


def kept(database: str) -> list[tuple[str, str | None]]:
    """Each kept Check's state and source (None: its row kept, not its code)."""
    engine = create_engine(engine_url(database))
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(select(attempts.c.state, attempts.c.source))]
    finally:
        engine.dispose()


def size(rows) -> int:
    return sum(len(source.encode()) for _, source in rows if source is not None)


def refused_politely(answers: list[requests.Response]) -> list[requests.Response]:
    """The 429s, each saying when to come back (Retry-After and `retry`, in whole seconds, at least 1)."""
    refused = [a for a in answers if a.status_code == 429]
    for answer in refused:
        assert int(answer.headers["Retry-After"]) == answer.json()["retry"] >= 1, answer.text
    assert all(a.status_code in (202, 429) for a in answers), [a.text[:200] for a in answers]
    return refused


def test_one_token_flooding_four_processes_keeps_no_more_than_a_window_allows(tmp_path, bounds_url):
    """88 Checks of ~396 kB from one token within seconds, against 4 processes: what is kept is within the
    window's bounds (RECORD_RATE_LIMIT Checks, RECORD_RATE_BYTES bytes), counted across the processes;
    every other gets a 429 that says when to come back."""
    sources = [big(n) for n in range(POSTS)]
    assert min(len(s.encode()) for s in sources) > 395_000
    with servers.gunicorn(workers=4, threads=4, env=production(tmp_path, bounds_url)) as base:
        start = time.monotonic()
        answers = flood(base, sources)
        took = time.monotonic() - start
    rows = kept(bounds_url)
    refused = refused_politely(answers)
    assert took < DEFAULTS["RECORD_RATE_WINDOW_S"], took  # all of it within one window
    assert len(rows) == POSTS - len(refused) <= DEFAULTS["RECORD_RATE_LIMIT"]
    assert 0 < size(rows) <= DEFAULTS["RECORD_RATE_BYTES"], size(rows)
    assert refused  # the server said no to the rest


def test_over_a_learners_bounds_in_all_rows_are_kept_without_their_code_then_refused(tmp_path, bounds_url):
    """With the window wide (a long flood, as over hours), the bounds in all hold: the code kept stops at
    RECORD_BYTES_KEPT (later Checks keep their row, skipped, without their code), the rows at
    RECORDS_KEPT; then a 429 until the oldest expires."""
    bounds = {"RECORD_RATE_LIMIT": 1000, "RECORD_RATE_BYTES": 10**9}
    bounds |= {"RECORDS_KEPT": 40, "RECORD_BYTES_KEPT": 4_000_000}  # ten such Checks' code
    sources = [big(n) for n in range(POSTS)]
    with servers.gunicorn(workers=4, threads=4, env=production(tmp_path, bounds_url, **bounds)) as base:
        answers = flood(base, sources)
    rows = kept(bounds_url)
    refused = refused_politely(answers)
    assert len(rows) == POSTS - len(refused) == 40
    assert 3_500_000 < size(rows) <= 4_000_000, size(rows)
    assert sum(source is not None for _, source in rows) == 10
    assert all(state == "skipped" for state, source in rows if source is None)
    assert min(a.json()["retry"] for a in refused) > 300 * 86400  # the oldest Check's year, nearly all


def test_a_skipped_checks_code_is_kept_only_when_worth_keeping_and_a_pass_always(tmp_path, database_url):
    """Past the judge's bound, the same code again keeps its row, not the code (the timeline shows the
    code kept before); past the bytes in all, a Check keeps its row, skipped, without its code, and a
    non-pass /verify judged likewise; a pass /verify judged keeps its code whatever the bytes."""
    padding = "# " + "x" * 3000 + "\n"  # past the bytes in all with what is kept before it
    app = verifying_app(
        tmp_path,
        LEARNER_TOKEN_SECRET=SECRET,
        DATABASE_URL=database_url,
        QUEUE_WORKERS=0,
        RECORDS_QUEUED_PER_LEARNER=1,
        RECORD_BYTES_KEPT=3000,
    )
    try:
        client = app.test_client()
        posts = [solutions.NO_SEED, solutions.NO_SEED, solutions.TWICE, padding + solutions.TWICE]
        states = [client.post("/record", json={"source": s, "learner": token()}).json["state"] for s in posts]
        assert states == ["queued", "skipped", "skipped", "skipped"]
        for source in (padding + solutions.CORRECT, padding + solutions.NOT_REVERSED):
            answer = client.post("/verify", json={"source": source, "learner": token()})
            assert answer.status_code == 200, answer.json
        sent = [*posts, padding + solutions.CORRECT, padding + solutions.NOT_REVERSED]
        with app.extensions["db"].engine.connect() as conn:
            rows = conn.execute(select(attempts).order_by(attempts.c.id)).all()
            checks = timeline(conn, "https://course.example", "ml-101", "", pseudonym_of(conn))
        expected = [sent[0], None, sent[2], None, sent[4], None]
        assert [r.source for r in rows] == expected
        assert [r.source_bytes for r in rows] == [len(s.encode()) if s else 0 for s in expected]
        assert [r.source_sha256 for r in rows] == [source_sha256(s) for s in sent]  # what it was, kept
        assert [(r.state, r.passed) for r in rows][3:] == [
            ("skipped", None),
            ("judged", True),
            ("judged", False),
        ]
        assert [c["source"] for c in checks] == [sent[0], sent[0], sent[2], None, sent[4], None]
        assert checks[1]["changes"] == [] and checks[3]["changes"] == [] and checks[4]["changes"] == []
    finally:
        app.extensions["queue"].stop()


def pseudonym_of(conn) -> str:
    return conn.execute(select(learners.c.learner)).scalar_one()
