"""Dynamic Registration stays off the host's network, spends its URL once, and replaces no other LMS's
URLs (issue 48, finding 3): against the platform's half written from the spec
(tests/support/lti_registration.py), with a real tool over HTTPS and its database (SQLite; the race on
PostgreSQL too).

- Every fetch of the flow (the configuration's GET, the registration's POST) is refused when its host
  resolves to a private, loopback or link-local address, unless LTI_PRIVATE_ADDRESSES; and
  each looks its name up once and connects to the address it checked.
- The LMS's own words in an answer are not shown in the page.
- A refused attempt that reached the LMS spends the URL; one that did not reach it keeps it.
- Two LMSs opening one URL at once: one registers, the other gets the "already used" page.
- A registration whose client id is already registered, naming other login and token URLs, is refused
  unless its registration endpoint is on the LMS's own site.
- The shapes a hosted Canvas sends (app/controllers/lti/ims/dynamic_registration_controller.rb).
"""

import re
import socket
import ssl
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
import trustme

from server.lti.openid import RegistrationError, check_configuration, fetch_configuration
from server.lti.registration_token import token_key
from server.lti.tool_registration import post_registration
from tests.support.lti import Served
from tests.support.lti_launches import refusal_title
from tests.support.lti_registration import REFUSAL_WORDS, RegisteringRig
from tests.support.postgres import database_on

pytestmark = pytest.mark.slow  # a tool over HTTPS and a platform: not in make test-fast

PRIVATE = "The LMS's address is on the playground server's own network"
USED = "This registration URL was already used"


def opened(rig, url: str) -> requests.Response:
    return requests.get(url, verify=rig.ca_file, timeout=30)


def kept_token(rig, url: str) -> dict:
    token = re.search(r"token=([\w-]+)", url)[1]
    with rig.app.app_context():
        return rig.app.extensions["lti"]["store"].get(token_key(token))


