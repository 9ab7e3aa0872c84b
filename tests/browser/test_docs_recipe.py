"""docs/page-contract.md's recipe to start a test afresh in the same browser context, run as written."""

import re

from playwright.sync_api import expect

from server import ROOT
from tests import solutions
from tests.browser.pages import open_playground


def recipe() -> str:
    docs = (ROOT / "docs/page-contract.md").read_text()
    section = docs[docs.index("## Starting each test afresh") :]
    return re.search(r"```js\n(.*?)```", section, re.S)[1]


def test_the_documented_reset_brings_the_page_back_to_a_first_visit(page, base_url):
    open_playground(page, base_url)
    starter = page.evaluate("window.playground.getCode()")
    page.evaluate("s => window.playground.check(s)", solutions.CORRECT)  # code, progress
    page.evaluate("s => window.playground.run(s)", "print('mine')\n")  # the scratch pad
    page.get_by_role("button", name="Show a hint").click()
    page.get_by_role("button", name="Dark theme").click()
    expect(page.get_by_test_id("progress")).to_have_attribute("data-attempts", "1")
    page.reload()
    open_playground(page, base_url)
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-start", "stored")  # all kept
    page.evaluate(recipe())
    page.reload()
    open_playground(page, base_url)
    assert page.evaluate("window.playground.getCode()") == starter
    expect(page.locator("#progress-text")).to_have_text("No Checks yet.")
    expect(page.get_by_test_id("hints")).to_contain_text("3 hints, revealed one at a time.")
    assert page.evaluate("document.documentElement.dataset.theme") is None  # follows the system again
    assert "mine" not in page.locator("#scratch").inner_text()
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-start", "full")  # as a first visit
