"""A launched learner's last Check comes back with their launch (config.lti.lastCheck): their own code in
this activity only (scoped by the platform, course, activity and sub the signed launch names), never
another learner's, another activity's or another course's; none for a teacher's launch or a learner who
made no Check here. The page's side, in a frame with storage blocked: tests/browser/test_last_check.py."""

import json
import re

import pytest
from sqlalchemy import select

from server.db import database
from server.db.tables import attempts
from server.records import store
from tests.support.lti_launches import LAUNCH_TOKEN, launched_link

pytestmark = pytest.mark.slow  # a real platform, the tool over HTTPS and its database: not in make test-fast

CONFIG = re.compile(r'<script type="application/json" id="config">(?P<json>.*?)</script>', re.S)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
# Code that would end the config's <script> were it put in the page raw.
HOSTILE = "def backward(out):\n    out.grad = 1  # </script><script>alert(1)</script><!--\n"


def launch(quiet_lms, user: str, link: str = "link-1"):
    """Launch user into link; the launch's answer (the page, or a teacher's redirect to the class view)."""
    _, answer = launched_link(quiet_lms, user, link)
    assert answer.status_code == 200, answer.text
    return answer


def config_of(page) -> dict:
    return json.loads(CONFIG.search(page.text)["json"])


def last_check(quiet_lms, user: str, link: str = "link-1") -> str | None:
    """What user's launch into link hands the page as their last Check."""
    return config_of(launch(quiet_lms, user, link))["lti"]["lastCheck"]


def checked(quiet_lms, user: str, source: str, link: str = "link-1") -> None:
    """User launches into link and checks source, which /record keeps (a Check that did not pass)."""
    session, page = launched_link(quiet_lms, user, link)
    token = LAUNCH_TOKEN.search(page.text)["token"]
    answer = session.post(
        quiet_lms.tool_url + "record", json={"source": source, "launch": token}, verify=quiet_lms.ca_file
    )
    assert answer.status_code == 202, answer.text


def code(name: str) -> str:
    return f"def backward(out):\n    out.grad = 1  # {name}\n"


def test_a_learner_gets_their_own_last_check_in_this_activity_and_no_one_elses(quiet_lms):
    assert last_check(quiet_lms, "ada") is None  # no Check yet: the starter, as before
    page = launch(quiet_lms, "ada")
    assert 'id="last-check"' not in page.text and "data-last-check" not in page.text

    checked(quiet_lms, "ada", code("ada's first"))
    checked(quiet_lms, "ada", code("ada's last"))
    checked(quiet_lms, "bob", code("bob's"))  # another learner, the same activity
    checked(quiet_lms, "ada", code("ada's in link-2"), link="link-2")  # ada, another activity of the course
    quiet_lms.platform.people["ada"] = {"course": ("course-2", "Another course")}
    checked(quiet_lms, "ada", code("ada's in course-2"))  # ada, the same link id in another course
    quiet_lms.platform.people.pop("ada")
    with quiet_lms.app.extensions[
        "db"
    ].engine.begin() as conn:  # the same course, activity and sub on another platform
        store.add_attempt(
            conn, "https://other-lms.example", "course-1", "link-1", "ada", code("another LMS's ada"), "seed"
        )

    page = launch(quiet_lms, "ada")
    assert config_of(page)["lti"]["lastCheck"] == code("ada's last")
    assert 'id="last-check"' in page.text and "data-last-check" in page.text  # shown by the page's script
    assert last_check(quiet_lms, "bob") == code("bob's")
    assert last_check(quiet_lms, "ada", link="link-2") == code("ada's in link-2")
    assert last_check(quiet_lms, "carol") is None  # a learner of the class with no Check: nobody else's code
    quiet_lms.platform.people["ada"] = {"course": ("course-2", "Another course")}
    assert last_check(quiet_lms, "ada") == code("ada's in course-2")


def test_a_teachers_launch_gets_no_code_back(quiet_lms):
    """A teacher's launch opens the class view: no page, no one's code, not even Checks kept for them."""
    quiet_lms.platform.people["tess"] = {"roles": [INSTRUCTOR]}
    with quiet_lms.app.extensions["db"].engine.begin() as conn:
        store.add_attempt(conn, quiet_lms.issuer, "course-1", "link-1", "tess", code("tess's"), "seed")
    checked(quiet_lms, "ada", code("ada's"))
    _, answer = launched_link(quiet_lms, "tess", "link-1")
    assert answer.status_code == 200 and "/class" in answer.url  # the class view, after its redirect
    assert "tess's" not in answer.text and "ada's" not in answer.text
    assert 'id="last-check"' not in answer.text


def test_the_code_comes_back_in_the_config_as_json_never_as_markup(quiet_lms):
    checked(quiet_lms, "ada", HOSTILE)
    page = launch(quiet_lms, "ada")
    assert config_of(page)["lti"]["lastCheck"] == HOSTILE
    assert "<script>alert(1)" not in page.text and "<!--\n" not in page.text


def test_a_last_check_kept_as_the_same_code_as_before_brings_that_code_back(quiet_lms):
    """Past the Checks a learner may have waiting (nobody judges here), a Check is skipped, and its code is
    not kept again when the same code is kept already (server/records/quota.py): the launch still brings
    that code back, the learner's last."""
    same = code("the same, Checked again and again")
    for _ in range(quiet_lms.app.config["RECORDS_QUEUED_PER_LEARNER"] + 1):
        checked(quiet_lms, "learner-s", same)
    with quiet_lms.app.app_context(), database().connect() as conn:
        latest = conn.execute(
            select(attempts.c.state, attempts.c.source).order_by(attempts.c.id.desc())
        ).first()
    assert tuple(latest) == ("skipped", None)  # its code not kept: the same as one kept
    assert last_check(quiet_lms, "learner-s") == same
