"""The teacher's choice for an activity, from Deep Linking to each launch: its verdict and its language
reach the page, /verify's receipt, the grade and the recorded Checks; without one, the server's setting;
a custom value the server does not know is refused (server/lti/activity.py)."""

import html
import re

import jwt
import pytest
from sqlalchemy import select

from server.db.tables import attempts, launches
from tests.support import solutions
from tests.support.lti_launches import (
    LAUNCH_TOKEN,
    added,
    deep_link,
    launched,
    launched_link,
    recorded_checks,
    refusal_title,
    table,
    verify,
)

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

CUSTOM = "https://purl.imsglobal.org/spec/lti/claim/custom"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


def recorded_rules(lms, sub: str) -> list[str]:
    """The rules of sub's recorded Checks, once none is queued."""
    return [r["rule"] for r in recorded_checks(lms, sub)]


def test_strict_and_german_chosen_in_deep_linking_hold_from_the_launch_to_the_grade(lms):
    session, page = deep_link(lms, verdict="strict", language="de")
    assert "strict" in page.text and "Deutsch" in page.text  # what the teacher is adding, said once more
    link = added(lms, verdict="strict", language="de")
    assert lms.platform.links[link]["custom"] == {
        "exercise": "backward",
        "verdict": "strict",
        "language": "de",
    }

    session, page = launched_link(lms, "learner-strict", link)
    assert page.status_code == 200, page.text
    assert '<html lang="de"' in page.text  # the activity's language
    assert re.search(r'"verdict":\s*"strict"', page.text)  # the page's config: its cases' rule
    token = LAUNCH_TOKEN.search(page.text)["token"]
    (row,) = table(lms, select(launches).where(launches.c.sub == "learner-strict"))
    assert (row["exercise"], row["rule"], row["language"]) == ("backward", "strict", "de")

    answer = verify(lms, session, token, solutions.PRE_ORDER).json()  # the seed's three right, a wrong order
    assert answer["report"]["passed"] is False and answer["report"]["rule"] == "strict"
    assert answer["grade"]["state"] == "unchanged"
    answer = verify(lms, session, token, solutions.CORRECT).json()
    assert answer["report"]["passed"] is True
    assert jwt.decode(answer["receipt"], options={"verify_signature": False})["rule"] == "strict"
    assert lms.platform.wait_for_score("learner-strict")["scoreGiven"] == 1
    assert recorded_rules(lms, "learner-strict") == ["strict", "strict"]

    lms.platform.people["teacher-2"] = {"roles": [INSTRUCTOR]}
    _, view = launched_link(lms, "teacher-2", link)  # the activity's teacher: its class view
    assert "/lti/class/" in view.url
    shown = re.search(r'<p data-testid="rule">(.*?)</p>', view.text, re.S)[1]
    assert "<code>strict</code>" in shown
    _, view = launched_link(lms, "teacher-2", "link-1")  # an activity with no choice: the server's
    assert "<code>seed</code>" in re.search(r'<p data-testid="rule">(.*?)</p>', view.text, re.S)[1]


def test_open_the_exercise_from_a_strict_german_activitys_class_view_is_strict_and_german(lms):
    """The class view's Open the exercise is the exercise its learners get: the activity's verdict and
    language, a pass judged by its verdict (a learner's code pasted there is judged as theirs was); the
    teacher's Checks are not the class's, and their pass goes to no gradebook."""
    link = added(lms, verdict="strict", language="de")
    lms.platform.people["teacher-en"] = {"roles": [INSTRUCTOR], "locale": "en"}
    session, view = launched_link(lms, "teacher-en", link)
    assert "/lti/class/" in view.url and '<html lang="en"' in view.text  # the view: the teacher's LMS's
    links = re.findall(r'<a href="([^"]*)"[^>]*>Open the exercise</a>', view.text)
    assert len(links) == 2 and len(set(links)) == 1  # the top's and the lead's
    page = session.get(lms.tool_url.rstrip("/") + html.unescape(links[0]), verify=lms.ca_file)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert '<html lang="de"' in page.text  # the activity's language
    assert re.search(r'"verdict":\s*"strict"', page.text)  # its cases: the activity's verdict
    token = LAUNCH_TOKEN.search(page.text)["token"]

    answer = verify(lms, session, token, solutions.PRE_ORDER).json()  # passes under seed, not strict
    assert answer["report"]["passed"] is False and answer["report"]["rule"] == "strict"
    answer = verify(lms, session, token, solutions.CORRECT).json()
    assert answer["report"]["passed"] is True and answer["report"]["rule"] == "strict"
    assert answer["grade"]["state"] == "none"  # nothing queued for the LMS's gradebook
    record = {"source": solutions.PRE_ORDER, "launch": token}
    assert session.post(lms.tool_url + "record", json=record, verify=lms.ca_file).status_code == 204
    assert table(lms, select(attempts).where(attempts.c.sub == "teacher-en")) == []


