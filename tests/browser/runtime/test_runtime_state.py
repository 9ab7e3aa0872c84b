"""The runtime client's one state, as the page shows it: data-state on the status line, and the buttons."""

from playwright.sync_api import expect

from tests.browser.pages import READY_MS, SEED, open_playground
from tests.support import solutions

# Every data-state the status line takes, and every label Stop shows, in order, from now on.
RECORD = """() => {
  window.seen = { states: [], stop: [] };
  const status = document.querySelector('[data-testid=runtime-status]');
  const stop = document.querySelector('#stop');
  const note = (list, now) => list.at(-1) !== now && list.push(now);
  new MutationObserver(() => note(seen.states, status.dataset.state))
    .observe(status, { attributes: true, attributeFilter: ['data-state'] });
  new MutationObserver(() => note(seen.stop, stop.textContent))
    .observe(stop, { childList: true, characterData: true, subtree: true });
}"""


def test_a_check_makes_it_busy_then_ready(page, base_url):
    open_playground(page, base_url)
    page.evaluate(RECORD)
    page.evaluate("s => window.playground.check(s)", solutions.ITERATIVE)
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-state", "ready")
    assert page.evaluate("seen.states") == ["busy", "ready"]


def test_stop_makes_it_stopping_and_says_so_on_the_button(page, base_url):
    open_playground(page, base_url)
    page.evaluate(RECORD)
    page.evaluate("s => window.playground.setCode(s)", "def backward(out):\n    while True:\n        pass\n")
    page.get_by_role("button", name="Check").click()
    stop = page.locator("#stop")
    expect(stop).to_be_visible()
    stop.click()
    expect(stop).to_be_hidden()
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-state", "ready")
    assert page.evaluate("seen.states") == ["busy", "stopping", "ready"]
    assert page.evaluate("seen.stop") == ["Stopping…", "Stop"]  # and back, for the next task
    expect(page.get_by_test_id("error")).to_contain_text("You stopped your code")


def test_a_load_that_fails_is_dead_until_retry_loads_it(page, serve):
    url = serve() + SEED
    broken = {"on": True}
    page.route("**/pyodide.asm.wasm", lambda route: route.abort() if broken["on"] else route.continue_())
    page.goto(url)
    status = page.get_by_test_id("runtime-status")
    expect(status).to_have_attribute("data-state", "dead", timeout=READY_MS)
    expect(page.get_by_role("button", name="Retry")).to_be_visible()
    broken["on"] = False
    page.get_by_role("button", name="Retry").click()
    expect(status).to_have_attribute("data-state", "ready", timeout=READY_MS)
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
