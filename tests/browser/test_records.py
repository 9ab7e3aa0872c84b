"""Records in Chromium: a launched learner's wrong Check and their pass land in the database with the
server's own verdicts; a page with a launch or learner token says that its Checks are shared with the
teacher (English, German); a page with neither sends no record."""

import time

import jwt
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from server.db.tables import attempts
from tests.browser.axe import serious_violations
from tests.browser.checks import checked
from tests.browser.pages import SEED, TIME_LIMIT_MS, launched_window, open_playground
from tests.support import solutions

SECRET = "a secret the course and the playground share, 32+ bytes"
SHARED = "Each Check you make is shared with your teacher: your code and the server's verdict on it."
GETEILT = "Jedes Prüfen teilst du mit deiner Lehrkraft: deinen Code und das Urteil des Servers darüber."


def attempts_of(app, sub: str, count: int, timeout: float = 90) -> list[dict]:
    """sub's attempts, once there are count of them and none waits for the judge."""
    deadline = time.monotonic() + timeout
    while True:
        with app.extensions["db"].engine.connect() as conn:
            query = select(attempts).where(attempts.c.sub == sub).order_by(attempts.c.id)
            found = [dict(r._mapping) for r in conn.execute(query)]
        if len(found) == count and all(r["state"] == "judged" for r in found):
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.1)


@pytest.fixture
def window(full_chromium, lms):
    context = full_chromium.new_context(ignore_https_errors=True)  # the tool's certificate: a test CA
    yield context.new_page()
    context.close()


def test_a_launched_learners_wrong_check_and_pass_are_kept_with_the_servers_verdicts(window, lms):
    page = launched_window(window, lms, "learner-records")
    expect(page.get_by_test_id("records-note")).to_have_text(SHARED)
    assert checked(page, solutions.NO_SEED)["passed"] is False  # sent to record, judged from the queue
    message = checked(page, solutions.CORRECT)  # sent to verify, which records it
    assert message["passed"] is True and message["verified"] is True
    wrong, right = attempts_of(lms.tools[0][1], "learner-records", 2)
    assert (wrong["source"], wrong["passed"], wrong["mistake"]) == (solutions.NO_SEED, False, "out-grad")
    assert (right["source"], right["passed"], right["mistake"]) == (solutions.CORRECT, True, None)
    assert {(r["course"], r["activity"]) for r in (wrong, right)} == {("course-1", "link-1")}


@pytest.fixture(scope="module")
def records_url(serve, tmp_path_factory):
    """A playground whose course names its learners (a learner-token secret): records are on."""
    folder = tmp_path_factory.mktemp("records")
    return serve(
        TIME_LIMIT_MS=TIME_LIMIT_MS,
        VERIFY=True,
        SIGNING_KEY_FILE=str(folder / "signing-key.pem"),
        LEARNER_TOKEN_SECRET=SECRET,
        DATABASE_URL=f"sqlite:///{folder / 'records.sqlite3'}",
        QUEUE_WORKERS=0,  # nobody judges here: only what the page sends is looked at
    )


def test_a_course_page_with_a_token_says_it_in_german_and_a_page_without_sends_nothing(
    page, records_url, shoot
):
    sent = []
    page.on("request", lambda request: request.url.endswith("/record") and sent.append(request))
    learner = jwt.encode({"sub": "kim", "exp": int(time.time()) + 600}, SECRET, "HS256")
    open_playground(page, f"{records_url}{SEED}?lang=de&learner={learner}")
    expect(page.get_by_test_id("records-note")).to_have_text(GETEILT)
    shoot(page, "german")  # the sentence under the toolbar, where Check is
    assert serious_violations(page) == []
    assert checked(page, solutions.TWICE)["passed"] is False
    page.wait_for_function(
        "() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/record'))"
    )
    said = {"source": solutions.TWICE, "learner": learner, "exercise": "backward"}  # the page's exercise
    assert len(sent) == 1 and sent[0].post_data_json == said

    open_playground(page, records_url + SEED)  # no token: no sentence, nothing sent
    expect(page.get_by_test_id("records-note")).to_have_count(0)
    assert checked(page, solutions.TWICE)["passed"] is False
    page.wait_for_timeout(500)  # a record would have been sent at once
    assert len(sent) == 1
