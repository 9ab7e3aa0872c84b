"""axe-core on the real page: no serious or critical violation in any state, at any width, in either theme
(tests/browser/axe.py runs it)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import serious_violations
from tests.browser.pages import open_playground, wait_for_pictures
from tests.support import solutions

VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1366, 900)}


def loaded(page):
    pass


def statement_and_hints_open(page):
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    while page.locator("#hint").is_visible():
        page.locator("#hint").click()


def wrong_with_pictures_and_text_open(page):
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    page.locator("[data-testid=extras] details.extras-list").evaluate("d => (d.open = true)")
    for graph in page.locator("[data-testid=graph]").all():
        graph.evaluate("d => (d.open = true)")
    wait_for_pictures(page)
    for text in page.locator("details.graph-text, details.more-cases").all():
        text.evaluate("d => (d.open = true)")
    page.locator("[data-graph-of=neuron]").get_by_role("button", name="Zoom in").click()


def error(page):
    page.evaluate("window.playground.check('def backward(out):\\n    1 / 0\\n')")
    expect(page.get_by_test_id("error")).to_be_visible()


def correct(page):
    page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    wait_for_pictures(page)


def scratch_pad_drawn(page):
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    drawn_then_raises = "a = Value(2.0)\nb = a * a\ndraw(b)\nbackward(b)\ndraw(b)\n1 / 0\n"
    page.evaluate("s => window.playground.run(s)", drawn_then_raises)
    expect(page.get_by_test_id("run-error")).to_be_visible()  # an error, and the drawings before it
    for drawing in page.locator("[data-testid=drawing]").all():
        expect(drawing).to_have_attribute("data-state", "ready")
    for text in page.locator("[data-testid=drawings] details.graph-text").all():
        text.evaluate("d => (d.open = true)")


def wrapping_off(page):
    page.get_by_role("checkbox", name="Wrap long lines").uncheck()  # every editor scrolls sideways instead
    expect(page.locator("#editor .cm-content")).not_to_have_class(re.compile(r"\bcm-lineWrapping\b"))


def asking(page):
    """Reset's question open (page/ask.js); closed again after axe has looked, keeping the code."""
    page.get_by_role("button", name="Reset", exact=True).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.get_by_test_id("ask-no")).to_be_focused()


def asked(page):
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()


STATES = [
    loaded,
    statement_and_hints_open,
    wrong_with_pictures_and_text_open,
    error,
    correct,
    scratch_pad_drawn,
    wrapping_off,
    asking,
    asked,
]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_no_serious_axe_violation_in_any_state(page, base_url, viewport):
    """Each state looked at in the light theme and then the dark one (the system's, switched in place)."""
    width, height = VIEWPORTS[viewport]
    page.set_viewport_size({"width": width, "height": height})
    open_playground(page, base_url)
    found = {}
    for state in STATES:
        state(page)
        backgrounds = set()
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            backgrounds.add(page.evaluate("getComputedStyle(document.body).color"))
            found[f"{state.__name__}, {theme} theme"] = serious_violations(page)
        assert len(backgrounds) == 2, backgrounds  # the dark theme was the one looked at
    failures = {state: rules for state, rules in found.items() if rules}
    assert not failures, f"axe at {viewport} {width}x{height}: {failures}"