def test_without_a_choice_the_servers_verdict_and_the_learners_language_hold(lms):
    session, token = launched(lms, "learner-plain")  # link-1: an activity with no custom parameters
    (row,) = table(lms, select(launches).where(launches.c.sub == "learner-plain"))
    assert (row["exercise"], row["rule"], row["language"]) == ("backward", None, None)  # an old activity's
    answer = verify(lms, session, token, solutions.PRE_ORDER).json()
    assert answer["report"]["passed"] is True and answer["report"]["rule"] == "seed"  # PLAYGROUND_VERDICT
    assert jwt.decode(answer["receipt"], options={"verify_signature": False})["rule"] == "seed"
    assert recorded_rules(lms, "learner-plain") == ["seed"]

    link = added(lms, language="")  # the learner's own language: no language parameter
    assert lms.platform.links[link]["custom"] == {"exercise": "backward", "verdict": "seed"}
    lms.platform.people["learner-de"] = {"locale": "de-DE"}
    _, page = launched_link(lms, "learner-de", link)
    assert '<html lang="de"' in page.text  # their LMS's language


@pytest.mark.parametrize(
    ("custom", "named"),
    [({"verdict": "lenient"}, "verdict"), ({"verdict": "seed", "language": "xx"}, "language")],
)
def test_a_custom_value_the_server_does_not_know_is_refused_with_a_page_naming_it(lms, custom, named):
    lms.platform.people["learner-forged"] = {"claims": {CUSTOM: custom}}
    _, page = launched_link(lms, "learner-forged", "link-1")
    assert page.status_code == 400
    assert refusal_title(page) == "This activity asks for something the playground does not have"
    assert f"custom parameter {named} is" in page.text
    assert ("seed, strict" if named == "verdict" else "en, de") in page.text  # what the server has
    assert not table(lms, select(launches).where(launches.c.sub == "learner-forged"))


def test_a_choice_that_did_not_come_from_the_tools_page_is_refused(lms):
    session, page = deep_link(lms, verdict="lenient")
    assert page.status_code == 400 and "Add to the course" not in page.text
    session, page = deep_link(lms, offer="forged")
    assert page.status_code == 403 and "Add to the course" not in page.text


def test_an_activity_that_names_no_exercise_on_a_server_without_the_seeds_is_refused_saying_so(tmp_path):
    """An activity added before exercises names none and so opens the seed's; a server whose course leaves
    the seed's out refuses it saying that, not that its custom parameter names the seed's."""
    from flask import g

    from server import create_app
    from server.lti import activity, views

    (tmp_path / "course.json").write_text('{"exercises": ["ops", "step"]}')
    app = create_app({"TESTING": True, "EXERCISES": str(tmp_path)})
    with app.test_request_context("/lti/launch"):
        g.launch_locale = "en"
        with pytest.raises(activity.UnknownChoice) as unnamed:
            activity.chosen({CUSTOM: {}})
        assert not unnamed.value.named and unnamed.value.known == ["ops", "step"]
        with pytest.raises(activity.UnknownChoice) as named:
            activity.chosen({CUSTOM: {"exercise": "backward"}})
        assert named.value.named
        page = views.unknown_choice(unnamed.value).get_data(as_text=True)
    assert "It names no exercise" in page and "custom parameter" not in page
    assert "ops, step" in page
