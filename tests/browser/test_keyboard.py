"""The page by keyboard alone: every control in order, focus never dropped, announcements made once."""

import json
import re

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from server import ROOT
from server.page.names import NAMES
from tests.browser.pages import focused, open_playground, tab, wait_for_pictures
from tests.support import solutions

# Record every change of text inside a live region ([aria-live], role status or alert) from now on.
WATCH_LIVE_REGIONS = """() => {
  if (window.liveChanges) return void (window.liveChanges = []);  // watching already: start afresh
  window.liveChanges = [];
  const live = (n) =>
    (n.nodeType === 1 ? n : n.parentElement)?.closest('[aria-live], [role=status], [role=alert]');
  new MutationObserver((records) => {
    for (const r of records) {
      const region = live(r.target);
      const said = region?.textContent.trim().slice(0, 60);
      if (region) window.liveChanges.push(`${region.id || region.className}: ${said}`);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""

COURSE_TITLE = json.loads((ROOT / "exercises/course.json").read_text())["title"]["en"]
NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def editor_content(page):
    return page.locator("#editor .cm-content")


def test_tab_reaches_every_control_in_order(page, base_url):
    open_playground(page, base_url)
    assert tab(page).startswith("a# Skip to the editor")
    assert tab(page).startswith("a# Skip to the results")
    # where the seed's exercise is in the shipped course: its map, the previous exercise, the next
    assert tab(page).startswith(f"a# {COURSE_TITLE}"[:40])
    assert tab(page).startswith("a# Previous: ")
    assert tab(page).startswith("a# Next: ")
    assert tab(page).startswith("select#language ")  # the page's language (page/language.js)
    assert tab(page) == "button#theme Dark theme"
    assert tab(page).startswith("summary# The exercise in full")
    assert tab(page) == "input#wrap "  # "Wrap long lines", for every editor on the page
    page.keyboard.press("Space")
    expect(page.get_by_role("checkbox", name="Wrap long lines")).not_to_be_checked()
    page.keyboard.press("Space")
    assert tab(page) == "div# Your backward(out) function"
    tab(page)  # in the editor, Tab indents and the focus stays
    expect(editor_content(page)).to_be_focused()
    assert page.evaluate("window.playground.getCode()").startswith("    def backward")
    page.keyboard.press("Escape")  # then Tab leaves, as the note under the editor says
    assert tab(page) == "button#check Check"
    assert tab(page) == "button#reset Reset"
    assert tab(page) == "button#share Copy link"
    assert tab(page).startswith("select#preset ")  # the scratch pad's examples
    assert tab(page) == "button#load-preset Put it in the scratch pad"
    assert tab(page) == "div# Scratch pad: your own Python"
    page.keyboard.press("Escape")  # Tab indents here too: Esc, then Tab leaves
    assert tab(page) == "button#run Run"
    assert tab(page).startswith("input#use-backward")
    assert tab(page) == "button#hint Show a hint"
    assert tab(page) == "div# The engine's code (read-only)"  # read-only, yet it can be scrolled and read
    page.keyboard.press("ArrowDown")
    assert tab(page, "Shift+Tab") == "button#hint Show a hint"


def test_the_editor_says_how_to_leave_it(page, base_url):
    open_playground(page, base_url)
    described = editor_content(page).get_attribute("aria-describedby")
    note = page.locator(f"#{described}")
    expect(note).to_be_visible()
    expect(note).to_contain_text("press Esc, then Tab")
    page.get_by_role("link", name="Skip to the editor").focus()
    page.keyboard.press("Enter")  # the skip link puts the keyboard in the editor itself
    expect(editor_content(page)).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_role("checkbox", name="Wrap long lines")).to_be_focused()  # just before the editor


def test_a_check_from_the_editor_keeps_the_learner_s_place_and_the_results_are_one_link_away(page, base_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_playground(page, base_url)
    page.evaluate("s => window.playground.setCode(s)", solutions.NOT_REVERSED)  # the results below the fold
    page.evaluate(WATCH_LIVE_REGIONS)
    editor_content(page).click()
    page.keyboard.press("ControlOrMeta+End")
    verdict = page.get_by_test_id("verdict")
    expect(verdict).not_to_be_in_viewport(ratio=1)
    page.keyboard.press("ControlOrMeta+Enter")
    expect(verdict).to_have_attribute("data-status", "fail")
    expect(verdict).to_be_in_viewport(ratio=1)  # scrolled to, on a phone
    expect(editor_content(page)).to_be_focused()  # still typing where they were
    page.keyboard.type("# on")
    assert page.evaluate("window.playground.getCode()").endswith("# on")
    wait_for_pictures(page)
    changes = [c for c in page.evaluate("window.liveChanges") if not c.startswith("runtime-status")]
    assert len(changes) == 1 and changes[0].startswith("verdict: "), changes  # heard once
    page.evaluate("scrollTo(0, 0)")
    page.keyboard.press("Escape")
    page.locator(".skip").first.focus()
    assert tab(page).startswith("a# Skip to the results")
    page.keyboard.press("Enter")
    expect(verdict).to_be_focused()
    expect(verdict).to_be_in_viewport(ratio=1)


def test_focus_stays_on_check_or_stop_while_checking(page, base_url):
    open_playground(page, base_url)  # the time limit is pages.TIME_LIMIT_MS
    check, stop = page.get_by_role("button", name="Check"), page.locator("#stop")
    page.evaluate("s => window.playground.setCode(s)", "while True:\n    pass\n")
    check.focus()
    page.keyboard.press("Enter")
    expect(stop).to_be_focused()  # Check is disabled while it runs: the keyboard is on Stop
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "error", timeout=15_000)
    expect(check).to_be_focused()  # Stop is hidden when it ends: back on Check
    page.keyboard.press("Space")  # again, and stopped by keyboard
    expect(stop).to_be_focused()
    page.keyboard.press("Enter")
    expect(check).to_be_focused()
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    expect(check).to_be_focused()
    assert focused(page) == "button#check Check"


def test_each_hint_takes_the_focus_and_the_last_keeps_it(page, base_url):
    open_playground(page, base_url)
    page.evaluate(WATCH_LIVE_REGIONS)
    hints = page.get_by_test_id("hints").locator("ol > li")
    page.locator("#hint").focus()
    page.keyboard.press("Enter")
    expect(hints.nth(0)).to_be_focused()  # read once, as it takes the focus
    assert tab(page) == "button#hint Show the next hint"
    page.keyboard.press("Enter")
    expect(hints.nth(1)).to_be_focused()
    tab(page)
    page.keyboard.press("Space")
    expect(hints.nth(2)).to_be_focused()  # the button is gone; the focus is on the hint it showed
    expect(page.locator("#hint")).to_be_hidden()
    assert focused(page).startswith("li# topo, seen = [], set()")
    assert page.evaluate("window.liveChanges") == []  # no live region repeats a hint
    assert tab(page) == "div# The engine's code (read-only)"


def test_typing_makes_no_live_region_speak(page, base_url):
    open_playground(page, base_url)
    page.evaluate(WATCH_LIVE_REGIONS)
    editor_content(page).click()
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type("\n# forty characters typed one at a time.")
    assert "forty characters" in page.evaluate("k => localStorage.getItem(k)", NAMES["storage"]["code"])
    page.evaluate(NEXT_FRAME)
    assert page.evaluate("window.liveChanges") == []
    expect(page.locator("#saved")).to_have_text("Saved in this browser as you type.")


def test_blocked_storage_is_said_once(page, base_url):
    page.add_init_script(
        "Storage.prototype.setItem = () => { throw new DOMException('blocked', 'SecurityError'); }"
    )
    open_playground(page, base_url)
    page.evaluate(WATCH_LIVE_REGIONS)
    editor_content(page).click()
    page.keyboard.type("# typed")
    page.evaluate(NEXT_FRAME)
    assert page.evaluate("window.liveChanges") == ["saved: Not saved: this browser blocks local storage."]


def test_a_check_is_announced_once(page, base_url):
    open_playground(page, base_url)
    for source, said in ((solutions.NOT_REVERSED, "0 of 3 expressions pass."), (solutions.CORRECT, "All 3")):
        page.evaluate(WATCH_LIVE_REGIONS)
        page.evaluate("s => window.playground.check(s)", source)
        wait_for_pictures(page)  # drawn, with their readouts
        page.evaluate(NEXT_FRAME)  # the pictures fit themselves to their boxes
        changes = [c for c in page.evaluate("window.liveChanges") if not c.startswith("runtime-status")]
        assert len(changes) == 1 and changes[0].startswith(f"verdict: {said}"), changes


def test_a_picture_zooms_and_pans_by_keyboard(page, base_url):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_playground(page, base_url)
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    chain = page.locator("[data-testid=results] [data-graph-of=chain]")
    expect(chain).to_have_attribute("data-state", "ready")
    zoom_in = chain.get_by_role("button", name="Zoom in")
    zoom_in.focus()
    page.keyboard.press("Enter")
    expect(zoom_in).to_be_focused()
    expect(chain.locator(".graph-zoom-level")).to_have_text("Shown at 150 %")
    expect(chain.locator(".graph-zoom-level")).to_have_attribute("aria-live", "polite")
    scroller = chain.locator(".graph-scroll")
    scroller.focus()
    page.keyboard.press("+")
    expect(chain.locator(".graph-zoom-level")).to_have_text("Shown at 200 %")
    scroller.evaluate("s => (s.scrollLeft = 0)")
    expect(scroller).to_be_focused()  # the arrow keys pan the picture that has the keyboard
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")  # and there is somewhere to pan to
    page.keyboard.press("ArrowRight")  # scrolls smoothly: wait for it to move
    try:
        page.wait_for_function("s => s.scrollLeft > 0", arg=scroller.element_handle())
    except PlaywrightError as err:  # once, in a full run: say where the keyboard and the picture were
        state = "s => ({ left: s.scrollLeft, focused: document.activeElement?.outerHTML.slice(0, 80) })"
        raise AssertionError(f"ArrowRight did not pan the picture: {scroller.evaluate(state)}") from err
    page.keyboard.press("0")
    expect(chain.locator(".graph-zoom-level")).to_contain_text("Text at page size (100 %)")
    # Tab reaches one value of the picture, the one it opened on (out: the mistake is there); the arrow
    # keys then walk the values.
    out = chain.locator("svg [data-node='21']")
    page.keyboard.press("Tab")
    expect(out).to_be_focused()
    page.keyboard.press("ArrowLeft")
    before = chain.locator("svg [data-node='20']")
    expect(before).to_be_focused()
    label = before.locator(".label").text_content()  # the note says the value focused, in words
    note = chain.get_by_test_id("graph-note")
    expect(note).to_have_text(re.compile(rf"^{re.escape(label)}( = [^:]*)?: data "))
