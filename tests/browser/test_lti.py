"""LTI 1.3 in Chromium: a real platform (lti1p3platform) launches the playground in its course page's
iframe, with third-party cookies blocked; a verified pass lands in the platform's gradebook; a learner
whose frame keeps no code gets their last Check's back from the server, and only theirs."""

import json
import re
import ssl
from urllib.parse import urlsplit

import pytest
from flask import Flask, make_response, request
from playwright.sync_api import expect

from server import ROOT
from tests.browser.axe import serious_violations
from tests.browser.checks import checked
from tests.browser.lms_pages import LOOKS, assert_styled
from tests.browser.pages import launched_window, watched_page
from tests.support import solutions
from tests.support.lti import Served
from tests.support.lti_launches import added, recorded_checks

COURSE = "Machine Learning 101"
LAST_CHECK = (
    "Your code from your last Check in this activity, brought back from the server: "
    "this browser had none of yours saved."
)
LETZTE_PRUEFUNG = (
    "Dein Code aus deiner letzten Prüfung in dieser Aktivität, vom Server zurückgeholt: "
    "Dieser Browser hatte keinen Code von dir gespeichert."
)
OPS = ROOT / "exercises/ops"
STORAGE = "() => { try { localStorage.setItem('probe', '1'); return 'works'; } catch { return 'blocked'; } }"


@pytest.fixture
def lti_page(full_chromium, lms, probe):
    """A page in a context that blocks third-party cookies (checked)."""
    context = full_chromium.new_context(ignore_https_errors=True)  # the tool's certificate is from a test CA
    origins = {f"127.0.0.1:{lms.platform_server.port}", f"localhost:{lms.tool.port}", urlsplit(probe).netloc}
    page, assert_clean = watched_page(context, origins)
    yield page
    assert_clean()
    context.close()


@pytest.fixture(scope="module")
def probe(lms):
    """Another site (https://localhost:<port>) that sets a third-party cookie and says if it came back."""
    app = Flask("probe")

    @app.get("/set")
    def set_cookie():
        response = make_response("set")
        response.set_cookie("probe", "1", secure=True, samesite="None")
        return response

    @app.get("/echo")
    def echo():
        return "kept" if request.cookies.get("probe") else "blocked"

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    lms.ssl(context)
    served = Served(app, ssl_context=context)
    yield f"https://localhost:{served.port}/"
    served.stop()


def third_party_cookie_kept(page, lms, probe: str) -> bool:
    """Whether a cookie set by an iframe of another site (SameSite=None; Secure) comes back to it."""
    page.goto(lms.platform.url + "course?user=probe")  # a page of the platform's site, with an iframe
    body = page.frame_locator("#tool").locator("body")
    for path, said in (("set", "set"), ("echo", re.compile("^(kept|blocked)$"))):
        page.evaluate("(url) => document.getElementById('tool').src = url", probe + path)
        expect(body).to_have_text(said)
    return body.inner_text() == "kept"


def launched_frame(page, lms, user: str):
    """Open the course page as user; return the playground's frame once Check grades."""
    page.goto(lms.platform.url + f"course?user={user}")
    expect(page.frame_locator("#tool").locator("#check")).to_be_enabled(timeout=60_000)
    frame = next(f for f in page.frames if f.url.endswith("/lti/launch"))
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    return frame


def test_a_pass_in_the_lms_iframe_lands_in_its_gradebook_and_a_later_fail_keeps_it(
    lti_page, lms, probe, shoot
):
    assert not third_party_cookie_kept(lti_page, lms, probe)  # the browser blocks third-party cookies
    frame = launched_frame(lti_page, lms, "learner-b")
    grade = lti_page.frame_locator("#tool").get_by_test_id("lti-grade")

    message = checked(frame, solutions.CORRECT)
    assert message["passed"] is True and message["verified"] is True
    expect(grade).to_have_attribute("data-state", "sent")  # "sending" first: the page asks until it is sent
    expect(grade).to_have_text(f"Sent to {COURSE}.")
    score = lms.platform.wait_for_score("learner-b")
    assert score["scoreGiven"] == 1 and score["scoreMaximum"] == 1
    posted = len(lms.platform.scores_posted)
    grade.scroll_into_view_if_needed()
    shoot(lti_page, "sent")  # the course page, the playground in it, its grade line

    cases = frame.evaluate("JSON.parse(document.getElementById('config').textContent).cases")
    message = checked(frame, solutions.lookup_table(cases))  # passes in the browser, not at the server
    assert message["passed"] is False and message["verified"] is False  # the event: the server's word
    message = checked(frame, solutions.TWICE)  # fails in the browser: nothing is asked
    assert message["passed"] is False
    expect(grade).to_have_text(f"Sent to {COURSE}.")  # what the course holds is unchanged
    assert len(lms.platform.scores_posted) == posted
    assert lms.platform.gradebook[("backprop", "learner-b")]["scoreGiven"] == 1


