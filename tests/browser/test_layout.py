"""Every screen: the editor and Check in the first screen, no sideways scrolling, results that fit.

200 % zoom is a 1366x900 window at twice the size: a 683x450 CSS-pixel viewport at device scale 2, which
is what the browser lays out when zoomed.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import open_playground, wait_for_pictures
from tests.support import solutions

SCREENS = {
    "phone 390x844": (390, 844, 3),
    "tablet 768x1024": (768, 1024, 2),
    "desktop 1366x900": (1366, 900, 1),
    "200 % zoom of 1366x900": (683, 450, 2),
}

WIDTHS = """() => ({ scroll: document.documentElement.scrollWidth,
                     client: document.documentElement.clientWidth })"""


@pytest.fixture(params=list(SCREENS))
def screen(request, learner_page):
    """A page on one of the screens, and its size."""
    width, height, scale = SCREENS[request.param]
    return learner_page(viewport={"width": width, "height": height}, device_scale_factor=scale), width, height


def no_sideways_scroll(page, when):
    widths = page.evaluate(WIDTHS)
    assert widths["scroll"] <= widths["client"], f"{when}: the page scrolls sideways ({widths})"


def test_editor_and_check_are_in_the_first_screen(screen, base_url):
    page, width, height = screen
    open_playground(page, base_url)
    assert page.evaluate("scrollY") == 0
    editor = page.locator("#editor").bounding_box()
    check = page.get_by_role("button", name="Check").bounding_box()
    assert 0 <= editor["y"] < height, f"the editor starts at {editor['y']} px"
    assert check["y"] + check["height"] <= height, (
        f"Check ends at {check['y'] + check['height']} px of {height}"
    )
    assert editor["x"] >= 0 and editor["x"] + editor["width"] <= width
    no_sideways_scroll(page, "loaded")


def test_results_fit_the_screen_without_zooming(screen, base_url):
    page, width, _ = screen
    open_playground(page, base_url)
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    no_sideways_scroll(page, "the statement open")
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    for graph in page.locator("[data-testid=graph]").all():
        graph.evaluate("d => (d.open = true)")
    page.locator("details").evaluate_all(
        "ds => ds.forEach(d => (d.open = true))"
    )  # the rest, text tables too
    wait_for_pictures(page)
    no_sideways_scroll(page, "a wrong Check with everything open")
    for table in page.locator("table.case").all():
        box = table.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, "a value set's table is cut off"
        size = table.locator("td").first.evaluate("td => parseFloat(getComputedStyle(td).fontSize)")
        assert size >= 12, f"table text at {size} px"
    page.evaluate("window.playground.check('def backward(out):\\n    out.grad = 1\\n    1 / 0\\n')")
    expect(page.get_by_test_id("error")).to_be_visible()
    no_sideways_scroll(page, "an error")


def test_no_sideways_scroll_at_320_px(page, base_url):
    page.set_viewport_size({"width": 320, "height": 640})
    open_playground(page, base_url)
    no_sideways_scroll(page, "loaded")
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    no_sideways_scroll(page, "the statement open")
    examples = page.locator("table.examples")
    expect(examples.get_by_role("row")).to_have_count(4)  # still a table to a screen reader
    expect(examples.get_by_role("rowheader")).to_have_count(3)
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    page.locator("details").evaluate_all("ds => ds.forEach(d => (d.open = true))")
    wait_for_pictures(page)
    no_sideways_scroll(page, "a wrong Check with everything open")


def test_the_statement_is_folded_on_a_narrow_screen_and_open_on_a_wide_one(page, base_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_playground(page, base_url)
    statement = page.locator("#statement-more")
    expect(statement).not_to_have_attribute("open", "")
    statement.locator("summary").click()
    expect(statement.locator("table.examples")).to_be_visible()
    page.set_viewport_size({"width": 1366, "height": 900})
    page.reload()
    open_playground(page, base_url)
    expect(statement.locator("table.examples")).to_be_visible()


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)])
def test_a_passing_check_keeps_the_page_short(page, base_url, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_playground(page, base_url)
    loaded = page.evaluate("document.documentElement.scrollHeight")
    page.evaluate("s => window.playground.check(s)", solutions.ITERATIVE)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    # Nothing open: the order graphs are right, so their list stays folded too.
    expect(page.locator("[data-testid=results] details[open]")).to_have_count(0)
    expect(page.locator("[data-testid=results] table.case").locator("visible=true")).to_have_count(
        0
    )  # folded away
    for section in page.locator("[data-expr]").all():
        assert section.bounding_box()["height"] <= 170, "a passing expression takes more than a few lines"
    grown = page.evaluate("document.documentElement.scrollHeight") - loaded
    assert grown <= 1.5 * height, f"the page grew by {grown} px"


def test_only_failing_expressions_open_their_picture(page, base_url):
    open_playground(page, base_url)
    page.evaluate("s => window.playground.check(s)", solutions.SKIP_TANH)  # reuse has no tanh: it passes
    expect(page.locator("[data-expr=reuse]")).to_have_attribute("data-status", "pass")
    for name, open_ in (("neuron", True), ("reuse", False), ("chain", True)):
        graph = page.locator(f"[data-expr={name}] [data-testid=graph]")
        assert graph.evaluate("d => d.open") is open_, name
    neuron_sets = page.locator("[data-expr=neuron] table.case")
    expect(neuron_sets.locator("visible=true")).to_have_count(1)  # the first wrong value set; the rest folded
    # The graded expressions fail: the extras wait, folded, for the next step.
    extras = page.get_by_test_id("extras").locator("details.extras-list")
    assert extras.evaluate("d => d.open") is False


# Each character of an element's text: the character, and the left and top of its box.
CHARACTERS = """(element) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node; (node = walker.nextNode()); ) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (box) found.push({ char: node.data[i], left: box.left, top: box.top });
    }
  }
  return found;
}"""
SCROLLS_SIDEWAYS = "s => s.scrollWidth > s.clientWidth"
COMMENT = "# Set out.grad to 1"  # a line of the starter's comment, too long for a phone


def rows(page, line):
    """The line's characters by the row they are shown on, top to bottom."""
    found = {}
    for char in line.evaluate(CHARACTERS):
        top = next((t for t in found if abs(t - char["top"]) < 2), char["top"])
        found.setdefault(top, []).append(char)
    return [found[top] for top in sorted(found)]


