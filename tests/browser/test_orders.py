"""Every order of the corpus on the real page: the headline tells the truth about the order, under the
seed's rule and under strict; the starter hears it does nothing yet; the button says what happens."""

import pytest
from playwright.sync_api import expect

from server.page.names import NAMES
from tests.browser.pages import SEED, TIME_LIMIT_MS, open_playground, watched_page
from tests.support.events import assert_message
from tests.support.orders import RIGHT, WRONG

# The wrong orders that get the seed's three expressions right: only the order graphs tell.
SEED_PASSING = [
    "breadth-first",
    "breadth-first, no memory",
    "pre-order",
    "pre-order, memory",
    "stack, run when popped",
    "no memory",
    "kahn, users not uses",
    "kahn, uses not users",
    "shortest path",
]
RECORD = "window.events = []; addEventListener('backprop-playground:checked', (e) => events.push(e.detail));"


def opened(browser, serve, url):
    """One page for a module's Checks: each Check runs in a fresh runtime, so they cannot meet."""
    context = browser.new_context()
    context.add_init_script(RECORD)
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, url)
    return context, page, assert_clean


@pytest.fixture(scope="module")
def seed_page(browser, serve, base_url):
    context, page, assert_clean = opened(browser, serve, base_url)
    yield page
    context.close()
    assert_clean()


@pytest.fixture(scope="module")
def strict_page(browser, serve):
    context, page, assert_clean = opened(
        browser, serve, serve(TIME_LIMIT_MS=TIME_LIMIT_MS, VERDICT="strict") + SEED
    )
    yield page
    context.close()
    assert_clean()


def check(page, source):
    """Check source as a learner does (in the editor, the button); return the report and its event."""
    page.evaluate("s => window.playground.setCode(s)", source)
    seen = page.evaluate("events.length")
    button = page.get_by_role("button", name="Check")
    button.click()
    page.wait_for_function("n => events.length > n", arg=seen)  # this Check's event, not the last one
    expect(button).to_have_text("Check")
    expect(button).to_be_enabled()
    event = page.evaluate("events.at(-1)")
    assert_message(event)
    return event


@pytest.mark.parametrize("name", SEED_PASSING)
def test_a_wrong_order_that_passes_the_three_is_told_its_order_is_not_right(seed_page, name):
    seed_page.evaluate(
        "k => localStorage.removeItem(k)", NAMES["storage"]["progress"]
    )  # this Check the first
    event = check(seed_page, WRONG[name])
    assert event["passed"] is True and event["order"] == "wrong"  # the seed's rule: a pass, said so
    verdict = seed_page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-status", "order")
    expect(verdict).to_have_text(
        "All 3 expressions pass, but your order is not yet right: "
        "see the graphs that tell orders apart, below."
    )
    expect(verdict).not_to_contain_text("works")
    graphs = seed_page.get_by_test_id("extras")
    expect(graphs).to_have_attribute("data-order", "wrong")
    expect(graphs.locator("details.extras-list")).to_have_attribute("open", "")  # the next step, open
    wrong = graphs.locator("section[data-role=order][data-status=fail]")
    expect(wrong.first.get_by_test_id("mistake")).to_be_visible()  # the mistake, named in words
    expect(seed_page.get_by_test_id("progress")).to_contain_text(
        "but the order is not yet right on every graph"
    )
    # The link in the headline goes to the graphs.
    verdict.get_by_role("link", name="the graphs that tell orders apart").click()
    expect(graphs).to_be_in_viewport()


@pytest.mark.parametrize("name", ["not reversed", "appended before visiting", "seen by data"])
def test_a_wrong_order_that_fails_the_three_hears_its_mistake_in_the_headline(seed_page, name):
    event = check(seed_page, WRONG[name])
    assert event["passed"] is False
    expect(seed_page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
    mistake = seed_page.get_by_test_id("verdict-mistake")
    expect(mistake).to_be_visible()
    kind = {"not reversed": "reversed", "appended before visiting": "reversed", "seen by data": "never"}[name]
    if name == "seen by data":  # neuron fails: x1·w1 and x1·w1 + x2·w2 are both -6 in the worked example
        expect(mistake).to_contain_text("the same data")
    expect(mistake).to_have_attribute("data-kind", kind)


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_order_works_and_gets_every_graph_right(seed_page, name):
    event = check(seed_page, RIGHT[name])
    assert event["passed"] is True and event["order"] == "right"
    verdict = seed_page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-status", "pass")
    expect(verdict).to_have_text(
        "All 3 expressions pass, and your order is right on every graph that tells orders apart. "
        "Your backward works."
    )
    graphs = seed_page.get_by_test_id("extras")
    expect(graphs.locator(":scope > h3")).to_have_text("Graphs that tell orders apart: 5 of 5 right")
    expect(graphs.locator("section[data-role=order][data-status=pass]")).to_have_count(5)
    deep = seed_page.get_by_test_id("lessons").locator("[data-expr=deep]")
    if "def visit" in RIGHT[name] or "def build" in RIGHT[name]:  # a recursive search: the lesson
        expect(deep.locator("h3 .badge")).to_have_text("too deep for recursion")
        expect(deep).to_contain_text("This is not a mistake: your order is right")
        expect(deep.locator("td.got.wrong").first).not_to_be_visible()  # no ✗ in sight for a lesson
    else:
        expect(deep).to_have_attribute("data-status", "pass")


@pytest.mark.parametrize("name", [*RIGHT, *WRONG])
def test_strict_passes_every_right_order_and_no_wrong_one(strict_page, name):
    event = check(strict_page, {**RIGHT, **WRONG}[name])
    assert event["passed"] is (name in RIGHT)
    assert event["order"] == ("right" if name in RIGHT else "wrong")
    verdict = strict_page.get_by_test_id("verdict")
    if name in RIGHT:
        expect(verdict).to_contain_text("All 8 expressions pass, and your order is right")
    else:
        expect(verdict).to_have_attribute("data-status", "fail")
        expect(verdict).not_to_contain_text("works")


def test_the_starter_is_told_it_does_nothing_yet(page, base_url):
    open_playground(page, base_url)
    page.get_by_role("button", name="Check").click()
    mistake = page.get_by_test_id("verdict-mistake")
    expect(mistake).to_have_text(
        "Your backward does nothing yet: no _backward() ran and out.grad is still 0. Set out.grad = 1, then "
        "call _backward() on every value, from out back to the leaves."
    )
    expect(page.get_by_test_id("results")).not_to_contain_text("when out passed its gradient on")


def test_the_busy_button_says_checking_while_the_code_runs(page, base_url):
    open_playground(page, base_url)
    slow = RIGHT["stack"].replace(
        "    out.grad = 1\n", "    out.grad = 1\n    import time; time.sleep(0.03)\n"
    )
    page.evaluate("s => window.playground.setCode(s)", slow)
    button = page.get_by_role("button", name="Check")
    # Every label the button shows while this Check runs, as it shows it.
    page.evaluate(
        """() => { window.labels = []; new MutationObserver(() => labels.push(document.querySelector('#check')
           .textContent)).observe(document.querySelector('#check'), { childList: true, characterData: true,
           subtree: true }); }"""
    )
    button.click()
    expect(button).to_have_text("Checking…")
    expect(button).to_have_text("Check")
    assert page.evaluate("labels") == ["Checking…", "Check"]  # never "Waiting for Python…": it was ready
