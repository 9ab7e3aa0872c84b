"""Delete means deleted (issue 48, finding 6), through the tests' LMS and the tool over HTTPS, with the
real sandbox, on SQLite and PostgreSQL.

The red team's sequence: a learner launches, Checks, passes while the LMS cannot take her grade (so it
is still to send), her teacher deletes her records from the class view, and her page, still open, Checks
again with its launch token from before the delete (/record and /verify). Nothing of her is left: no
Check, no learners row, no launch once her owed grade is sent, nothing `forget-learner` could still find,
and no exported Check without a learner. A new launch after the delete starts afresh. And a removed
registration ends its teachers' class view tokens and its learners' launch tokens at once.
"""

import json
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from sqlalchemy import func, select

from server import ROOT
from server.db.tables import attempts, launches, learners, passbacks, results
from tests.support import solutions
from tests.support.lti import launch_form, login, rig
from tests.support.lti_launches import launched, verify
from tests.support.lti_platform import CLIENT_ID, LINEITEM

pytestmark = pytest.mark.slow  # a real LMS, the tool over HTTPS, the sandbox, both databases

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


@pytest.fixture
def graded_lms(tmp_path, database_url):
    """An LMS, the tool registered with it (its grades tried again a second after a failed try), a
    teacher; the tool's database on SQLite or PostgreSQL."""
    with rig(tmp_path, database_url) as lms:
        lms.tool, lms.tool_url = lms.start_tool(QUEUE_WORKERS=1, LTI_RETRY_S=0.5, LTI_RETRY_TRIES=20)
        lms.app = lms.tools[-1][1]
        lms.register(lms.tools[-1][1])
        lms.platform.people["teacher-1"] = {"roles": [INSTRUCTOR], "name": "Tess Teacher"}
        yield lms


def counted(lms, sub: str) -> dict[str, int]:
    """How many rows of each table name the learner sub (results: of her Checks)."""
    with lms.app.extensions["db"].engine.connect() as conn:
        mine = select(attempts.c.id).where(attempts.c.sub == sub)
        her_launches = select(launches.c.id).where(launches.c.sub == sub)
        return {
            "attempts": conn.scalar(select(func.count()).select_from(attempts).where(attempts.c.sub == sub)),
            "results": conn.scalar(
                select(func.count()).select_from(results).where(results.c.attempt_id.in_(mine))
            ),
            "learners": conn.scalar(select(func.count()).select_from(learners).where(learners.c.sub == sub)),
            "launches": conn.scalar(select(func.count()).select_from(launches).where(launches.c.sub == sub)),
            "passbacks": conn.scalar(
                select(func.count()).select_from(passbacks).where(passbacks.c.launch_id.in_(her_launches))
            ),
        }


def flask(lms, *args: str) -> subprocess.CompletedProcess:
    """`flask --app server lti ...` with the tool's settings, in a process of its own, as an administrator
    runs it."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PLAYGROUND_DATABASE_URL": lms.database_url,
        "PLAYGROUND_LTI": "1",
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_LTI_KEY_FILE": str(lms.folder / "lti-tool-key.pem"),
        "PLAYGROUND_SIGNING_KEY_FILE": str(lms.folder / "signing-key.pem"),
    }
    command = [str(Path(sys.executable).parent / "flask"), "--app", "server", "lti", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def class_view(lms) -> requests.Response:
    """The teacher's launch: the class view of course-1's link-1 (its token in the URL)."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, "teacher-1"))
    page = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert page.status_code == 200 and "/lti/class/" in page.url, page.text
    return page


def token_of(page: requests.Response) -> str:
    return parse_qs(urlsplit(page.url).query)["t"][0]


def record(lms, session: requests.Session, token: str, source: str) -> requests.Response:
    return session.post(lms.tool_url + "record", json={"source": source, "launch": token}, verify=lms.ca_file)


