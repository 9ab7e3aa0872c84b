"""Checks on the real page: by its API or its Check button, the honest pair that must come out right, and
learner code that reaches for the page's origin."""

import json

from playwright.sync_api import expect

from tests.support import solutions
from tests.support.events import assert_message

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


# Learner code that reaches for everything of the page's origin, and says what it got.
PROBE = """import js
def attempt(what, reach):
    try:
        got = reach()
    except Exception as exc:
        print(what, "refused", type(exc).__name__)
    else:
        print(what, "reached" if got is not None else "refused (absent)")
attempt("caches", lambda: js.caches)
attempt("indexedDB", lambda: js.indexedDB.open("probe"))
attempt("localStorage", lambda: js.localStorage)
attempt("cookies", lambda: js.document.cookie)
attempt("service worker", lambda: js.navigator.serviceWorker)
attempt("the page", lambda: js.parent.document)
print("origin", js.self.origin)
"""
REACHES = ("caches", "indexedDB", "localStorage", "cookies", "service worker", "the page")


def sees_no_storage(page):
    """Run PROBE in the page's playground (or its frame): every reach refused, an opaque origin (the
    runner frame's, runtime/server.py); then the honest pair."""
    report = check(page, PROBE + solutions.CORRECT)
    assert report["passed"] is True, report["error"]
    lines = report["output"]["text"].splitlines()

    def said(what: str) -> str:  # the probe's line about what
        return next(line for line in lines if line.startswith(what + " "))

    for what in REACHES:
        assert " refused" in said(what), said(what)
    assert said("origin") == "origin null", lines
    then_honest(page)


def checked(page, source: str) -> dict:
    """A Check of source as the learner makes it (the Check button, in a page or a frame): its event."""
    message = page.evaluate(CHECKED % json.dumps(source))
    assert_message(message)
    return message