def phone(learner_page):
    return learner_page(viewport={"width": 390, "height": 844}, device_scale_factor=3)


def test_long_lines_wrap_at_their_indentation_and_wrapping_can_be_turned_off(learner_page, base_url):
    page = phone(learner_page)
    open_playground(page, base_url)
    scroller = page.locator("#editor .cm-scroller")
    line = page.locator("#editor .cm-line", has_text=COMMENT)
    wrap = page.get_by_role("checkbox", name="Wrap long lines")
    expect(wrap).to_be_checked()
    assert not scroller.evaluate(SCROLLS_SIDEWAYS), "the editor scrolls sideways with wrapping on"
    shown = rows(page, line)
    assert len(shown) >= 2, "the comment is not wrapped"
    first, continued = shown[0], shown[1][0]
    text = first[len("    # ")]  # the comment's first word, after its indentation and "# "
    assert text["char"] == "S"
    assert abs(continued["left"] - text["left"]) <= 1, (
        f"the comment goes on at {continued['left']} px, its text starts at {text['left']} px"
    )
    assert continued["left"] > first[0]["left"] + 20, "the continuation starts at the left edge"
    for editor in ("#scratch", "#engine-code"):  # every editor follows the one setting
        assert not page.locator(f"{editor} .cm-scroller").evaluate(SCROLLS_SIDEWAYS), editor

    wrap.click()
    expect(wrap).not_to_be_checked()
    assert scroller.evaluate(SCROLLS_SIDEWAYS), "with wrapping off, a long line scrolls sideways"
    assert len(rows(page, line)) == 1
    assert page.locator("#scratch .cm-scroller").evaluate(SCROLLS_SIDEWAYS)
    no_sideways_scroll(page, "wrapping off")  # the editor scrolls, the page does not

    page.reload()
    open_playground(page, base_url)
    expect(wrap).not_to_be_checked()  # kept
    assert scroller.evaluate(SCROLLS_SIDEWAYS)
    wrap.press("Space")  # and back on, by keyboard
    expect(wrap).to_be_checked()
    assert not scroller.evaluate(SCROLLS_SIDEWAYS)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_after_a_check_on_a_phone_the_verdict_is_in_view(learner_page, base_url, motion):
    page = phone(learner_page)
    page.emulate_media(reduced_motion=motion)  # the learner's setting, from the page's first paint on
    open_playground(page, base_url)
    page.evaluate("s => window.playground.setCode(s)", solutions.NOT_REVERSED)  # a whole function
    verdict = page.get_by_test_id("verdict")
    in_view = "v => { const r = v.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight }"
    assert not verdict.evaluate(in_view), "the verdict was in view before the Check: nothing to show"
    page.evaluate(
        """() => { window.scrolledTo = [];
                   addEventListener('scroll', () => scrolledTo.push(scrollY)); }"""
    )  # every position the page passes through
    check = page.get_by_role("button", name="Check")
    check.click()
    expect(verdict).to_have_attribute("data-status", "fail")
    page.wait_for_function(in_view, arg=verdict.element_handle())
    positions = page.evaluate("scrolledTo")
    # With less motion asked for, the page jumps to the verdict: one position. Otherwise it scrolls
    # smoothly, which a busy machine's scroll events may sample as one position or several: that it
    # scrolled, and ends with the verdict in view (above), is what is checked.
    if motion == "reduce":
        assert len(set(positions)) == 1, f"scrolled through {positions}"
    else:
        assert positions, "the page did not scroll to the verdict"
    expect(check).to_be_focused()  # the focus stays where it was