def test_a_pass_while_the_lms_is_down_says_so_and_arrives_once_it_is_back(lti_page, lms):
    frame = launched_frame(lti_page, lms, "learner-c")
    grade = lti_page.frame_locator("#tool").get_by_test_id("lti-grade")
    lms.platform_server.stop()
    try:
        checked(frame, solutions.CORRECT)
        expect(grade).to_have_attribute("data-state", "pending")
        expect(grade).to_contain_text(f"Could not reach {COURSE}.")
    finally:
        lms.platform_server.start()  # back, on the same port
    lti_page.frame_locator("#tool").get_by_test_id("lti-retry").click()
    expect(grade).to_have_attribute("data-state", "sent")
    expect(grade).to_have_text(f"Sent to {COURSE}.")
    assert lms.platform.wait_for_score("learner-c")["scoreGiven"] == 1
    assert [s["userId"] for s in lms.platform.scores_posted].count("learner-c") == 1  # sent once


def test_the_next_learner_on_a_shared_browser_never_sees_the_previous_ones_code(lti_page, lms):
    """A lab machine: one browser, two learners launched by the LMS one after the other."""
    page = launched_window(lti_page, lms, "learner-d")
    assert page.evaluate("localStorage.length >= 0")  # first-party: storage works, so this test can fail
    mine = "# Dora's own code\n" + solutions.CORRECT
    message = checked(page, mine)
    assert message["verified"] is True
    expect(page.locator("#progress")).to_contain_text("Passed on attempt 1")
    stored = page.evaluate("Object.keys(localStorage).map((k) => localStorage.getItem(k)).join('\\n')")
    assert "Dora" in stored  # kept for her, under her launch's learner
    page.get_by_role("checkbox", name="Wrap long lines").uncheck()  # her choice, kept for her too

    page = launched_window(lti_page, lms, "learner-e")  # the next learner, same browser
    expect(page.locator("#progress")).to_contain_text("No Checks yet.")
    expect(page.get_by_role("checkbox", name="Wrap long lines")).to_be_checked()  # not Dora's choice
    assert "Dora" not in page.evaluate("window.playground.getCode()")
    stored = page.evaluate("Object.keys(localStorage).map((k) => localStorage.getItem(k)).join('\\n')")
    assert "Dora" not in stored  # removed from this browser, not only hidden
    message = checked(page, solutions.NOT_REVERSED)  # his own Check: a fail, counted as his first
    assert message["passed"] is False and message["attempt"] == 1
    page = launched_window(lti_page, lms, "learner-e")  # his next launch: his own code and progress
    expect(page.locator("#progress")).to_contain_text("1 Check so far")
    assert page.evaluate("window.playground.getCode()") == solutions.NOT_REVERSED


OPEN_FROM_THE_COURSE = {"en": "Open the exercise from your course", "de": "Öffne die Übung aus deinem Kurs"}


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("lang", OPEN_FROM_THE_COURSE)
def test_a_refusal_page_looks_like_the_playground(browser, lms, lang, look, shoot):
    """The launch address opened in a browser (as Moodle's link check does): the LTI refusals' page, in the
    learner's words (the exercise page's "du"), with the LMS pages' stylesheet."""
    options = LOOKS[look][0]
    # the tool's certificate is from the tests' CA
    context = browser.new_context(ignore_https_errors=True, locale=lang, **options)
    page, assert_clean = watched_page(context, {f"localhost:{lms.tool.port}"})
    page.goto(lms.tool_url + "lti/launch")
    expect(page.get_by_test_id("lti-refused").get_by_role("heading", level=1)).to_have_text(
        OPEN_FROM_THE_COURSE[lang]
    )
    assert serious_violations(page) == []
    assert_styled(page, look)
    shoot(page, f"refused-{lang}-{look}")
    assert_clean()
    context.close()


