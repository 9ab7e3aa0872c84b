"""LTI Dynamic Registration against the platform's half written from the spec
(tests/support/lti_registration.py): one URL registers the LMS, then a launch and a graded pass with
the ids the LMS gave; every refusal stores nothing; registering again is an update; the registrations
are listed and removed by the command group. The page in a browser: tests/browser/test_lti_registration.py.
"""

import re
import time

import pytest
import requests

from server.lti.registered import listed
from server.lti.registration_token import token_key
from tests.support import solutions
from tests.support.lti import Served, launch_form, login
from tests.support.lti_launches import LAUNCH_TOKEN, refusal_title, settled, verify
from tests.support.lti_registration import RegisteringRig
from tests.support.postgres import database_on

pytestmark = pytest.mark.slow  # a server over HTTPS, a sandbox and a platform: not in make test-fast


def opened(dyn_lms, url: str, lang: str = "en") -> requests.Response:
    return requests.get(url, verify=dyn_lms.ca_file, headers={"Accept-Language": lang}, timeout=30)


def stored(dyn_lms) -> list[dict]:
    """The registrations in the tool's database, as `lti registrations` lists them."""
    with dyn_lms.app.app_context():
        from server.db import database

        with database().connect() as conn:
            return listed(conn)


def registered(dyn_lms) -> requests.Response:
    """Register the test platform with a new registration URL, as an administrator does."""
    page = opened(dyn_lms, dyn_lms.platform.opened(dyn_lms.registration_url(dyn_lms.app)))
    assert page.status_code == 200, page.text
    return page


def launched_with(dyn_lms, user: str) -> tuple[requests.Session, str]:
    """A learner's launch with the client id the platform gave at registration; session and launch token."""
    session = requests.Session()
    auth = login(
        session, dyn_lms, dyn_lms.tool_url, user, client_id=dyn_lms.platform.registered[-1]["client_id"]
    )
    page = session.post(
        dyn_lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=dyn_lms.ca_file
    )
    assert page.status_code == 200, page.text
    return session, LAUNCH_TOKEN.search(page.text)["token"]