def settled(lms, sub: str, timeout: float = 90) -> None:
    """Wait until none of sub's Checks waits for the judge."""
    deadline = time.monotonic() + timeout
    while True:
        with lms.app.extensions["db"].engine.connect() as conn:
            waiting = conn.scalar(
                select(func.count())
                .select_from(attempts)
                .where(attempts.c.sub == sub, attempts.c.state == "queued")
            )
        if not waiting:
            return
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_after_a_delete_the_open_page_records_nothing_and_nothing_of_the_learner_is_left(graded_lms):
    lms = graded_lms
    session, token = launched(lms, "ada")
    pseudonym = lms.app.extensions["lti"]["keys"].learner_id(lms.issuer, "course-1", "ada")
    assert record(lms, session, token, solutions.NO_SEED).status_code == 202  # a Check that did not pass
    lms.platform.scores_refusal = 503  # the LMS cannot take her grade now: it waits to be sent
    passed = verify(lms, session, token, solutions.CORRECT)
    assert passed.status_code == 200 and passed.json()["report"]["passed"] is True
    settled(lms, "ada")
    assert counted(lms, "ada") == {"attempts": 2, "results": 6, "learners": 1, "launches": 1, "passbacks": 1}

    teacher = class_view(lms)
    assert pseudonym in teacher.text
    deleted = requests.post(
        lms.tool_url + f"lti/class/learner/{pseudonym}/delete",
        data={"t": token_of(teacher)},
        verify=lms.ca_file,
    )
    assert deleted.status_code == 200 and pseudonym not in deleted.text

    # Her page, still open, Checks again with the launch token it had from before the delete.
    again = record(lms, session, token, solutions.NOT_REVERSED)
    assert again.status_code == 400 and "deleted since it opened" in again.json()["error"], again.text
    passed_again = verify(lms, session, token, solutions.ITERATIVE)
    assert passed_again.status_code == 400 and "deleted since it opened" in passed_again.json()["error"]
    settled(lms, "ada")
    left = counted(lms, "ada")
    assert (left["attempts"], left["results"], left["learners"]) == (0, 0, 0), left

    # What an administrator finds: no learner to forget, no exported Check without its learner.
    forgot = flask(lms, "forget-learner", "--course", "course-1", "--learner", pseudonym)
    assert forgot.returncode == 1 and "nothing deleted" in forgot.stderr, forgot.stderr + forgot.stdout
    exported = flask(lms, "export-attempts")
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert not any(line["learner"] is None or line["sub"] == "ada" for line in lines), lines

    # Her grade, earned before the delete, is still owed to the LMS: sent once it answers, and then the
    # launch it was kept for goes too.
    lms.platform.scores_refusal = None
    lms.app.extensions["lti"]["passbacks"].catch_up_task(True)  # its next try now, as a restart makes it
    assert lms.platform.wait_for_score("ada", timeout=60)["scoreGiven"] == 1
    deadline = time.monotonic() + 30
    while (left := counted(lms, "ada")) != dict.fromkeys(left, 0):
        assert time.monotonic() < deadline, left
        time.sleep(0.05)
    assert record(lms, session, token, solutions.NOT_REVERSED).status_code == 400

    # A new launch after the delete starts afresh, and records as any other.
    fresh, fresh_token = launched(lms, "ada")
    assert record(lms, fresh, fresh_token, solutions.NO_SEED).status_code == 202
    settled(lms, "ada")
    assert counted(lms, "ada") | {"passbacks": 0} == {
        "attempts": 1,
        "results": 3,
        "learners": 1,
        "launches": 1,
        "passbacks": 0,
    }


def test_a_removed_registration_ends_its_class_view_and_launch_tokens_at_once(graded_lms):
    lms = graded_lms
    session, token = launched(lms, "bea")
    assert record(lms, session, token, solutions.NO_SEED).status_code == 202
    teacher = class_view(lms)
    overview = requests.get(teacher.url, verify=lms.ca_file)
    assert overview.status_code == 200
    removed = flask(lms, "remove-registration", "--issuer", lms.issuer, "--client-id", CLIENT_ID)
    assert removed.returncode == 0, removed.stderr

    refused = requests.get(teacher.url, verify=lms.ca_file)  # the same page, its token hours from expiry
    assert refused.status_code == 403 and "This class view is not open to you" in refused.text
    export = requests.get(
        lms.tool_url + "lti/class/checks.jsonl", params={"t": token_of(teacher)}, verify=lms.ca_file
    )
    assert export.status_code == 403
    assert record(lms, session, token, solutions.NOT_REVERSED).status_code == 400
    assert verify(lms, session, token, solutions.CORRECT).status_code == 400
    assert (LINEITEM, "bea") not in lms.platform.gradebook
