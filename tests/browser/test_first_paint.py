"""The editor at first paint: a textarea with the saved code, upgraded in place to CodeMirror.

The page is painted with the learner's code in a plain <textarea> (index.html; the inline script of
server/page/first_paint.py puts the saved code in it), and static/js/page/plain-editor.js puts CodeMirror in
its place once CodeMirror's bundle has loaded. The tests hold that bundle back (or block it) with a route, so
each step waits on an explicit signal: #editor's data-editor (plain, code, failed). Each test is a first
visit with no service worker (routed_page), which would keep a copy of the bundle the routes never see.
"""

import re

from playwright.sync_api import expect

from server import create_app
from server.page.names import NAMES
from tests.browser.middleware import Halt
from tests.browser.pages import SEED, TIME_LIMIT_MS, wait_until
from tests.support import solutions

CODE_KEY = NAMES["storage"]["code"]
SAVED = "def backward(out):\n    pass  # saved\n\n# the end\n"
CODE_MIRROR = re.compile(r"/assets/editor-[A-Z0-9]+\.js$")  # CodeMirror's bundle (package.json, build:page)
PAGE_SCRIPT = re.compile(r"/assets/page-[A-Z0-9]+\.js$")  # the page's own bundle
EDITOR_NAME = "Your backward(out) function"


def save_code(page, url, code):
    """Keep code in this browser as a first visit would have."""
    page.goto(url)
    page.evaluate("([key, code]) => localStorage.setItem(key, code)", [CODE_KEY, code])


def hold(page):
    """Hold CodeMirror's bundle back until the returned function is called.

    release(busy_ms) lets it through with a busy loop in front, so the browser is busy loading it for that
    long: keys pressed meanwhile queue, and arrive after the swap, in the textarea's place.
    """
    held = []
    page.route(CODE_MIRROR, lambda route: held.append(route))

    def release(busy_ms=0):
        for route in held:
            response = route.fetch()
            busy = f"{{const t=performance.now();while(performance.now()-t<{busy_ms});}}\n"
            route.fulfill(response=response, body=busy + response.text())
        page.unroute(CODE_MIRROR)

    return release


def editor_state(page):
    return page.locator("#editor").get_attribute("data-editor")


def test_keys_typed_from_first_paint_on_arrive_in_order_through_the_upgrade(routed_page, base_url):
    save_code(routed_page, base_url, SAVED)
    release = hold(routed_page)
    routed_page.goto(base_url, wait_until="commit")
    textarea = routed_page.get_by_role("textbox", name=EDITOR_NAME)
    expect(textarea).to_have_value(SAVED)  # restored before anything is typed
    caret = SAVED.index("  # saved")
    textarea.evaluate("(area, at) => { area.focus(); area.setSelectionRange(at, at); }", caret)
    typed = ""
    for key in "abc":  # before the upgrade
        routed_page.keyboard.type(key)
        typed += key
    assert editor_state(routed_page) == "plain"
    release(busy_ms=500)
    for key in "defghijklmnopqrstuvwxyz0123456789":  # while CodeMirror loads and takes over
        routed_page.keyboard.type(key)
        typed += key
    expect(routed_page.locator("#editor")).to_have_attribute("data-editor", "code")
    for key in "ABC":  # after it, where the caret was left
        routed_page.keyboard.type(key)
        typed += key
    routed_page.wait_for_function("() => window.playground !== undefined")
    assert routed_page.evaluate("window.playground.getCode()") == SAVED[:caret] + typed + SAVED[caret:]
    assert (
        routed_page.evaluate("k => localStorage.getItem(k)", CODE_KEY)
        == SAVED[:caret] + typed + SAVED[caret:]
    )
    expect(routed_page.locator("#editor .cm-content")).to_be_focused()
    expect(routed_page.locator("#code")).to_have_count(0)


def test_the_selection_and_the_label_carry_over_to_codemirror(routed_page, base_url):
    save_code(routed_page, base_url, SAVED)
    release = hold(routed_page)
    routed_page.goto(base_url, wait_until="commit")
    textarea = routed_page.get_by_role("textbox", name=EDITOR_NAME)
    expect(textarea).to_have_attribute("aria-describedby", "editor-keys")
    expect(textarea).to_have_value(SAVED)  # restored: setting the value would move the caret to the end
    start = SAVED.index("saved")
    # selected backwards, as Shift+Left does: the anchor after the word, the head before it
    select = "(area, [a, b]) => { area.focus(); area.setSelectionRange(a, b, 'backward'); }"
    textarea.evaluate(select, [start, start + 5])
    release()
    expect(routed_page.locator("#editor")).to_have_attribute("data-editor", "code")
    editor = routed_page.get_by_role("textbox", name=EDITOR_NAME)
    expect(editor).to_be_focused()
    expect(editor).to_have_attribute("aria-describedby", "editor-keys")
    routed_page.keyboard.press("Shift+ArrowLeft")  # moves the head: now " saved" is selected
    routed_page.keyboard.type("kept")
    routed_page.wait_for_function("() => window.playground !== undefined")
    assert routed_page.evaluate("window.playground.getCode()") == SAVED.replace(" saved", "kept")


def test_a_slow_editor_bundle_is_said_and_the_note_goes_with_the_upgrade(routed_page, base_url):
    release = hold(routed_page)
    routed_page.goto(base_url, wait_until="commit")
    note = routed_page.locator("#editor-note")
    expect(note).to_be_visible()  # after a moment: a slow line, the bundle not there yet
    expect(note).to_contain_text("Highlighting is on its way")
    release()
    expect(routed_page.locator("#editor")).to_have_attribute("data-editor", "code")
    expect(note).to_have_count(0)


