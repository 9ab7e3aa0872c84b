"""A database that cannot be reached loses no pass (issue 48, finding 4): /verify, /record and lti/grade
answer 503 JSON with Retry-After (and `retry`, as the 429s), in the learner's language, logged as one
line; a page gets a short page, not a traceback; once the database is back, the same requests record
the pass and the LMS gets its grade. A real PostgreSQL stopped and started again, and a SQLite file
another process holds locked.

The page's side (it keeps the pass and sends it again) is tests/browser/test_database_down.py.
"""

import logging
import sqlite3
import time

import jwt
import pytest
import requests

from server import db
from server.db import unreachable
from tests.support import solutions
from tests.support.lti import rig
from tests.support.lti_launches import launched, verify
from tests.support.recorded import recorded

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast


def post(lms, session: requests.Session, path: str, body: dict, lang: str = "en") -> requests.Response:
    return session.post(f"{lms.tool_url}{path}?lang={lang}", json=body, verify=lms.ca_file)


def refused_for_now(answer: requests.Response) -> dict:
    """A 503 JSON answer with Retry-After and the same `retry` field: its body."""
    assert answer.status_code == 503, answer.text
    assert answer.headers["Content-Type"].startswith("application/json")
    body = answer.json()
    assert int(answer.headers["Retry-After"]) == body["retry"] >= 1
    return body


def folded(at_least: int, timeout: float = 30) -> None:
    """Wait until at least at_least more failures were counted into the log's next line, not said."""
    deadline = time.monotonic() + timeout
    while unreachable.said.unsaid < at_least:
        assert time.monotonic() < deadline, unreachable.said.unsaid
        time.sleep(0.05)


def test_with_postgresql_stopped_each_route_says_try_again_and_after_its_restart_the_pass_is_graded(
    pg_lms, caplog, monkeypatch
):
    lms = pg_lms
    monkeypatch.setattr(unreachable, "said", unreachable.Said())  # this test's outage: said anew
    session, token = launched(lms, "learner-down")
    caplog.clear()
    lms.cluster.stop()

    answer = refused_for_now(verify(lms, session, token, solutions.CORRECT))
    assert answer["error"] == "The server's database cannot be reached now."
    german = refused_for_now(
        post(lms, session, "verify", {"source": solutions.CORRECT, "launch": token}, "de")
    )
    assert german["error"] == "Die Datenbank des Servers ist gerade nicht erreichbar."
    refused_for_now(post(lms, session, "record", {"source": solutions.TWICE, "launch": token}))
    refused_for_now(post(lms, session, "lti/grade", {"launch": token, "retry": False}))
    page = session.get(
        lms.tool_url + "lti/login", params={"iss": lms.issuer, "login_hint": "x"}, verify=lms.ca_file
    )
    assert page.status_code == 503 and "Retry-After" in page.headers
    assert page.headers["Content-Type"].startswith("text/html")
    assert "database cannot be reached now" in page.text and "Traceback" not in page.text
    folded(3)  # the queue's consumer threads asked for work in the outage too, each second: said once
    said = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(said) == 1 and said[0].getMessage().startswith("the database cannot be reached: ")  # once
    assert said[0].exc_info is None and "\n" not in said[0].getMessage()  # no traceback
    assert "SELECT" not in said[0].getMessage() and "INSERT" not in said[0].getMessage()  # no statement

    lms.cluster.start()  # the same data and socket: the pool's stale connections are replaced
    answer = verify(lms, session, token, solutions.CORRECT)
    assert answer.status_code == 200, answer.text
    assert answer.json()["report"]["passed"] is True
    assert lms.platform.wait_for_score("learner-down")["scoreGiven"] == 1
    assert post(lms, session, "record", {"source": solutions.TWICE, "launch": token}).status_code == 202
    assert post(lms, session, "lti/grade", {"launch": token, "retry": False}).status_code == 200
    assert recorded(lms.database_url, "learner-down")[0] == ("judged", True)


SECRET = "a secret the course and the playground share, 32+ bytes"


def learner_token(sub: str) -> str:
    """A course page's learner token (server/learners/tokens.py), as the course signs it."""
    return jwt.encode({"sub": sub, "exp": int(time.time()) + 600}, SECRET, "HS256")


@pytest.fixture
def sqlite_lms(tmp_path, monkeypatch):
    """The tool on SQLite, waiting at most half a second for a lock (30 s in production, see server/db)."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 500)
    with rig(tmp_path) as lms:
        lms.tool, lms.tool_url = lms.start_tool(LEARNER_TOKEN_SECRET=SECRET)  # and a course page's learners
        lms.register(lms.tools[-1][1])
        yield lms


def test_a_sqlite_file_locked_by_another_process_gets_503_and_the_pass_judged_meanwhile_is_not_lost(
    sqlite_lms,
):
    lms = sqlite_lms
    session, token = launched(lms, "learner-locked")
    path = lms.database_url.removeprefix("sqlite:///")
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # a writer that holds on: reads go on (WAL), no write gets through
    try:
        answer = refused_for_now(verify(lms, session, token, solutions.CORRECT))  # judged, not recordable
        assert answer["error"] == "The server's database cannot be reached now."
        refused_for_now(post(lms, session, "record", {"source": solutions.TWICE, "launch": token}))
        course_page = {"source": solutions.CORRECT, "learner": learner_token("course-learner")}
        refused_for_now(post(lms, session, "verify", course_page))  # no grade to queue: its record only
    finally:
        locker.rollback()
        locker.close()
    assert recorded(lms.database_url, "learner-locked") == []
    assert post(lms, session, "verify", course_page).status_code == 200  # sent again
    assert recorded(lms.database_url, "course-learner") == [("judged", True)]
    answer = verify(lms, session, token, solutions.CORRECT)  # the page sends it again
    assert answer.status_code == 200 and answer.json()["report"]["passed"] is True
    assert lms.platform.wait_for_score("learner-locked")["scoreGiven"] == 1
    assert recorded(lms.database_url, "learner-locked") == [("judged", True)]