def started(folder, database_url: str | None = None, **settings) -> RegisteringRig:
    made = RegisteringRig(folder, database_url=database_url)
    made.tool, made.tool_url = made.start_tool(**settings)
    made.app = made.tools[-1][1]
    return made


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A tool as a host runs it: its registration reaches no private address (the setting's default)."""
    made = started(tmp_path_factory.mktemp("dynreg-guarded"), LTI_PRIVATE_ADDRESSES=False)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module")
def allowed(tmp_path_factory):
    """A tool whose host allows its LMS on the host's network (the tests' LMS is on loopback)."""
    made = started(tmp_path_factory.mktemp("dynreg-allowed"))
    try:
        yield made
    finally:
        made.close()


# Where an LMS's configuration was said to be, each on the host's own network (after DNS for the names).
ON_THE_HOSTS_NETWORK = {
    "loopback-address": lambda port: f"http://127.0.0.1:{port}/.well-known/openid-configuration",
    "loopback-name": lambda port: f"https://localhost:{port}/.well-known/openid-configuration",
    "loopback-ipv6": lambda port: f"https://[::1]:{port}/.well-known/openid-configuration",
    "link-local": lambda port: "https://169.254.169.254/latest/meta-data/",
    "private": lambda port: "https://10.255.255.1/.well-known/openid-configuration",
}


@pytest.mark.parametrize("where", ON_THE_HOSTS_NETWORK)
def test_a_configuration_on_the_hosts_network_is_refused_unread_and_the_url_kept(guarded, where):
    lms = guarded.platform
    url = guarded.registration_url(guarded.app)
    reads, posts = lms.reads, lms.posts
    page = opened(guarded, lms.opened(url, ON_THE_HOSTS_NETWORK[where](guarded.platform_server.port)))
    assert (page.status_code, refusal_title(page)) == (403, PRIVATE), page.text
    assert "LTI_PRIVATE_ADDRESSES" in page.text
    assert (lms.reads, lms.posts) == (reads, posts)  # nothing fetched, nothing posted
    assert kept_token(guarded, url)["used"] is None  # nothing reached: the URL still works


def test_the_registration_post_is_refused_on_the_hosts_network_too(guarded):
    lms = guarded.platform
    posts = lms.posts
    with guarded.app.test_request_context("/lti/register"):
        for endpoint in (
            lms.url + "register-tool",
            lms.url.replace("127.0.0.1", "localhost") + "register-tool",
        ):
            with pytest.raises(RegistrationError) as refused:
                post_registration(endpoint, "a-token", {"client_name": "x"})
            assert refused.value.title == PRIVATE
        with pytest.raises(RegistrationError) as refused:
            fetch_configuration(lms.configuration_url)
        assert refused.value.title == PRIVATE
    assert lms.posts == posts


def test_with_the_setting_the_lms_on_loopback_registers(allowed):
    page = opened(allowed, allowed.platform.opened(allowed.registration_url(allowed.app)))
    assert page.status_code == 200, page.text


@pytest.fixture
def named_lms(allowed, tmp_path, monkeypatch):
    """The test LMS over HTTPS under two names the tool looks up (configuration and registration
    endpoint), each answering 127.0.0.1 at its first lookup and 127.0.0.2 (where nothing listens) at any
    later one: a tool that looked a name up again to connect would not reach the LMS."""
    ca = trustme.CA()
    ca.cert_pem.write_to_path(tmp_path / "ca.pem")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tmp_path / "ca.pem"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("lms.test", "register.lms.test").configure_cert(context)
    lms = allowed.another_platform()
    served = Served(lms.app, ssl_context=context)
    lms.url = f"https://lms.test:{served.port}/"
    lms.changes = {"registration_endpoint": f"https://register.lms.test:{served.port}/register-tool"}
    lookups: dict[str, int] = {}
    real = socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host not in ("lms.test", "register.lms.test"):
            return real(host, port, *args, **kwargs)
        lookups[host] = lookups.get(host, 0) + 1
        address = "127.0.0.1" if lookups[host] == 1 else "127.0.0.2"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    try:
        yield lms, lookups
    finally:
        served.stop()


def test_each_fetch_looks_its_name_up_once_and_connects_to_the_address_it_checked(allowed, named_lms):
    lms, lookups = named_lms
    page = opened(allowed, lms.opened(allowed.registration_url(allowed.app)))
    assert page.status_code == 200, page.text
    assert lookups == {"lms.test": 1, "register.lms.test": 1}
    assert lms.registered[-1]["client_id"] == "dyn-client-1"


# What an LMS's answer may hold that the page must not show: its own words, or values it named.
ANSWERS = {
    "refusal": ({"refusal": 400}, "HTTP 400"),
    "client-id-not-text": ({"answer": {"client_id": {"said": REFUSAL_WORDS}}}, "client id"),
}


@pytest.mark.parametrize("case", ANSWERS)
def test_the_page_shows_none_of_the_lms_answer(allowed, case):
    changes, said = ANSWERS[case]
    lms = allowed.platform
    url = allowed.registration_url(allowed.app)
    for field, value in changes.items():
        setattr(lms, field, value)
    try:
        page = opened(allowed, lms.opened(url))
    finally:
        lms.refusal, lms.answer = None, None
    assert (page.status_code, refusal_title(page)) == (502, "The LMS did not take the registration")
    assert said in page.text
    assert "ask-the-LMS-admin" not in page.text and "said" not in page.text


def test_a_refusal_that_reached_the_lms_spends_the_url_and_one_that_did_not_keeps_it(allowed):
    lms = allowed.platform
    url = allowed.registration_url(allowed.app)
    lms.changes = {"registration_endpoint": "http://127.0.0.1:1/register"}  # nothing listens: not reached
    try:
        page = opened(allowed, lms.opened(url))
    finally:
        lms.changes = {}
    assert (page.status_code, refusal_title(page)) == (502, "The LMS did not take the registration")
    assert kept_token(allowed, url)["used"] is None

    lms.refusal = 400  # reached, and refused
    try:
        page = opened(allowed, lms.opened(url))
    finally:
        lms.refusal = None
    assert (page.status_code, refusal_title(page)) == (502, "The LMS did not take the registration")
    again = opened(allowed, lms.opened(url))
    assert (again.status_code, refusal_title(again)) == (403, USED)
    assert "refused" in again.text


def race(made: RegisteringRig) -> None:
    """Two LMSs open one registration URL at once (each reads its configuration while the other does)."""
    first = made.platform
    second = made.another_platform()
    served = Served(second.app)
    second.url = f"http://127.0.0.1:{served.port}/"
    first.gate = second.gate = threading.Barrier(2, timeout=10)
    url = made.registration_url(made.app)
    try:
        with ThreadPoolExecutor(2) as pool:
            pages = list(pool.map(lambda lms: opened(made, lms.opened(url)), (first, second)))
    finally:
        first.gate = second.gate = None
        served.stop()
    said = sorted(
        (page.status_code, refusal_title(page) if page.status_code != 200 else "") for page in pages
    )
    assert said == [(200, ""), (403, USED)], [page.text for page in pages]
    assert first.posts + second.posts == 1
    assert len(first.registered) + len(second.registered) == 1


def test_two_lmss_opening_one_url_at_once_register_one(tmp_path):
    made = started(tmp_path)
    try:
        race(made)
    finally:
        made.close()


def test_two_lmss_opening_one_url_at_once_register_one_on_postgresql(tmp_path, postgres):
    with database_on(postgres) as database_url:
        made = started(tmp_path, database_url=database_url)
        try:
            race(made)
        finally:
            made.close()


def test_a_registration_does_not_replace_a_registered_lms_login_and_token_urls(allowed):
    """Its issuer and public key set URL, from a configuration on the LMS's site, but a registration
    endpoint elsewhere that answers the registered client id: the login and token URLs stay."""
    lms = allowed.platform
    if not lms.registered:
        assert opened(allowed, lms.opened(allowed.registration_url(allowed.app))).status_code == 200
    elsewhere = allowed.another_platform()
    served = Served(elsewhere.app)
    elsewhere.url = f"http://127.0.0.1:{served.port}/"
    url = lms.opened(allowed.registration_url(allowed.app))
    elsewhere.tokens.add(re.search(r"registration_token=([\w-]+)", url)[1])
    lms.changes = {
        "authorization_endpoint": elsewhere.url + "authorize",
        "token_endpoint": elsewhere.url + "token",
        "registration_endpoint": elsewhere.url + "register-tool",
    }
    try:
        page = opened(allowed, url)
    finally:
        lms.changes = {}
        served.stop()
    assert (page.status_code, refusal_title(page)) == (409, "This LMS is already registered with other URLs")
    with allowed.app.app_context():
        kept = allowed.app.extensions["lti"]["store"].registration(allowed.issuer, "dyn-client-1")
    assert (kept["auth_login_url"], kept["auth_token_url"]) == (lms.url + "authorize", lms.url + "token")


# A hosted Canvas, as its source makes them: the configuration's URL on the issuer's host (the host of
# lti_iss, https://canvas.instructure.com) with the registration token in its query, the issuer lti_iss,
# the registration endpoint on the host the configuration was read from, the login, token and keys on
# the OIDC domain (sso.canvaslms.com).
CANVAS_URL = (
    "https://canvas.instructure.com/api/lti/security/openid-configuration?registration_token=eyJ0.eyJ1.c2ln"
)
CANVAS = {
    "issuer": "https://canvas.instructure.com",
    "authorization_endpoint": "https://sso.canvaslms.com/api/lti/authorize_redirect",
    "registration_endpoint": "https://canvas.instructure.com/api/lti/registrations",
    "jwks_uri": "https://sso.canvaslms.com/api/lti/security/jwks",
    "token_endpoint": "https://sso.canvaslms.com/login/oauth2/token",
    "token_endpoint_auth_methods_supported": ["private_key_jwt"],
    "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
    "scopes_supported": ["openid", "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
    "response_types_supported": ["id_token"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "claims_supported": ["sub", "iss", "name", "given_name", "family_name", "nickname", "picture", "email"],
    "subject_types_supported": ["public"],
    "authorization_server": "https://sso.canvaslms.com/login/oauth2/token",
    "https://purl.imsglobal.org/spec/lti-platform-configuration": {
        "product_family_code": "canvas",
        "version": "OpenSource",
        "messages_supported": [
            {"type": "LtiResourceLinkRequest", "placements": ["ContentArea"]},
            {"type": "LtiDeepLinkingRequest", "placements": ["ContentArea", "RichTextEditor"]},
        ],
        "https://canvas.instructure.com/lti/account_name": "School",
    },
}


def test_the_configuration_a_hosted_canvas_sends_passes_the_issuer_check():
    checked = check_configuration(CANVAS_URL, CANVAS)
    assert checked["issuer"] == "https://canvas.instructure.com"
    assert checked["registration_endpoint"] == "https://canvas.instructure.com/api/lti/registrations"
    assert checked["deep_linking"] and checked["product"] == "canvas"
    # the institution's host is not where Canvas puts it (only its development mode does): another site
    elsewhere = CANVAS_URL.replace("canvas.instructure.com", "school.instructure.com")
    with pytest.raises(RegistrationError) as refused:
        check_configuration(elsewhere, CANVAS)
    assert refused.value.title == "The LMS's configuration names another site"
