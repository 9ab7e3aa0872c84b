"""The class view of an activity of another exercise than the seed's (ops), through the tests' LMS: its
teacher gets ops's counts, mistakes and groups by ops's words, its records (the downloads) name ops; a
learner of it, the teacher of another course (with an ops activity of the same id) and a stranger get
nothing of it. The records are written straight into the tool's database (tests/support/classes.py)."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from server.db import Database
from tests.support.classes import OPS_GRADED, START, Learner, build, timed
from tests.support.lti import launch_form, login
from tests.support.lti_launches import LAUNCH_TOKEN

pytestmark = pytest.mark.slow  # a real LMS and the tool served over HTTPS

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LINK = "link-ops"  # an activity Deep Linked to ops: its launches carry custom exercise=ops
MISTAKES = '<tr data-mistake="{}">'


@pytest.fixture(scope="module")
def ops_school(lms):
    """Course 1's ops activity with three learners' Checks, course 2's activity of the same id with one."""
    database = Database(lms.database_url)
    with database.connect() as conn:
        build(
            conn,
            lms.issuer,
            "course-1",
            LINK,
            [
                Learner("ana", timed(["assign", None], START), "Ana Alves"),
                Learner("ben", timed(["swapped"] * 3, START), "Ben Berg"),
                Learner("cem", timed(["no-chain", "assign"], START)),
            ],
            OPS_GRADED,
        )
        build(
            conn,
            lms.issuer,
            "course-2",
            LINK,
            [Learner("zed", timed(["swapped"], START), "Zed Zorn")],
            OPS_GRADED,
        )
    database.engine.dispose()
    lms.platform.links[LINK] = {"custom": {"exercise": "ops"}}
    lms.platform.people |= {
        "ops-teacher": {"roles": [INSTRUCTOR]},
        "ops-lehrerin": {"roles": [INSTRUCTOR], "locale": "de"},
        "ops-teacher-2": {"roles": [INSTRUCTOR], "course": ("course-2", "Deep Learning 201")},
        "ops-learner": {},
    }
    return lms


def launch(lms, user: str) -> tuple[requests.Session, requests.Response]:
    """The ops activity launched as user, redirects followed (a teacher's: to the class view)."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, user, lti_message_hint=LINK))
    return session, session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)


def get(lms, path: str, **params) -> requests.Response:
    return requests.get(lms.tool_url + path, params=params, verify=lms.ca_file)


def token_of(page: requests.Response) -> str:
    return parse_qs(urlsplit(page.url).query)["t"][0]


@pytest.mark.parametrize(
    ("user", "said"),
    [
        ("ops-teacher", ("= instead of +=", "Factors of * swapped", "out.grad left out", "a is both inputs")),
        (
            "ops-lehrerin",
            ("= statt +=", "Faktoren von * vertauscht", "out.grad fehlt", "a ist beide Eingaben"),
        ),
    ],
)
def test_its_teacher_gets_ops_counts_by_ops_words_and_its_records(ops_school, user, said):
    _, page = launch(ops_school, user)
    assert page.status_code == 200 and "/lti/class/" in page.url
    for mistake in ("assign", "swapped", "no-chain"):
        assert MISTAKES.format(mistake) in page.text
    for words in said:  # ops's mistakes' titles and a group's words, in the teacher's language
        assert words in page.text
    assert "Ana Alves" in page.text and "Zed Zorn" not in page.text  # course 2's activity: not here
    lines = [
        json.loads(line)
        for line in get(ops_school, "lti/class/checks.jsonl", t=token_of(page)).text.splitlines()
    ]
    assert len(lines) == 7 and {line["exercise"] for line in lines} == {"ops"}
    assert {line["mistake"] for line in lines} == {"assign", "swapped", "no-chain", None}


def test_a_learner_of_it_gets_ops_page_and_nothing_of_its_class_view_or_records(ops_school):
    session, page = launch(ops_school, "ops-learner")
    assert page.status_code == 200 and "/lti/class/" not in page.url
    assert '"exercise": "ops"' in page.text
    token = LAUNCH_TOKEN.search(page.text)["token"]
    for path in ("lti/class/", "lti/class/checks.jsonl", "lti/class/learners.csv", "lti/class/exercise"):
        refused = session.get(ops_school.tool_url + path, params={"t": token}, verify=ops_school.ca_file)
        assert refused.status_code == 403 and "Ana" not in refused.text and "assign" not in refused.text


def test_the_teacher_of_another_course_gets_their_own_ops_activity_only(ops_school):
    _, page = launch(ops_school, "ops-teacher-2")
    assert "Zed Zorn" in page.text and "Ana Alves" not in page.text
    assert MISTAKES.format("swapped") in page.text and MISTAKES.format("assign") not in page.text
    lines = get(ops_school, "lti/class/checks.jsonl", t=token_of(page)).text.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["exercise"] == "ops"
    missing = get(ops_school, f"lti/class/learner/{Learner('ana').learner}", t=token_of(page))
    assert missing.status_code == 404


def test_a_stranger_gets_nothing_of_it(ops_school):
    for path in ("lti/class/", "lti/class/checks.jsonl", "lti/class/learners.csv", "lti/class/exercise"):
        for params in ({}, {"t": "nonsense"}):
            refused = get(ops_school, path, **params)
            assert refused.status_code == 403 and "Ana" not in refused.text and "assign" not in refused.text