def test_a_learner_whose_frame_keeps_no_code_gets_their_last_checks_back_and_no_one_elses(
    lti_page, lms, shoot
):
    """Storage blocked in the LMS's frame: the code of the learner's last Check comes back from the server
    at their next launch, saying so; another learner gets the starter. Code saved in the browser wins."""
    frame = launched_frame(lti_page, lms, "learner-f")
    tool = lti_page.frame_locator("#tool")
    assert frame.evaluate(STORAGE) == "blocked"  # the frame keeps nothing: without the server, code is lost
    starter = frame.evaluate("window.playground.getCode()")
    expect(tool.get_by_test_id("last-check")).to_have_count(0)  # no Check yet: the starter, said nothing of
    mine = "# Fay's own code, checked\n" + solutions.NOT_REVERSED
    with lti_page.expect_response(lambda r: r.url.endswith("/record")) as recorded:
        assert checked(frame, mine)["passed"] is False
    assert recorded.value.status == 202  # kept by the server

    frame = launched_frame(lti_page, lms, "learner-f")  # her next launch: her code, and where it came from
    assert frame.evaluate("window.playground.getCode()") == mine
    expect(tool.get_by_test_id("last-check")).to_have_text(LAST_CHECK)
    expect(tool.get_by_test_id("last-check")).to_be_visible()
    assert serious_violations(frame) == []
    tool.get_by_test_id("last-check").scroll_into_view_if_needed()
    shoot(lti_page, "last-check")

    frame = launched_frame(lti_page, lms, "learner-g")  # another learner of the class: the starter
    assert frame.evaluate("window.playground.getCode()") == starter
    expect(tool.get_by_test_id("last-check")).to_have_count(0)

    lms.platform.people["learner-f"] = {"locale": "de"}
    frame = launched_frame(lti_page, lms, "learner-f")  # in German, as her LMS speaks it
    assert frame.evaluate("window.playground.getCode()") == mine
    expect(tool.get_by_test_id("last-check")).to_have_text(LETZTE_PRUEFUNG)
    tool.get_by_test_id("last-check").scroll_into_view_if_needed()
    shoot(lti_page, "last-check-de")

    page = launched_window(lti_page, lms, "learner-f")  # a window of its own: storage works, empty for her
    assert page.evaluate("window.playground.getCode()") == mine
    expect(page.get_by_test_id("last-check")).to_be_visible()
    typed = "# typed, saved in this browser, never checked\n" + solutions.NOT_REVERSED
    page.evaluate("(code) => window.playground.setCode(code)", typed)
    page = launched_window(lti_page, lms, "learner-f")  # the code this browser saved wins
    assert page.evaluate("window.playground.getCode()") == typed
    expect(page.get_by_test_id("last-check")).to_be_hidden()


def test_an_ops_activity_in_the_lms_iframe_grades_ops_names_its_mistake_and_sends_its_grade(lti_page, lms):
    """Deep Linked to ops, the activity opens ops's page in the course's frame: a Check of ops's = for +=
    is named in ops's words and recorded as ops's (the page sends its exercise with it), and a pass of
    ops's reference is verified as ops's and lands in the gradebook."""
    link = added(lms, exercise="ops", language="")
    sent = []  # what the page posts to the server: its exercise with each Check
    lti_page.on(
        "request",
        lambda r: (
            r.method == "POST" and urlsplit(r.url).path.endswith(("/verify", "/record")) and sent.append(r)
        ),
    )
    lti_page.goto(lms.platform.url + f"course?user=learner-ops&link={link}")
    expect(lti_page.frame_locator("#tool").locator("#check")).to_be_enabled(timeout=60_000)
    frame = next(f for f in lti_page.frames if f.url.endswith("/lti/launch"))
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    assert frame.evaluate("JSON.parse(document.getElementById('config').textContent).exercise") == "ops"

    with lti_page.expect_request(lambda r: urlsplit(r.url).path.endswith("/record")) as record:
        message = checked(frame, (OPS / "mistakes/assign.py").read_text())
    assert message["passed"] is False and message["exercise"] == "ops"
    assert record.value.response().ok  # recorded (then judged on the queue)
    title = lti_page.frame_locator("#tool").get_by_test_id("mistake-title").first
    expect(title).to_have_text("= instead of +=")  # ops's words for its mistake
    checks = recorded_checks(lms, "learner-ops")
    assert [(c["exercise"], c["mistake"]) for c in checks] == [("ops", "assign")]

    message = checked(frame, (OPS / "reference.py").read_text())
    assert message["passed"] is True and message["verified"] is True
    assert lms.platform.wait_for_score("learner-ops")["scoreGiven"] == 1
    assert [json.loads(r.post_data)["exercise"] for r in sent] == [
        "ops",
        "ops",
    ]  # the record's, the pass's  # the record's, the pass's
