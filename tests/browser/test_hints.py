"""Hints one at a time, remembered across reloads; a solution only where the server allows it."""

from playwright.sync_api import expect

from tests.browser.pages import SEED, answer, open_playground


def shown_hints(page):
    return page.get_by_test_id("hints").locator("ol > li:visible")


def test_hints_are_revealed_one_at_a_time_and_remembered(page, base_url):
    open_playground(page, base_url)
    expect(shown_hints(page)).to_have_count(0)
    page.get_by_role("button", name="Show a hint").click()
    expect(shown_hints(page)).to_have_count(1)
    expect(shown_hints(page).first).to_contain_text("all of its users")
    page.get_by_role("button", name="Show the next hint").click()
    expect(shown_hints(page)).to_have_count(2)
    page.reload()
    expect(shown_hints(page)).to_have_count(2)
    page.get_by_role("button", name="Show the next hint").click()
    expect(shown_hints(page)).to_have_count(3)
    expect(page.get_by_role("button", name="Show the next hint")).to_be_hidden()
    expect(page.get_by_test_id("hints")).to_contain_text("All 3 hints shown.")


def test_no_solution_unless_the_server_allows_it(page, base_url):
    open_playground(page, base_url)
    expect(page.get_by_role("button", name="Show a solution")).to_have_count(0)
    assert "reversed(order)" not in page.content()  # the reference is not in the page at all


def test_a_teacher_can_offer_the_solution(page, serve):
    url = serve(SHOW_SOLUTION=True) + SEED
    open_playground(page, url)
    page.get_by_role("button", name="Show a solution").click()
    expect(page.locator("#solution-code")).to_contain_text("reversed(order)")
    page.get_by_role("button", name="Put it in the editor").click()
    answer(page, yes=True)
    assert "reversed(order)" in page.evaluate("window.playground.getCode()")
    report = page.evaluate("window.playground.check()")
    assert report["passed"] is True
    assert all(e["passed"] for e in report["expressions"])  # the reference survives the extras too
