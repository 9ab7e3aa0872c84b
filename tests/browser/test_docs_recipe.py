"""docs/page-contract.md's recipes to start a test afresh in the same browser context, run as written."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import KEEP_RUNTIME, open_playground, recipe
from tests.support import solutions

RECIPES = {
    "full": recipe("## Starting each test afresh"),  # the first; the runtime starts in full
    "stored": KEEP_RUNTIME,  # the quicker one; the runtime starts from the snapshot kept
}


@pytest.mark.parametrize("start", list(RECIPES))
def test_the_documented_reset_brings_the_page_back_to_a_first_visit(fresh_page, base_url, start):
    page = fresh_page
    open_playground(page, base_url)
    starter = page.evaluate("window.playground.getCode()")
    page.evaluate("s => window.playground.check(s)", solutions.CORRECT)  # code, progress
    page.evaluate("s => window.playground.run(s)", "print('mine')\n")  # the scratch pad
    page.get_by_role("button", name="Show a hint").click()
    page.get_by_role("button", name="Dark theme").click()
    page.get_by_role("checkbox", name="Wrap long lines").click()
    expect(page.get_by_test_id("progress")).to_have_attribute("data-attempts", "1")
    page.reload()
    open_playground(page, base_url)
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-start", "stored")  # all kept
    page.evaluate(RECIPES[start])
    page.reload()
    open_playground(page, base_url)
    assert page.evaluate("window.playground.getCode()") == starter
    expect(page.locator("#progress-text")).to_have_text("No Checks yet.")
    expect(page.get_by_test_id("hints")).to_contain_text("3 hints, revealed one at a time.")
    assert page.evaluate("document.documentElement.dataset.theme") is None  # follows the system again
    expect(page.get_by_role("checkbox", name="Wrap long lines")).to_be_checked()
    assert "mine" not in page.locator("#scratch").inner_text()
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-start", start)
