"""The learner's progress, kept in their browser, and the events the page fires on window for automation."""

import datetime
import json
import re

from playwright.sync_api import expect

from server.page.names import NAMES
from tests.browser.pages import answer, open_playground
from tests.support import solutions
from tests.support.events import assert_message

KEY = NAMES["storage"]["progress"]
# Record the page's events from the start, as automation would.
RECORD = (
    "window.events = [];"
    "for (const kind of ['ready', 'checked', 'resize'])"
    "  addEventListener(`backprop-playground:${kind}`, (e) => events.push(e.detail));"
)
BLOCKED = (  # a browser that blocks local storage (some do in iframes of other sites)
    "Object.defineProperty(window, 'localStorage', "
    "{ get() { throw new DOMException('blocked', 'SecurityError'); } });"
)


def progress(page):
    return page.get_by_test_id("progress")


def progress_text(page):
    return progress(page).locator("#progress-text")


def check(page, source):
    page.evaluate("s => window.playground.setCode(s)", source)
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("button", name="Check")).to_be_enabled()


def checked_events(page):
    events = [e for e in page.evaluate("events") if e["type"] == "backprop-playground:checked"]
    for event in events:
        assert_message(event)
    return events


def today():
    day = datetime.date.today()
    return f"{day.day} {day.strftime('%b')}"


def test_checks_are_counted_and_the_first_pass_is_remembered(page, base_url):
    open_playground(page, base_url)
    expect(progress_text(page)).to_have_text("No Checks yet.")
    expect(page.get_by_role("button", name="Clear my progress")).to_be_hidden()
    check(page, solutions.NOT_REVERSED)
    expect(progress_text(page)).to_contain_text("1 Check so far, not passed yet. Kept in this browser.")
    check(page, "def backward(out):\n    for v in\n")
    expect(progress(page)).to_have_attribute("data-attempts", "2")
    check(page, solutions.CORRECT)
    expect(progress_text(page)).to_contain_text(f"Passed on attempt 3, {today()}, with the order right.")
    expect(progress(page).locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT"))
    check(page, solutions.NOT_REVERSED)  # a later failure does not undo the pass
    said = f"Passed on attempt 3, {today()}, with the order right. 4 Checks in all."
    expect(progress_text(page)).to_contain_text(said)
    expect(progress(page)).to_have_attribute("data-passed-attempt", "3")
    # Reset brings back the starter, not a blank record
    page.get_by_role("button", name="Reset", exact=True).click()
    answer(page, yes=True)
    expect(progress_text(page)).to_contain_text("Passed on attempt 3")
    page.reload()
    open_playground(page, base_url)
    expect(progress_text(page)).to_contain_text(said)


def test_a_pass_with_the_order_wrong_says_so_until_the_order_is_right(page, base_url):
    open_playground(page, base_url)
    check(page, solutions.PRE_ORDER)  # the seed's three right, the order graphs wrong
    said = f"Passed on attempt 1, {today()}, but the order is not yet right on every graph."
    expect(progress_text(page)).to_contain_text(said)
    expect(progress(page)).to_have_attribute("data-order-attempt", "")
    check(page, solutions.ITERATIVE)
    expect(progress_text(page)).to_contain_text(
        f"Passed on attempt 1, {today()}; the order right on attempt 2."
    )
    expect(progress(page)).to_have_attribute("data-order-attempt", "2")
    page.reload()
    open_playground(page, base_url)
    expect(progress_text(page)).to_contain_text("; the order right on attempt 2. 2 Checks in all.")


def test_a_pass_from_another_year_shows_the_year_and_counting_goes_on(page, base_url):
    page.add_init_script(RECORD)
    page.goto(base_url)
    kept = {"attempts": 6, "passedAttempt": 4, "passedAt": "2024-12-02T12:00:00.000Z"}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(kept)])
    open_playground(page, base_url)
    # Kept before the order was counted: not known to have been right, so not said to be.
    said = "Passed on attempt 4, 2 Dec 2024, but the order is not yet right on every graph. 6 Checks in all."
    expect(progress_text(page)).to_contain_text(said)
    page.get_by_role("button", name="Show a hint").click()
    check(page, solutions.NOT_REVERSED)
    (event,) = checked_events(page)
    assert (event["attempt"], event["passed"], event["hintsShown"]) == (7, False, 1)
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", KEY)) == {
        **kept,
        "attempts": 7,
        "orderAttempt": None,
    }


def test_what_is_not_a_record_of_ours_counts_as_none(page, base_url):
    page.goto(base_url)
    wrong = (
        "{not json",
        '{"attempts": -3}',
        '{"attempts": 2, "passedAttempt": 5, "passedAt": "x"}',
        '{"attempts": 3, "passedAttempt": 2, "passedAt": "2026-01-02T00:00:00Z", "orderAttempt": 1}',
    )
    for stored in wrong:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, stored])
        open_playground(page, base_url)
        expect(progress_text(page)).to_have_text("No Checks yet.")


def test_the_learner_can_clear_it_with_the_keyboard(page, base_url):
    open_playground(page, base_url)
    check(page, solutions.CORRECT)
    clear = page.get_by_role("button", name="Clear my progress")
    clear.focus()
    page.keyboard.press("Enter")  # asks, in the page, its safe answer focused: Esc keeps the progress
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.get_by_test_id("ask-no")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(clear).to_be_focused()  # back where it was
    expect(progress_text(page)).to_contain_text("Passed on attempt 1")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("ask-no")).to_be_focused()
    page.keyboard.press("Shift+Tab")  # to "Forget my progress"
    expect(page.get_by_test_id("ask-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(progress_text(page)).to_have_text("Progress cleared. No Checks yet.")
    expect(clear).to_be_hidden()
    expect(page.locator("#progress-text")).to_be_focused()  # not lost to the page's start
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_role("button", name="Copy link")).to_be_focused()  # from where it was, not the top
    page.reload()
    open_playground(page, base_url)
    expect(progress_text(page)).to_have_text("No Checks yet.")
    assert page.evaluate("window.playground.getCode()") == solutions.CORRECT  # the code stays


def test_events_fire_on_window_for_automation(page, base_url):
    page.add_init_script(RECORD)
    open_playground(page, base_url)
    page.wait_for_function("() => events.some((e) => e.type === 'backprop-playground:ready')")
    report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    (event,) = checked_events(page)
    assert event["attempt"] == 1 and event["passed"] is report["passed"] is True and event["hintsShown"] == 0
    assert event["expressions"] == [
        {"name": e["name"], "passed": e["passed"], "extra": e["extra"]} for e in report["expressions"]
    ]
    for message in page.evaluate("events"):
        assert_message(message)
    # The report grows the page: a resize event (coalesced, so after a moment) says its new height.
    page.wait_for_function(
        """() => {
            const sizes = events.filter((e) => e.type.endsWith("resize"));
            const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
            return sizes.length > 1 && sizes.at(-1).height === height;
        }"""
    )


def test_where_storage_is_blocked_the_visit_is_still_counted(page, base_url):
    page.add_init_script(RECORD + BLOCKED)
    open_playground(page, base_url)
    check(page, solutions.NOT_REVERSED)
    check(page, solutions.CORRECT)
    expect(progress_text(page)).to_contain_text("Passed on attempt 2")
    expect(progress_text(page)).to_contain_text("Not kept: this browser blocks local storage.")
    assert [e["attempt"] for e in checked_events(page)] == [1, 2]
