"""LTI 1.3 against a real platform (lti1p3platform): registration, launch, refusals, passback, restart.

The browser's side (an iframe with third-party cookies blocked) is tests/browser/test_lti.py.
"""

import re

import jwt
import pytest
import requests

from tests import solutions
from tests.lti import launch_form, login, rig

LAUNCH_TOKEN = re.compile(r'"launch": "(?P<token>[^"]+)"')


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    with rig(tmp_path_factory.mktemp("lti")) as made:
        made.tool, made.tool_url = made.start_tool()
        made.printed = made.register()
        yield made


def launched(lms, user: str) -> tuple[requests.Session, str]:
    """Launch as user from the platform; return the session and the page's launch token."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, user))
    page = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert page.status_code == 200, page.text
    return session, LAUNCH_TOKEN.search(page.text)["token"]


def verify(lms, session: requests.Session, token: str, source: str) -> requests.Response:
    return session.post(lms.tool_url + "verify", json={"source": source, "launch": token}, verify=lms.ca_file)


def test_the_command_registers_the_platform_and_prints_the_urls_for_the_lms(lms):
    assert f"Registered {lms.issuer}" in lms.printed
    for line in ("Initiate login URL:", "Redirection URI(s):", "Public keyset URL (JWKS):"):
        assert line in lms.printed
    assert f"{lms.tool_url}lti/login" in lms.printed and f"{lms.tool_url}lti/jwks.json" in lms.printed


def test_a_verified_pass_lands_in_the_gradebook_once_and_a_later_fail_does_not_lower_it(lms):
    session, token = launched(lms, "learner-a")
    answer = verify(lms, session, token, solutions.CORRECT).json()
    assert answer["report"]["passed"] is True
    assert answer["grade"] == {
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
