"""An activity of another exercise than the seed's, through the tests' LMS (issue 51, P5): Deep Linking
offers each served exercise (its title in the teacher's language), then that exercise's verdicts; ops's
activity launches ops's page, which /verify grades as ops (a named mistake, the reference; the launch's
exercise wins over the page's), records and sends to the gradebook; its class view counts ops's mistake
by ops's own words, in English and German, in ops's order. A choice or a launch naming an exercise not
served, or a verdict its exercise does not have, is refused with a page that names it; an activity added
before exercises (no custom `exercise`) stays the seed's."""

import html
import json
import re

import jwt
import pytest
import requests
from sqlalchemy import select

from server import ROOT
from server.db.tables import launches
from tests.support import solutions
from tests.support.exercise_folders import COURSE
from tests.support.exercise_folders import title as title_of
from tests.support.lti import launch_form, login
from tests.support.lti_launches import (
    LAUNCH_TOKEN,
    added,
    deep_link,
    form_of,
    launched_link,
    recorded_checks,
    refusal_title,
    table,
)

pytestmark = pytest.mark.slow  # a real LMS, the tool over HTTPS, real sandboxes

OPS = ROOT / "exercises/ops"
REFERENCE = (OPS / "reference.py").read_text()
ASSIGN = (OPS / "mistakes/assign.py").read_text()  # ops's named mistake `assign`: = for +=
CUSTOM = "https://purl.imsglobal.org/spec/lti/claim/custom"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
# each served exercise's title, in the course's order (exercises/course.json)
TITLES = {lang: [title_of(exercise, lang) for exercise in COURSE] for lang in ("en", "de")}


def offered(lms, user: str) -> requests.Response:
    """The first Deep Linking page a teacher gets: the served exercises."""
    session = requests.Session()
    auth = login(session, lms, lms.tool_url, user, lti_message_hint="deep-link")
    return session.post(lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=lms.ca_file)


def config_of(page: requests.Response) -> dict:
    return json.loads(
        html.unescape(re.search(r'<script[^>]*id="config"[^>]*>(.*?)</script>', page.text, re.S)[1])
    )


def check(lms, session, token: str, source: str, **fields) -> requests.Response:
    body = {"source": source, "launch": token, **fields}
    return session.post(lms.tool_url + "verify", json=body, verify=lms.ca_file)


def row_of(page: requests.Response, testid: str) -> str:
    return " ".join(re.search(rf'data-testid="{testid}">(.*?)</p>', page.text, re.S)[1].split())


@pytest.mark.parametrize("lang", TITLES)
def test_deep_linking_offers_each_served_exercise_then_its_own_verdicts(lms, lang):
    lms.platform.people[f"teacher-{lang}"] = {"roles": [INSTRUCTOR], "locale": lang}
    page = offered(lms, f"teacher-{lang}")
    assert page.status_code == 200, page.text
    choices = re.findall(r'name="exercise" value="([^"]+)"(?: checked)?> <span>(.*?) \(<code>', page.text)
    assert choices == list(zip(COURSE, TITLES[lang], strict=True))
    assert 'name="verdict"' not in page.text  # the verdicts come with the exercise chosen

    _, chosen = deep_link(lms, f"teacher-{lang}", exercise="ops", language="")
    action, fields = form_of(chosen)
    assert chosen.status_code == 200 and fields["JWT"]
    assert "<code>all</code>" in chosen.text and "<code>strict</code>" not in chosen.text
    said = "Every group of the exercise right" if lang == "en" else "Jede Gruppe der Übung richtig"
    assert said in chosen.text  # ops's one verdict, in words
    before = len(lms.platform.content_items)
    assert requests.post(action, data={"JWT": fields["JWT"]}).status_code == 200
    item = lms.platform.content_items[before]
    assert item["custom"] == {"exercise": "ops", "verdict": "all"}  # the learner's own language
    playground = "Backprop playground" if lang == "en" else "Backprop-Playground"
    assert item["title"] == item["lineItem"]["label"] == f"{playground}: {TITLES[lang][0]}"
    assert item["lineItem"]["resourceId"] == "ops"


