"""Checks on the real page: by its API or its Check button, and the honest pair that must come out right."""

from playwright.sync_api import expect

from tests import solutions

# A Check as the learner makes it (the Check button), resolving to the checked event's detail.
CHECKED = (
    "() => new Promise((resolve) => {"
    "  addEventListener('backprop-playground:checked', (e) => resolve(e.detail), { once: true });"
    "  window.playground.setCode(%s);"
    "  document.getElementById('check').click();"
    "})"
)


def check(page, source=None):
    if source is None:
        return page.evaluate("() => window.playground.check()")
    return page.evaluate("s => window.playground.check(s)", source)


def fresh_runtime_ready(page):
    """Wait until the next Check starts at once, so that a timing measures the run alone."""
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-fresh", "ready", timeout=30_000)


def then_honest(page):
    """A correct solution passes and a wrong one fails, on the same page, after whatever came before."""
    report = check(page, solutions.CORRECT)
    assert report["passed"] is True, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    report = check(page, solutions.NOT_REVERSED)
    assert report["passed"] is False and report["error"] is None, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
