"""LTI 1.3 against a real platform (lti1p3platform): registration, launch, refusals, passback, restart.

The browser's side (an iframe with third-party cookies blocked) is tests/browser/test_lti.py.
"""

import html
import re
import time
from urllib.parse import urljoin

import jwt
import pytest
import requests

from server.lti.claims import DEPLOYMENT, RESOURCE_LINK
from tests.support import solutions
from tests.support.lti import launch_form, login, rig
from tests.support.lti_launches import (
    LAUNCH_TOKEN,
    altered,
    deep_link,
    drop,
    form_of,
    launched,
    put,
    refusal_title,
    settled,
    tampered,
    verify,
)

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast


def test_the_command_registers_the_platform_and_prints_the_urls_for_the_lms(lms):
    assert f"Registered {lms.issuer}" in lms.printed
    for line in ("Initiate login URL:", "Redirection URI(s):", "Public keyset URL (JWKS):"):
        assert line in lms.printed
    assert f"{lms.tool_url}lti/login" in lms.printed and f"{lms.tool_url}lti/jwks.json" in lms.printed


def test_a_verified_pass_lands_in_the_gradebook_once_and_a_later_fail_does_not_lower_it(lms):
    session, token = launched(lms, "learner-a")
    answer = verify(lms, session, token, solutions.CORRECT).json()
    assert answer["report"]["passed"] is True
    assert answer["grade"]["state"] == "sending"  # the queue has it: /verify does not wait for the LMS
    assert settled(lms, session, token) == {
        "state": "sent",
        "course": "Machine Learning 101",
        "message": "Sent to Machine Learning 101.",
    }
    claims = jwt.decode(answer["receipt"], options={"verify_signature": False})
    assert claims["sub"] == "learner-a" and claims["lms"] == lms.issuer
    score = lms.platform.wait_for_score("learner-a")
    assert score["scoreGiven"] == 1 and score["scoreMaximum"] == 1
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
    assert score["timestamp"].endswith("Z")
    posted = len(lms.platform.scores_posted)

    answer = verify(lms, session, token, solutions.TWICE).json()  # the server finds it wrong
    assert answer["report"]["passed"] is False and answer["grade"]["state"] == "unchanged"
    assert len(lms.platform.scores_posted) == posted  # nothing sent: the course keeps the pass
    assert lms.platform.gradebook[("backprop", "learner-a")]["scoreGiven"] == 1


REFUSALS = {
    "tampered": (tampered, 400, "The launch could not be checked"),
    "expired": (
        lambda form, lms: altered(form, lms, put("exp", int(time.time()) - 600)),
        400,
        "The launch could not be checked",
    ),
    "wrong-aud": (
        lambda form, lms: altered(form, lms, put("aud", "another-tool")),
        403,
        "This launch was meant for another tool",
    ),
    "unknown-deployment": (
        lambda form, lms: altered(form, lms, put(DEPLOYMENT, "deployment-9")),
        403,
        "This deployment is not registered here",
    ),
    "no-resource-link": (
        lambda form, lms: altered(form, lms, drop(RESOURCE_LINK)),
        400,
        "This launch does not name an activity",
    ),
    "no-state-cookie": (None, 400, "Your browser did not keep this launch's cookie"),
    "state-not-ours": (
        lambda form, lms: {**form, "state": "state-not.ours"},
        400,
        "This launch did not start here",
    ),
    "no-state": (lambda form, lms: {"id_token": form["id_token"]}, 400, "This is not a launch from a course"),
    "nothing": (lambda form, lms: {}, 400, "This is not a launch from a course"),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_launch_that_does_not_check_out_gets_a_page_that_says_why(lms, case):
    change, status, title = REFUSALS[case]
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, f"refused-{case}"))
    if change is None:
        session = requests.Session()  # a browser that kept no cookie from the login
    else:
        form = change(form, lms)
    page = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert (page.status_code, refusal_title(page)) == (status, title)
    assert not LAUNCH_TOKEN.search(page.text)  # no exercise, no launch token


def test_a_launch_whose_cookie_was_blocked_offers_a_new_window_that_launches(lms):
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, "no-cookies"))
    page = requests.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)  # the cookie is lost
    assert (page.status_code, refusal_title(page)) == (400, "Your browser did not keep this launch's cookie")
    link = html.unescape(re.search(r'<a href="([^"]+)" target="_blank"', page.text)[1])

    window = requests.Session()  # the new window: the tool is first-party there, its cookie kept
    answer = window.get(urljoin(lms.tool_url, link), allow_redirects=False, verify=lms.ca_file)
    assert answer.status_code == 302
    form = launch_form(window, answer.headers["Location"])
    page = window.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert page.status_code == 200 and LAUNCH_TOKEN.search(page.text)


def test_a_launch_replayed_is_refused(lms):
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, "replayer"))
    first = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    again = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert first.status_code == 200
    assert (again.status_code, refusal_title(again)) == (400, "This launch was already used")


def test_an_unknown_platform_is_refused_at_login(lms):
    query = {"iss": "https://lms.unknown.example", "login_hint": "x", "target_link_uri": lms.tool_url}
    page = requests.get(lms.tool_url + "lti/login", params=query, verify=lms.ca_file, allow_redirects=False)
    assert (page.status_code, refusal_title(page)) == (403, "This course's platform is not registered here")


def test_verify_refuses_an_altered_launch_token(lms):
    session, token = launched(lms, "learner-t")
    answer = verify(lms, session, token[:-4] + "AAAA", solutions.CORRECT)
    assert answer.status_code == 400 and "launch is no longer valid" in answer.json()["error"]


def test_a_passback_pending_when_the_tool_stops_is_sent_after_it_restarts(tmp_path):
    with rig(tmp_path) as lms:
        lms.tool, lms.tool_url = lms.start_tool(LTI_RETRY_S=3600)  # no retry while it runs
        lms.register(lms.tools[-1][1])
        session, token = launched(lms, "learner-r")
        lms.platform_server.stop()
        answer = verify(lms, session, token, solutions.CORRECT).json()
        assert answer["grade"]["state"] == "sending"
        assert settled(lms, session, token) == {
            "state": "pending",
            "course": "Machine Learning 101",
            "message": "Could not reach Machine Learning 101.",
        }
        lms.stop_tool(lms.tool)
        lms.platform_server.start()
        lms.start_tool(port=lms.tool.port)  # a new process would do the same: the queue is in the database
        assert lms.platform.wait_for_score("learner-r")["scoreGiven"] == 1
        assert [s["userId"] for s in lms.platform.scores_posted] == ["learner-r"]


def test_a_teacher_adds_the_exercise_to_the_course_with_deep_linking(lms):
    session, page = deep_link(lms)  # the tool's page, its choice left as offered, posted back to the tool
    assert page.status_code == 200 and "Add to the course" in page.text
    action, fields = form_of(page)
    assert action == lms.platform.url + "deep-link-return"
    assert f"form-action {lms.issuer}" in page.headers["Content-Security-Policy"]  # the form may go there

    added = session.post(action, data={"JWT": fields["JWT"]})  # the teacher's click
    assert added.status_code == 200, added.text
    (item,) = lms.platform.content_items  # checked by the platform against the tool's JWKS
    assert item["type"] == "ltiResourceLink" and item["url"] == lms.tool_url + "lti/launch"
    assert item["lineItem"]["scoreMaximum"] == 1
    # the seed's exercise (the helper's choice), the server's verdict, offered first; the learner's language
    assert item["custom"] == {"exercise": "backward", "verdict": "seed"}
    assert item["lineItem"]["resourceId"] == "backward"
