"""Dark mode: it follows the system, a button overrides it and is remembered; both themes meet AA contrast."""

import pytest
from playwright.sync_api import expect

from server.page.names import NAMES
from tests.browser.colours import PAINT, contrast, luminance, parse
from tests.browser.pages import open_playground, wait_for_pictures
from tests.support import solutions

THEME_KEY = NAMES["storage"]["theme"]

# Text that must be 4.5:1 on what is behind it, after a wrong Check: prose, muted notes, code, the
# editor's tokens and line numbers, buttons, badges, the verdict, the results' tables and the pictures.
TEXT = [
    "h1",
    ".site",
    ".lede",
    "#statement-more > summary",
    "#saved",
    "#editor-keys",
    "#runtime-status",
    "#verdict",
    "button#check",
    "button#reset",
    "button#theme",
    "#editor .cm-line",
    "#editor .cm-gutterElement",
    "#editor .cm-line span",
    "#engine-code .cm-line span",
    "span.badge",
    ".expr h3",
    ".why li",
    "table.case td",
    "table.case td.wrong",
    ".graph-step",
    ".graph-legend span",
    ".graph-zoom-level",
    ".hints #hint-count",
    ".extras .note",
]
# Borders that mark a control out (WCAG 1.4.11): 3:1 on the page behind them.
CONTROLS = ["button#reset", "button#theme", "#hint", ".graph-controls button"]


@pytest.fixture(params=["light", "dark"])
def themed(request, page, base_url):
    """A page with the system in light or dark mode, after a wrong Check (pictures drawn)."""
    page.set_viewport_size({"width": 1366, "height": 900})
    page.emulate_media(color_scheme=request.param)  # the system's theme, from the page's first paint on
    open_playground(page, base_url)
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    wait_for_pictures(page)
    return page, request.param


def paint(page, selector):
    return page.locator(selector).evaluate_all(PAINT)


def test_the_page_follows_the_systems_theme(themed):
    page, theme = themed
    dark = theme == "dark"
    surfaces = {
        "page": "body",
        "editor": "#editor .cm-editor",
        "engine": "#engine-code .cm-editor",
        "a result": "[data-expr=neuron]",
    }
    for what, selector in surfaces.items():
        (element,) = paint(page, selector)[:1]
        assert (luminance(element["bg"]) < 0.05) is dark, (
            f"{what} background {element['bg']} in the {theme} theme"
        )
        assert (luminance(element["fg"]) > 0.5) is dark, f"{what} text {element['fg']} in the {theme} theme"
    box = page.locator("[data-graph-of=neuron] svg .value .box").first
    fill = box.evaluate("r => getComputedStyle(r).fill")
    assert (luminance(parse(fill)) < 0.05) is dark, f"a value's box is {fill}"
    expect(page.locator("button#theme")).to_have_attribute("aria-pressed", str(dark).lower())


def test_text_and_controls_meet_aa_contrast(themed):
    page, theme = themed
    page.locator("[data-graph-of=neuron]").get_by_role("button", name="Zoom in").click()
    low = []
    for selector in TEXT:
        found = paint(page, selector)
        assert found, f"nothing matches {selector}"
        low += [
            (selector, e["text"], round(contrast(e["fg"], e["bg"]), 2))
            for e in found
            if contrast(e["fg"], e["bg"]) < 4.5
        ]
    for selector in CONTROLS:  # its border, or its fill, stands out from the page around it
        for e in paint(page, selector):
            edge = max(contrast(e["border"], e["around"]), contrast(e["bg"], e["around"]))
            low += [(selector, e["text"], round(edge, 2))] if edge < 3 else []
    picture = page.locator("[data-graph-of=neuron] svg")
    for text, shape in (
        (".value text", ".value .box"),
        (".badge text", ".badge rect"),
        (".op text", ".op ellipse"),
    ):
        fills = picture.locator(text).evaluate_all("ts => ts.map(t => getComputedStyle(t).fill)")
        behind = parse(picture.locator(shape).first.evaluate("r => getComputedStyle(r).fill"))
        low += [
            (text, fill, round(contrast(parse(fill), behind), 2))
            for fill in set(fills)
            if contrast(parse(fill), behind) < 4.5
        ]
    assert not low, f"below AA in the {theme} theme: {low}"


def test_the_theme_button_overrides_the_system_and_is_remembered(page, base_url):
    page.emulate_media(color_scheme="dark")
    open_playground(page, base_url)
    button = page.get_by_role("button", name="Dark theme")
    expect(button).to_have_attribute("aria-pressed", "true")  # the system's choice
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert luminance(paint(page, "body")[0]["bg"]) > 0.8
    assert luminance(paint(page, "#editor .cm-editor")[0]["bg"]) > 0.8
    assert page.evaluate(f"localStorage.getItem('{THEME_KEY}')") == "light"
    page.reload()
    open_playground(page, base_url)
    expect(button).to_have_attribute("aria-pressed", "false")  # remembered over the system's dark
    assert luminance(paint(page, "body")[0]["bg"]) > 0.8
    button.focus()
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert luminance(paint(page, "body")[0]["bg"]) < 0.05
    page.emulate_media(color_scheme="light")  # the learner's choice stands when the system changes
    assert luminance(paint(page, "body")[0]["bg"]) < 0.05
    page.evaluate(f"localStorage.removeItem('{THEME_KEY}')")
    page.reload()
    open_playground(page, base_url)
    expect(button).to_have_attribute("aria-pressed", "false")  # no choice: the system's light again
    page.emulate_media(color_scheme="dark")
    expect(button).to_have_attribute("aria-pressed", "true")  # and it follows the system as it changes
    assert luminance(paint(page, "body")[0]["bg"]) < 0.05