def test_the_saved_code_is_in_the_textarea_before_any_bundle_runs(routed_page, base_url):
    save_code(routed_page, base_url, SAVED)
    routed_page.route(re.compile(r"/assets/[^/]+\.js$"), lambda route: route.abort("blockedbyclient"))
    routed_page.goto(base_url)
    # the inline script did it, allowed by its hash
    expect(routed_page.get_by_role("textbox", name=EDITOR_NAME)).to_have_value(SAVED)


def test_a_page_script_that_does_not_load_is_said_and_stays_said(routed_page, base_url):
    routed_page.route(PAGE_SCRIPT, lambda route: route.abort("blockedbyclient"))
    routed_page.goto(base_url)
    status = routed_page.get_by_test_id("runtime-status")
    expect(status).to_contain_text("The editor could not load")
    expect(status).to_have_attribute("data-state", "failed")
    # The runtime loads all the same; what it says then must not cover the page's failure.
    wait_until(routed_page, "() => performance.getEntriesByName('runtime: worker loaded').length > 0")
    expect(status).to_contain_text("The editor could not load")
    expect(status).to_have_attribute("data-state", "failed")
    expect(routed_page.get_by_role("button", name="Check")).to_be_disabled()


def test_without_codemirror_the_textarea_edits_saves_and_checks(routed_page, base_url):
    routed_page.route(CODE_MIRROR, lambda route: route.abort("blockedbyclient"))
    routed_page.goto(base_url)
    editor = routed_page.locator("#editor")
    expect(editor).to_have_attribute("data-editor", "failed")
    expect(routed_page.locator("#editor-note")).to_be_visible()
    expect(routed_page.locator("#editor-note")).to_contain_text("could not load")
    textarea = routed_page.get_by_role("textbox", name=EDITOR_NAME)
    textarea.click()
    routed_page.keyboard.press("ControlOrMeta+a")
    routed_page.keyboard.press("Delete")
    lines = solutions.CORRECT.rstrip("\n").split("\n")
    for i, line in enumerate(lines):  # indentation typed with Tab, as the note under the editor says
        if i:
            routed_page.keyboard.press("Enter")
        stripped = line.lstrip(" ")
        for _ in range((len(line) - len(stripped)) // 4):
            routed_page.keyboard.press("Tab")
        routed_page.keyboard.type(stripped)
    expect(textarea).to_be_focused()
    assert routed_page.evaluate("k => localStorage.getItem(k)", CODE_KEY) == solutions.CORRECT.rstrip("\n")
    routed_page.wait_for_function("() => window.playground !== undefined")
    assert routed_page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    routed_page.keyboard.press("ControlOrMeta+Enter")  # checks, from the textarea
    expect(routed_page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass", timeout=30_000)
    routed_page.keyboard.press("Escape")
    routed_page.keyboard.press("Tab")  # Esc then Tab leaves it
    expect(textarea).not_to_be_focused()
    routed_page.reload()
    expect(editor).to_have_attribute("data-editor", "failed")
    expect(routed_page.get_by_role("textbox", name=EDITOR_NAME)).to_have_value(solutions.CORRECT.rstrip("\n"))


def test_the_plain_textarea_wraps_as_the_learner_chose(routed_page, base_url):
    routed_page.set_viewport_size({"width": 390, "height": 844})
    routed_page.route(CODE_MIRROR, lambda route: route.abort("blockedbyclient"))
    routed_page.goto(base_url)
    expect(routed_page.locator("#editor")).to_have_attribute("data-editor", "failed")
    textarea = routed_page.get_by_role("textbox", name=EDITOR_NAME)
    sideways = "t => t.scrollWidth > t.clientWidth"
    assert not textarea.evaluate(sideways), "the starter's comment is cut off"
    wrap = routed_page.get_by_role("checkbox", name="Wrap long lines")
    wrap.uncheck()
    expect(textarea).to_have_attribute("wrap", "off")
    assert textarea.evaluate(sideways)
    routed_page.route(re.compile(r"/assets/[^/]+\.js$"), lambda route: route.abort("blockedbyclient"))
    routed_page.reload()  # no bundle at all: the inline script alone restores the choice
    expect(textarea).to_have_attribute("wrap", "off")
    expect(wrap).not_to_be_checked()
    assert textarea.evaluate(sideways)


def test_a_page_script_refused_before_the_body_has_arrived_is_said_once_it_has(routed_page, serve):
    # A blocker refuses the script at once, while the rest of the page is still on its way: the page says
    # so when its status line is there, and nothing throws meanwhile (the `page` fixture checks).
    halt = Halt(create_app({"TESTING": True, "TIME_LIMIT_MS": TIME_LIMIT_MS}), "/" + SEED, b"<body")
    url = serve.wsgi(halt) + SEED
    routed_page.route(PAGE_SCRIPT, lambda route: route.abort("blockedbyclient"))
    # The runtime's worker asks for Pyodide after main.js has run, and so asked for the page's script.
    with routed_page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        routed_page.goto(url, wait_until="commit")
    assert routed_page.evaluate("document.getElementById('runtime-status')") is None  # the body: not yet
    halt.open.set()
    status = routed_page.get_by_test_id("runtime-status")
    expect(status).to_contain_text("The editor could not load")
    expect(status).to_have_attribute("data-state", "failed")
