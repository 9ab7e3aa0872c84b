"""Verified by the server, in Chromium: a browser pass re-graded at /verify, the receipt in the event."""

import json
import time
import urllib.request

import jwt
import pytest
from playwright.sync_api import expect

from tests.browser.axe import serious_violations
from tests.browser.checks import CHECKED
from tests.browser.pages import SEED, TIME_LIMIT_MS, open_playground
from tests.support import solutions
from tests.support.events import assert_message

SECRET = "a secret the course and the playground share, 32+ bytes"


@pytest.fixture(scope="module")
def verifying_url(serve, tmp_path_factory):
    key = tmp_path_factory.mktemp("key") / "signing-key.pem"
    return serve(TIME_LIMIT_MS=TIME_LIMIT_MS, VERIFY=True, SIGNING_KEY_FILE=str(key))


@pytest.fixture(scope="module")
def course_url(serve, tmp_path_factory):
    """A playground whose course names its learners (a learner-token secret)."""
    key = tmp_path_factory.mktemp("key") / "signing-key.pem"
    return serve(
        TIME_LIMIT_MS=TIME_LIMIT_MS, VERIFY=True, SIGNING_KEY_FILE=str(key), LEARNER_TOKEN_SECRET=SECRET
    )


def checked(page, source: str) -> dict:
    message = page.evaluate(CHECKED % json.dumps(source))
    assert_message(message)
    return message


def test_a_pass_is_verified_and_the_event_carries_a_receipt(page, verifying_url):
    open_playground(page, verifying_url + SEED)
    message = checked(page, solutions.CORRECT)
    assert message["passed"] is True and message["verified"] is True
    verified = page.get_by_test_id("verified")
    expect(verified).to_have_attribute("data-state", "verified")
    expect(verified).to_have_text("Verified by the server.")
    with urllib.request.urlopen(verifying_url + ".well-known/jwks.json") as response:
        keys = jwt.PyJWKSet.from_dict(json.load(response))
    kid = jwt.get_unverified_header(message["receipt"])["kid"]
    claims = jwt.decode(message["receipt"], keys[kid].key, algorithms=["EdDSA"])
    assert claims["passed"] is True and claims["iss"] == verifying_url

    message = checked(page, solutions.TWICE)  # no pass: nothing to verify, and the line goes
    assert message["verified"] is None and message["receipt"] is None
    expect(verified).to_be_hidden()


def test_a_lookup_table_passes_in_the_browser_and_the_server_says_it_does_not(page, verifying_url):
    open_playground(page, verifying_url + SEED)
    cases = page.evaluate("JSON.parse(document.getElementById('config').textContent).cases")
    source = solutions.lookup_table(cases)
    message = checked(page, source)
    # The page is fooled on the three expressions (a pass under the seed's rule), though the order graphs
    # it has no table for show the order wrong...
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "order")
    assert message["verified"] is False and message["receipt"]  # ...the server is not, and signs that
    assert message["passed"] is False  # the event tells what the server confirmed
    assert not any(e["passed"] for e in message["expressions"] if e["name"] == "neuron")
    verified = page.get_by_test_id("verified")
    expect(verified).to_have_attribute("data-state", "disagrees")
    expect(verified).to_contain_text("The server did not confirm this pass")
    expect(verified).to_contain_text("it drew itself")
    expect(verified).to_contain_text("It is not kept as a pass.")
    progress = page.locator("#progress")
    expect(progress).to_have_attribute("data-passed-attempt", "")  # not kept as "Passed"
    expect(progress).to_contain_text("not passed yet")
    message = checked(page, solutions.CORRECT)  # an honest pass the server confirms is kept
    assert message["passed"] is True and message["verified"] is True
    expect(progress).to_contain_text("Passed on attempt 2")


