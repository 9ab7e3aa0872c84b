"""The database stopped while a learner passes (issue 48, finding 4), in Chromium: the page says so and
keeps the pass (and a Check that did not pass), and once PostgreSQL is back its resends get them
recorded and the pass graded. The server's side: tests/test_database_down.py."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.checks import checked
from tests.browser.pages import watched_page
from tests.support import solutions
from tests.support.recorded import recorded

pytestmark = pytest.mark.slow


@pytest.fixture
def pg_lti_page(full_chromium, pg_lms):
    """A page in a learner's Chromium (third-party cookies blocked) for the LMS on PostgreSQL."""
    context = full_chromium.new_context(ignore_https_errors=True)  # the tool's certificate is from a test CA
    origins = {f"127.0.0.1:{pg_lms.platform_server.port}", f"localhost:{pg_lms.tool.port}"}
    page, assert_clean = watched_page(context, origins)
    yield page
    assert_clean()
    context.close()


def test_a_pass_while_postgresql_is_down_is_kept_said_and_recorded_and_graded_once_it_is_back(
    pg_lti_page, pg_lms
):
    lms, lti_page = pg_lms, pg_lti_page
    lti_page.goto(lms.platform.url + "course?user=learner-pg-down")
    tool = lti_page.frame_locator("#tool")
    expect(tool.locator("#check")).to_be_enabled(timeout=60_000)
    frame = next(f for f in lti_page.frames if urlsplit(f.url).path == "/lti/launch")
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    verified, grade = tool.get_by_test_id("verified"), tool.get_by_test_id("lti-grade")

    lms.cluster.stop()
    try:
        assert checked(frame, solutions.TWICE)["passed"] is False  # sent to /record: a 503, kept
        expect(tool.locator("html")).to_have_attribute("data-records-kept", "1")
        message = checked(frame, solutions.CORRECT)
        assert message["verified"] is None and message["passed"] is False  # not counted yet
        expect(verified).to_have_attribute("data-state", "waiting")
        expect(verified).to_have_text(
            "The server's database cannot be reached now. "
            "Your pass is kept in this page and sent again by itself."
        )
        expect(tool.locator("#progress")).not_to_contain_text("Passed")
    finally:
        lms.cluster.start()
    expect(verified).to_have_attribute("data-state", "verified", timeout=20_000)  # sent again by itself
    expect(verified).to_have_text("Verified by the server.")
    expect(grade).to_have_attribute("data-state", "sent")
    assert lms.platform.wait_for_score("learner-pg-down")["scoreGiven"] == 1
    expect(tool.locator("html")).to_have_attribute("data-records-kept", "0", timeout=20_000)
    rows = recorded(lms.database_url, "learner-pg-down")
    assert ("judged", True) in rows and len(rows) == 2  # the pass, and the Check that did not pass
