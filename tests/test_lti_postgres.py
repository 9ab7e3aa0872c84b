"""LTI state in PostgreSQL (a real server from Debian): two instances of the playground share it."""

import jwt
import pytest
import requests

from server.lti.claims import DEPLOYMENT
from tests.support import solutions
from tests.support.lti import launch_form, login, rig
from tests.support.lti_launches import LAUNCH_TOKEN, refusal_title
from tests.support.lti_platform import rsa_pair
from tests.support.postgres import database_on

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast


@pytest.fixture(scope="module")
def two_instances(tmp_path_factory, postgres):
    """Two playgrounds on one PostgreSQL database (and one key file), as behind a load balancer."""
    with database_on(postgres) as url, rig(tmp_path_factory.mktemp("lti-pg"), database_url=url) as lms:
        lms.first, lms.first_url = lms.start_tool()
        lms.second, lms.second_url = lms.start_tool()
        lms.register()
        yield lms


def test_a_login_on_one_instance_launches_on_the_other_and_its_pass_is_graded_there(two_instances):
    lms = two_instances
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.first_url, "learner-pg"))  # nonce kept by the first
    page = session.post(lms.second_url + "lti/launch", data=form, verify=lms.ca_file)  # checked by the second
    assert page.status_code == 200
    again = session.post(lms.first_url + "lti/launch", data=form, verify=lms.ca_file)  # replayed on the first
    assert (again.status_code, refusal_title(again)) == (400, "This launch was already used")

    token = LAUNCH_TOKEN.search(page.text)["token"]
    answer = session.post(
        lms.first_url + "verify", json={"source": solutions.CORRECT, "launch": token}, verify=lms.ca_file
    ).json()  # the launch the second instance stored, found by the first
    assert answer["grade"]["state"] == "sending"  # queued; a task either instance takes sends it
    assert lms.platform.wait_for_score("learner-pg")["scoreGiven"] == 1


def test_a_nul_no_postgresql_text_keeps_gets_a_page_in_a_login_and_a_forged_launch(two_instances):
    lms = two_instances
    query = {"iss": lms.issuer + "\x00", "login_hint": "x", "target_link_uri": lms.first_url}
    answer = requests.get(
        lms.first_url + "lti/login", params=query, verify=lms.ca_file, allow_redirects=False
    )
    assert (answer.status_code, refusal_title(answer)) == (400, "This login request is not one an LMS sends")
    assert "holds a character that is not text" in answer.text
    other_private, _ = rsa_pair()
    for claim in ("nonce", "iss", "aud", DEPLOYMENT):  # each looked up before the signature is checked
        session = requests.Session()
        form = launch_form(session, login(session, lms, lms.first_url, f"nul-{claim}"))
        claims = jwt.decode(form["id_token"], options={"verify_signature": False})
        forged = jwt.encode({**claims, claim: f"{claims[claim]}\x00"}, other_private, "RS256")
        forged_form = {**form, "id_token": forged}
        page = session.post(lms.first_url + "lti/launch", data=forged_form, verify=lms.ca_file)
        assert (page.status_code, refusal_title(page)) == (400, "The launch could not be read"), claim
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.first_url, "after-nul"))
    page = session.post(lms.first_url + "lti/launch", data=form, verify=lms.ca_file)
    assert page.status_code == 200 and LAUNCH_TOKEN.search(page.text)