def test_one_url_registers_the_lms_and_a_pass_with_its_ids_reaches_the_gradebook(dyn_lms):
    page = registered(dyn_lms)
    tool = dyn_lms.platform.registered[-1]
    assert "The playground is registered with" in page.text and "dyn-client-1" in page.text
    assert "org.imsglobal.lti.close" in page.text
    assert tool["initiate_login_uri"] == dyn_lms.tool_url + "lti/login"
    assert tool["redirect_uris"] == [dyn_lms.tool_url + "lti/launch"]
    assert tool["jwks_uri"] == dyn_lms.tool_url + "lti/jwks.json"
    assert set(tool["scope"].split()) == {
        "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
        "https://purl.imsglobal.org/spec/lti-ags/scope/score",
        "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
    }
    config = tool["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert {m["type"] for m in config["messages"]} == {"LtiResourceLinkRequest", "LtiDeepLinkingRequest"}
    assert {"iss", "sub"} <= set(config["claims"])
    assert [(r["issuer"], r["client_id"], r["deployments"]) for r in stored(dyn_lms)] == [
        (dyn_lms.issuer, "dyn-client-1", ["dyn-deployment-1"])
    ]

    session, token = launched_with(dyn_lms, "learner-dyn")
    answer = verify(dyn_lms, session, token, solutions.CORRECT).json()
    assert answer["report"]["passed"] is True
    assert settled(dyn_lms, session, token)["state"] == "sent"
    assert dyn_lms.platform.wait_for_score("learner-dyn")["scoreGiven"] == 1


def test_registering_again_updates_the_registration_and_adds_the_deployment(dyn_lms):
    registered(dyn_lms)
    dyn_lms.platform.deployment_id = "dyn-deployment-2"  # the LMS's second deployment of the tool
    moved = dyn_lms.platform.url + "authorize-moved"
    dyn_lms.platform.changes = {"authorization_endpoint": moved}
    try:
        page = registered(dyn_lms)
    finally:
        dyn_lms.platform.changes = {}
    assert "now up to date" in page.text
    rows = [r for r in stored(dyn_lms) if r["issuer"] == dyn_lms.issuer]
    assert [(r["client_id"], r["deployments"]) for r in rows] == [
        ("dyn-client-1", ["dyn-deployment-1", "dyn-deployment-2"])
    ]
    with dyn_lms.app.app_context():
        assert (
            dyn_lms.app.extensions["lti"]["store"].registration(dyn_lms.issuer, "dyn-client-1")[
                "auth_login_url"
            ]
            == moved
        )
    dyn_lms.platform.changes = {}
    registered(dyn_lms)  # and back, for the tests after this one
    dyn_lms.platform.deployment_id = "dyn-deployment-1"


def test_an_lms_that_names_no_deployment_at_registration_launches_with_the_one_it_installs(dyn_lms):
    """As Canvas does: the deployment is made when the administrator installs the tool, after registering."""
    dyn_lms.platform.client_id, dyn_lms.platform.deployment_id = "dyn-client-later", None
    try:
        page = registered(dyn_lms)
    finally:
        dyn_lms.platform.client_id, dyn_lms.platform.deployment_id = "dyn-client-1", "dyn-deployment-1"
    assert "Not named yet" in page.text
    listing = dyn_lms.app.test_cli_runner().invoke(args=["lti", "registrations"]).output
    assert f"{dyn_lms.issuer}  client id dyn-client-later  deployments any" in listing
    session, token = launched_with(dyn_lms, "learner-later")  # deployment "installed-later": taken
    assert verify(dyn_lms, session, token, solutions.CORRECT).json()["report"]["passed"] is True
    assert settled(dyn_lms, session, token)["state"] == "sent"
    registered(dyn_lms)  # the test platform launches as dyn-client-1 again, for the tests after this one


def expire(dyn_lms, url: str) -> None:
    token = re.search(r"token=([\w-]+)", url)[1]
    with dyn_lms.app.app_context():
        store = dyn_lms.app.extensions["lti"]["store"]
        held = store.get(token_key(token))
        store.put(token_key(token), held | {"expires": time.time() - 1}, 3600)


def used(dyn_lms) -> str:
    url = dyn_lms.registration_url(dyn_lms.app)
    assert opened(dyn_lms, dyn_lms.platform.opened(url)).status_code == 200
    return url


def changed(**changes):
    """A registration URL opened by the platform with its configuration changed."""

    def opening(dyn_lms) -> str:
        dyn_lms.platform.changes = changes
        return dyn_lms.platform.opened(dyn_lms.registration_url(dyn_lms.app))

    return opening


# case: (how the URL is opened, the status, the title of the page)
REFUSALS = {
    "no-token": (
        lambda dyn_lms: dyn_lms.platform.opened(dyn_lms.tool_url + "lti/register?x=1"),
        403,
        "This registration URL has no token",
    ),
    "unknown-token": (
        lambda dyn_lms: dyn_lms.platform.opened(dyn_lms.tool_url + "lti/register?token=" + "A" * 43),
        403,
        "This registration URL is not one the playground made",
    ),
    "used-token": (
        lambda dyn_lms: dyn_lms.platform.opened(used(dyn_lms)),
        403,
        "This registration URL was already used",
    ),
    "expired-token": (
        lambda dyn_lms: (lambda url: (expire(dyn_lms, url), dyn_lms.platform.opened(url))[1])(
            dyn_lms.registration_url(dyn_lms.app)
        ),
        403,
        "This registration URL has expired",
    ),
    "configuration-unreachable": (
        lambda dyn_lms: dyn_lms.platform.opened(
            dyn_lms.registration_url(dyn_lms.app), dyn_lms.platform.url + "nothing-here"
        ),
        502,
        "The LMS's configuration could not be read",
    ),
    "configuration-not-https": (
        lambda dyn_lms: dyn_lms.platform.opened(
            dyn_lms.registration_url(dyn_lms.app), "http://dyn_lms.example.org/config"
        ),
        400,
        "This registration was not opened by an LMS",
    ),
    "not-lti": (
        changed(**{"https://purl.imsglobal.org/spec/lti-platform-configuration": None}),
        502,
        "This is not an LTI 1.3 platform's configuration",
    ),
    "no-resource-links": (
        changed(**{"https://purl.imsglobal.org/spec/lti-platform-configuration": {"messages_supported": []}}),
        502,
        "This is not an LTI 1.3 platform's configuration",
    ),
    "endpoint-not-https": (
        changed(token_endpoint="http://dyn_lms.example.org/token"),
        502,
        "This is not an LTI 1.3 platform's configuration",
    ),
    "issuer-mismatch": (
        lambda dyn_lms: changed(issuer=dyn_lms.platform.url.replace("127.0.0.1", "localhost").rstrip("/"))(
            dyn_lms
        ),
        502,
        "The LMS's configuration names another site",
    ),
    "registration-endpoint-unreachable": (
        changed(registration_endpoint="http://127.0.0.1:1/register"),
        502,
        "The LMS did not take the registration",
    ),
    "other-keys": (
        lambda dyn_lms: changed(jwks_uri=dyn_lms.platform.url + "other-jwks")(dyn_lms),
        409,
        "This LMS is already registered with other keys",
    ),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_registration_that_does_not_check_out_gets_a_page_that_says_why_and_stores_nothing(dyn_lms, case):
    if not dyn_lms.platform.registered:
        registered(dyn_lms)  # "other keys" needs the platform registered first
    opening, status, title = REFUSALS[case]
    try:
        url = opening(dyn_lms)
        before, posts = stored(dyn_lms), dyn_lms.platform.posts
        page = opened(dyn_lms, url)
    finally:
        dyn_lms.platform.changes = {}
    assert (page.status_code, refusal_title(page)) == (status, title)
    assert stored(dyn_lms) == before and dyn_lms.platform.posts == posts  # nothing stored, nothing posted
    assert "org.imsglobal.lti.close" not in page.text


def test_a_registration_that_did_not_reach_the_lms_stores_nothing_and_the_url_then_serves_only_that_lms(
    dyn_lms, tmp_path
):
    """(One that reached it and was refused uses the URL up: tests/test_lti_registration_reach.py.)"""
    url = dyn_lms.registration_url(dyn_lms.app)
    before = stored(dyn_lms)
    dyn_lms.platform.changes = {"registration_endpoint": "http://127.0.0.1:1/register"}  # nothing there
    try:
        page = opened(dyn_lms, dyn_lms.platform.opened(url))
    finally:
        dyn_lms.platform.changes = {}
    assert (page.status_code, refusal_title(page)) == (502, "The LMS did not take the registration")
    assert "could not reach" in page.text and stored(dyn_lms) == before

    second = dyn_lms.another_platform()  # another LMS, on another site, with the same URL
    served = Served(second.app)
    second.url = f"http://127.0.0.1:{served.port}/"
    try:
        page = opened(dyn_lms, second.opened(url))
    finally:
        served.stop()
    assert (page.status_code, refusal_title(page)) == (403, "This registration URL was made for another LMS")
    assert second.posts == 0 and stored(dyn_lms) == before

    page = opened(dyn_lms, dyn_lms.platform.opened(url))  # the first LMS, trying again: registered
    assert page.status_code == 200, page.text


def test_a_refusal_is_said_in_the_administrators_language(dyn_lms):
    page = opened(dyn_lms, dyn_lms.platform.opened(dyn_lms.tool_url + "lti/register?x=1"), lang="de")
    assert page.status_code == 403 and '<html lang="de">' in page.text
    assert refusal_title(page) == "Diese Registrierungs-URL hat kein Token"


def test_the_command_prints_a_url_that_says_when_it_expires_and_keeps_only_its_hash(dyn_lms):
    printed = dyn_lms.app.test_cli_runner().invoke(
        args=["lti", "registration-url", "--tool-url", dyn_lms.tool_url]
    )
    token = re.search(r"/lti/register\?token=([\w-]+)", printed.output)[1]
    assert re.search(r"once, until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(24 hours from now\)", printed.output)
    kept = b"".join(path.read_bytes() for path in dyn_lms.folder.glob("lti.sqlite3*"))
    assert kept and token.encode() not in kept
    with dyn_lms.app.app_context():
        assert dyn_lms.app.extensions["lti"]["store"].get(token_key(token))["used"] is None

    nowhere = dyn_lms.app.test_cli_runner().invoke(args=["lti", "registration-url"])
    assert nowhere.exit_code != 0 and "--tool-url" in nowhere.output


def test_the_registrations_are_listed_and_removed_by_the_command_group(dyn_lms):
    if not dyn_lms.platform.registered:
        registered(dyn_lms)
    runner = dyn_lms.app.test_cli_runner()
    listing = runner.invoke(args=["lti", "registrations"]).output
    assert f"{dyn_lms.issuer}  client id dyn-client-1  deployments dyn-deployment-1" in listing
    removed = runner.invoke(
        args=["lti", "remove-registration", "--issuer", dyn_lms.issuer, "--client-id", "dyn-client-1"]
    )
    assert removed.exit_code == 0 and "Removed" in removed.output, removed.output
    assert "client id dyn-client-1 " not in runner.invoke(args=["lti", "registrations"]).output
    again = runner.invoke(
        args=["lti", "remove-registration", "--issuer", dyn_lms.issuer, "--client-id", "dyn-client-1"]
    )
    assert again.exit_code != 0 and "nothing removed" in again.output
    registered(dyn_lms)  # back, for any test after this one


def test_registering_storing_again_and_removing_work_on_postgresql_too(tmp_path_factory, postgres):
    with database_on(postgres) as url:
        made = RegisteringRig(tmp_path_factory.mktemp("dynreg-pg"), database_url=url)
        try:
            made.tool, made.tool_url = made.start_tool()
            made.app = made.tools[-1][1]
            registered(made)
            made.platform.deployment_id = "dyn-deployment-2"
            assert "now up to date" in registered(made).text
            made.platform.client_id, made.platform.deployment_id = "dyn-client-later", None
            registered(made)
            assert [(r["client_id"], r["deployments"]) for r in stored(made)] == [
                ("dyn-client-1", ["dyn-deployment-1", "dyn-deployment-2"]),
                ("dyn-client-later", []),
            ]
            session, token = launched_with(made, "learner-pg-later")  # any deployment of that client
            assert verify(made, session, token, solutions.CORRECT).json()["report"]["passed"] is True
            removed = made.app.test_cli_runner().invoke(
                args=["lti", "remove-registration", "--issuer", made.issuer, "--client-id", "dyn-client-1"]
            )
            assert "and its 2 deployment(s)" in removed.output
            assert [r["client_id"] for r in stored(made)] == ["dyn-client-later"]
        finally:
            made.close()
