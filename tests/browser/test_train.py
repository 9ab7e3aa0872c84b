"""The training loop's page (exercises/train) in Chromium: a Check of the right loop takes well under the
page's time limit; a loop that never ends meets the time limit with a clear message, keeps the learner's
code, and the next Checks on the same page, a right one and a wrong one, are graded as ever; a loop of
too many steps is stopped at the limit and graded, not timed out."""

import time

import pytest
from playwright.sync_api import expect

from server import ROOT
from tests.browser.pages import TIME_LIMIT_MS, exercise_page_path, open_playground, returning_page

FOLDER = ROOT / "exercises" / "train"
REFERENCE = (FOLDER / "reference.py").read_text()
SIGN = (FOLDER / "mistakes" / "sign.py").read_text()
ENDLESS = "def train(model, xs, ys):\n    while True:\n        L = loss(model, xs, ys)\n"
CHECK = "s => window.playground.check(s)"

pytestmark = pytest.mark.alone  # each test is timed by the page's time limit, or times a Check


@pytest.fixture(scope="module")
def train_page(kept_for_modules, serve, base_url):
    """The training loop's page, loaded once for the module's Checks."""
    root = base_url.removesuffix(exercise_page_path("backward"))
    page, assert_clean, reset = returning_page(kept_for_modules, serve.origins, base_url)
    open_playground(page, root + exercise_page_path("train"))
    yield page
    page.close()
    reset()
    assert_clean()


def test_a_check_of_the_right_loop_takes_well_under_the_time_limit(train_page):
    page = train_page
    page.evaluate(CHECK, REFERENCE)  # the first Check loads the exercise's engine: not counted
    took = []
    for _ in range(3):
        started = time.perf_counter()
        report = page.evaluate(CHECK, REFERENCE)
        took.append((report["ms"], (time.perf_counter() - started) * 1000))
        assert report["passed"] is True, report["error"]
    print(f"train: the reference's Check in Chromium, (grader ms, wall ms): {took}")
    assert min(ms for ms, _ in took) < TIME_LIMIT_MS / 2, took  # the tests' time limit, 4 s: under 2 s


def test_a_loop_that_never_ends_meets_the_time_limit_and_the_next_checks_are_graded(train_page):
    page = train_page
    report = page.evaluate(CHECK, ENDLESS)
    assert report["error"]["kind"] == "timeout" and report["passed"] is False
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "error")
    expect(page.get_by_test_id("error")).to_contain_text("stopped")
    assert page.evaluate("window.playground.getCode()") == ENDLESS  # the learner's code is kept
    report = page.evaluate(CHECK, REFERENCE)
    assert report["passed"] is True, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    report = page.evaluate(CHECK, SIGN)
    named = {e["mistake"]["kind"] for e in report["expressions"] if e["mistake"]}
    assert report["passed"] is False and report["error"] is None and named == {"sign"}
    expect(page.get_by_test_id("verdict-mistake")).to_have_attribute("data-kind", "sign")


def test_a_loop_of_too_many_steps_is_stopped_at_the_limit_and_graded(train_page):
    page = train_page
    report = page.evaluate(CHECK, REFERENCE.replace("range(20)", "range(1_000_000)"))
    assert report["error"] is None and report["passed"] is False, (
        report["ms"],
        report["error"],
        [c["got"] for e in report["expressions"] for c in e["cases"]],
    )
    for expression in report["expressions"]:
        for case in expression["cases"]:
            assert case["got"] == [1.0] * 6 + [0.0]  # there, but past 30 steps
    row = page.locator("[data-testid=results] tr[data-leaf='steps ≤ 30']").first
    expect(row).to_contain_text("0")