def test_an_ops_activity_launches_ops_grades_ops_and_its_class_view_counts_ops_mistakes(lms):
    link = added(lms, exercise="ops", language="")
    session, page = launched_link(lms, "learner-ops", link)
    assert page.status_code == 200, page.text
    config = config_of(page)
    assert config["exercise"] == "ops" and config["publicPage"].endswith("/exercises/ops/")
    assert config["verdict"] == "all" and config["storage"] == "/ops"
    (row,) = table(lms, select(launches).where(launches.c.sub == "learner-ops"))
    assert (row["exercise"], row["rule"]) == ("ops", "all")
    token = LAUNCH_TOKEN.search(page.text)["token"]

    # a page that names another exercise than its launch's is refused; one that names none is the launch's
    refused = check(lms, session, token, REFERENCE, exercise="backward")
    assert refused.status_code == 400 and "opened the exercise ops" in refused.json()["error"]
    answer = check(lms, session, token, solutions.CORRECT).json()  # the seed's right code: not ops's
    assert answer["report"]["passed"] is False and answer["report"]["exercise"] == "ops"
    answer = check(lms, session, token, ASSIGN, exercise="ops").json()
    assert answer["report"]["passed"] is False and answer["grade"]["state"] == "unchanged"
    answer = check(lms, session, token, REFERENCE, exercise="ops").json()
    assert answer["report"]["passed"] is True
    claims = jwt.decode(answer["receipt"], options={"verify_signature": False})
    assert (claims["exercise"], claims["rule"]) == ("ops", "all")
    assert lms.platform.wait_for_score("learner-ops")["scoreGiven"] == 1  # ops's pass, in the gradebook
    checks = [(c["exercise"], c["mistake"], c["passed"]) for c in recorded_checks(lms, "learner-ops")]
    assert checks[1:] == [("ops", "assign", False), ("ops", None, True)]
    assert checks[0][0] == "ops" and checks[0][2] is False

    lms.platform.people |= {
        "teacher-ops": {"roles": [INSTRUCTOR], "locale": "en"},
        "lehrerin-ops": {"roles": [INSTRUCTOR], "locale": "de"},
    }
    said = {
        "teacher-ops": ("Pass gradients through", "= instead of +=", "Every group of the exercise right"),
        "lehrerin-ops": ("Gradienten durch + und *", "= statt +=", "Jede Gruppe der Übung richtig"),
    }
    for teacher, (title, assign, verdict) in said.items():
        session, view = launched_link(lms, teacher, link)
        assert "/lti/class/" in view.url, view.text
        assert title in row_of(view, "exercise") and "<code>ops</code>" in row_of(view, "exercise")
        assert verdict in row_of(view, "rule") and "<code>all</code>" in row_of(view, "rule")
        mistake = re.search(
            r'<tr data-mistake="assign">\s*<th scope="row"><span class="name">(.*?)</span>', view.text
        )
        assert html.unescape(mistake[1]) == assign  # ops's title of its mistake, in the teacher's language
        groups = re.findall(r'<tr><th scope="row"><code>([^<]*)</code>', view.text)
        assert [html.unescape(g) for g in groups] == ["a*b", "a+a", "a*b+a", "a+b", "a*a"]  # ops's order
        opened = re.search(r'<a href="([^"]*)" data-testid="to-exercise"', view.text)[1]
        tried = session.get(lms.tool_url.rstrip("/") + html.unescape(opened), verify=lms.ca_file)
        assert config_of(tried)["exercise"] == "ops" and config_of(tried)["verdict"] == "all"
    assert "a ist beide Eingaben" in view.text  # what a group tests, in ops's German words


@pytest.mark.parametrize(
    ("custom", "named", "known"),
    [
        ({"exercise": "nope"}, "exercise", "ops, backward, step"),
        ({"exercise": "ops", "verdict": "strict"}, "verdict", "all"),
    ],
)
def test_a_launch_naming_an_exercise_not_served_or_a_verdict_not_its_own_is_refused(
    lms, custom, named, known
):
    lms.platform.people["learner-odd"] = {"claims": {CUSTOM: custom}}
    _, page = launched_link(lms, "learner-odd", "link-1")
    assert page.status_code == 400
    assert refusal_title(page) == "This activity asks for something the playground does not have"
    assert f"custom parameter {named} is" in page.text and f"the playground has {known}" in page.text
    assert not table(lms, select(launches).where(launches.c.sub == "learner-odd"))


def test_a_choice_of_an_exercise_not_served_or_a_verdict_not_its_own_is_refused_by_name(lms):
    _, page = deep_link(lms, exercise="nope")
    assert page.status_code == 400 and "Add to the course" not in page.text
    assert "no exercise &#39;nope&#39;; it serves ops, backward, step" in page.text
    _, page = deep_link(lms, exercise="ops", verdict="strict")
    assert page.status_code == 400 and "Add to the course" not in page.text
    assert "The exercise ops has no verdict &#39;strict&#39;; it has all" in page.text


def test_an_activity_added_before_exercises_stays_the_seeds(lms):
    """link-1 has no custom parameters, as an activity added before exercises: the seed's page, grade."""
    session, page = launched_link(lms, "learner-old", "link-1")
    assert config_of(page)["exercise"] == "backward"
    (row,) = table(lms, select(launches).where(launches.c.sub == "learner-old"))
    assert row["exercise"] == "backward"
    token = LAUNCH_TOKEN.search(page.text)["token"]
    assert check(lms, session, token, REFERENCE, exercise="ops").status_code == 400
    answer = check(lms, session, token, solutions.CORRECT, exercise="backward").json()
    assert answer["report"]["passed"] is True and answer["report"]["exercise"] == "backward"
    assert lms.platform.wait_for_score("learner-old")["scoreGiven"] == 1
