"""LTI state in PostgreSQL (a real server from Debian): two instances of the playground share it."""

import pytest
import requests

from tests.support import solutions
from tests.support.lti import launch_form, login, rig
from tests.support.lti_launches import LAUNCH_TOKEN, refusal_title
from tests.support.postgres import postgres_server

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast


@pytest.fixture(scope="module")
def two_instances(tmp_path_factory):
    """Two playgrounds on one PostgreSQL database (and one key file), as behind a load balancer."""
    with postgres_server() as url, rig(tmp_path_factory.mktemp("lti-pg"), database_url=url) as lms:
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
    assert answer["grade"]["state"] == "sending"  # queued in the database, sent by the sender thread
    assert lms.platform.wait_for_score("learner-pg")["scoreGiven"] == 1