def test_a_grader_patched_in_place_fails_in_the_page_and_at_the_server(page, verifying_url):
    open_playground(page, verifying_url + SEED)
    patch = "import engine.compare\nengine.compare.close.__code__ = (lambda got, expected: True).__code__\n"
    message = checked(page, patch + solutions.NOT_REVERSED)
    assert message["passed"] is False and message["error"] == "runtime"
    expect(page.locator("#error")).to_contain_text("changed the grader's own code")
    expect(page.locator("#progress")).to_have_attribute("data-passed-attempt", "")
    message = checked(page, solutions.CORRECT)
    assert message["passed"] is True and message["verified"] is True


def test_without_verification_the_page_asks_nothing(page, base_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    open_playground(page, base_url)
    message = checked(page, solutions.CORRECT)
    assert message["passed"] is True and message["verified"] is None and message["receipt"] is None
    expect(page.get_by_test_id("verified")).to_be_hidden()
    assert not [url for url in requests if "verify" in url]


def test_a_learner_token_in_the_pages_url_names_the_learner_in_the_receipt(page, course_url):
    token = jwt.encode({"sub": "learner-7", "exp": int(time.time()) + 600}, SECRET, "HS256")
    open_playground(page, f"{course_url}{SEED}?learner={token}")
    message = checked(page, solutions.CORRECT)
    assert message["verified"] is True
    assert jwt.decode(message["receipt"], options={"verify_signature": False})["sub"] == "learner-7"


def test_a_page_without_its_learner_token_says_the_pass_is_not_verified_and_why(page, course_url):
    open_playground(page, course_url + SEED)  # a course that names its learners, opened without a token
    message = checked(page, solutions.CORRECT)
    assert message["passed"] is False and message["verified"] is None and message["receipt"] is None
    verified = page.get_by_test_id("verified")
    expect(verified).to_have_attribute("data-state", "unavailable")
    expect(verified).to_contain_text(
        "This course names its learners, and this page came without your learner token: "
        "open the exercise from your course's page again. It is not kept as a pass"
    )


@pytest.mark.parametrize("first", ["busy", "offline"])
def test_a_pass_the_server_could_not_take_now_is_kept_and_sent_again_by_itself(
    page, verifying_url, first, shoot
):
    """The first /verify meets a busy server (a 503 with Retry-After, as a full queue answers) or no
    network at all: the page says it waits, Check works meanwhile, and the pass is sent again and
    verified by itself."""
    busy = []

    def first_busy(route):
        if busy:
            return route.fallback()
        busy.append(route.request.url)
        if first == "offline":  # the learner's network is gone for this request: the page tries in 5 s
            return route.abort("internetdisconnected")
        body = json.dumps({"error": "Every sandbox is busy; try again in a moment."})
        route.fulfill(status=503, headers={"Retry-After": "2"}, content_type="application/json", body=body)

    page.route("**/verify*", first_busy)
    open_playground(page, verifying_url + SEED)
    collect = "(e) => seen.push(e.detail)"
    page.evaluate(
        f"() => {{ window.seen = []; addEventListener('backprop-playground:checked', {collect}); }}"
    )
    message = checked(page, solutions.CORRECT)
    assert busy and message["verified"] is None and message["passed"] is False  # not counted yet
    verified = page.get_by_test_id("verified")
    expect(verified).to_have_attribute("data-state", "waiting")
    expect(verified).to_have_text("Waiting for the server to verify your pass…")
    shoot(page, f"waiting-{first}")
    if first == "offline":  # 5 s before the page asks again: room for axe on the waiting line
        assert serious_violations(page) == []
    assert checked(page, solutions.TWICE)["passed"] is False  # Check works while the pass waits
    expect(verified).to_have_attribute("data-state", "waiting")
    expect(verified).to_have_attribute("data-state", "verified", timeout=15_000)
    expect(verified).to_have_text("Verified by the server.")
    last = page.evaluate("() => seen.at(-1)")
    assert last["passed"] is True and last["verified"] is True and last["receipt"]
    expect(page.locator("#progress")).to_contain_text("Passed")
