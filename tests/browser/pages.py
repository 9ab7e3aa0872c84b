"""Driving the real page: open it, watch it for errors and stray requests, wait on it, type and answer."""

import json
import re
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from server import ROOT
from server.exercises.registry import LEGACY
from tests.support.served_page import exercise_path

# The test servers' time limit: short, so code that loops is stopped soon, yet an honest Check of every
# case (the deep chain, the order graphs) ends well inside it on a 2-core machine running 3 test processes.
TIME_LIMIT_MS = 4000
READY_MS = 60_000  # the runtime's first load on a slow, shared machine


def exercise_page_path(exercise: str) -> str:
    """An exercise's page, relative to a test server's root URL (which ends in /)."""
    return exercise_path(exercise).removeprefix("/")


SEED = exercise_page_path(LEGACY)  # the seed's exercise's page


def watched_page(context, origins):
    """Open a page that records uncaught errors and requests outside origins; return it and a check."""
    page = context.new_page()
    errors, offsite = [], []
    # What the page said went wrong, for a failure's message (open_playground): not a check of its own.
    page.troubles = []
    page.on("pageerror", lambda exc: (errors.append(str(exc)), page.troubles.append(f"uncaught: {exc}")))
    said = lambda m: m.type in ("error", "warning") and page.troubles.append(f"{m.type}: {m.text}")  # noqa: E731
    page.on("console", said)
    page.on("requestfailed", lambda r: page.troubles.append(f"failed: {r.url} {r.failure}"))
    page.pending = set()  # the page's requests that have neither finished nor failed (for the same message)
    page.on("request", lambda r: page.pending.add(r.url))
    page.on("requestfinished", lambda r: page.pending.discard(r.url))
    page.on("requestfailed", lambda r: page.pending.discard(r.url))
    # blob: URLs (the runner frame's scripts and workers) name bytes already in the browser: no request leaves
    local = lambda url: urlsplit(url).scheme == "blob" or urlsplit(url).netloc in origins  # noqa: E731
    # The context's, to see its workers' requests too; no longer heard once the page is closed (a kept
    # context outlives its pages).
    heard = lambda request: local(request.url) or offsite.append(request.url)  # noqa: E731
    context.on("request", heard)
    page.on("close", lambda _: context.remove_listener("request", heard))
    page.set_default_timeout(30_000)

    def assert_clean():
        assert errors == [], f"uncaught errors on the page: {errors}"
        assert offsite == [], f"requests that left the origin: {offsite}"

    return page, assert_clean


def recipe(title: str) -> str:
    """The JavaScript of docs/page-contract.md's recipe under a heading, as written there."""
    docs = (ROOT / "docs/page-contract.md").read_text()
    section = docs[docs.index(title) :]
    return re.search(r"```js\n(.*?)```", section, re.S)[1]


KEEP_RUNTIME = recipe("### A quicker fresh start: keep the runtime")


def reset_keeping_runtime(context, origins) -> None:
    """Reset the learner's state each origin keeps (docs/page-contract.md's quicker recipe), in a page
    of the context's own (none of a test's init scripts or routes): a light document of each origin.
    A server that is gone has nothing left to reset."""
    page = context.new_page()
    try:
        for origin in sorted(origins):
            try:
                page.goto(origin + "/schema/report.json")
            except PlaywrightError:
                continue
            page.evaluate(KEEP_RUNTIME)
    finally:
        page.close()


def returning_page(context, origins, base_url):
    """A watched page in a kept context, which has visited the page before; return it, a check, and a
    reset for after the test. The learner's state is reset after the test on every origin the page
    visits, so what a test does never reaches the next, and first too where the context is not known to
    be clean (context.clean: new, or its last reset done); the runtime kept there is used."""
    visited = {origin_of(base_url)}
    if not getattr(context, "clean", False):
        reset_keeping_runtime(context, visited)
    context.clean = False
    page, assert_clean = watched_page(context, origins)

    def navigated(frame):
        if frame == page.main_frame and frame.url.startswith("http"):
            visited.add(origin_of(frame.url))

    def reset():
        reset_keeping_runtime(context, visited)
        context.clean = True

    page.on("framenavigated", navigated)
    return page, assert_clean, reset


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# What the page had loaded, and how long each took: said when its script never came to define the API.
LOADED = """() => ({ url: location.href, state: document.readyState,
  controlled: Boolean(navigator.serviceWorker?.controller),
  status: document.querySelector('#runtime-status')?.textContent,
  loaded: performance.getEntriesByType('resource')
    .map(e => `${e.name.split('/').pop()} ${e.responseStatus} ${Math.round(e.duration)} ms`) })"""


def open_playground(page, url):
    """Open the page and wait until Check grades."""
    page.goto(url)
    try:
        page.wait_for_function("() => window.playground !== undefined")  # a function: CSP forbids eval
    except PlaywrightError as err:
        said, pending = getattr(page, "troubles", []), sorted(getattr(page, "pending", []))
        news = f"{page.evaluate(LOADED)}; it said: {said}; waiting for: {pending}"
        raise AssertionError(f"the page's API never came: {news}") from err
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    return page


def wait_until(page, predicate: str, arg=None, timeout_ms: int = 30_000):
    """Wait until predicate (a JavaScript function of arg) resolves to something truthy, in the page.

    For a predicate that returns a promise (Cache Storage, say): page.wait_for_function takes the
    promise itself as its truthy answer, and so returns at once without waiting for anything.
    """
    page.evaluate(
        f"""async (arg) => {{
          const predicate = {predicate};
          const deadline = performance.now() + {timeout_ms};
          while (!(await predicate(arg))) {{
            if (performance.now() > deadline) throw new Error({json.dumps("still false: " + predicate)});
            await new Promise((resolve) => setTimeout(resolve, 50));
          }}
        }}""",
        arg,
    )


def wait_for_pictures(page):
    """Wait until every open picture is drawn (or has said why not)."""
    for graph in page.locator("[data-testid=graph][open]").all():
        expect(graph).not_to_have_attribute("data-state", re.compile(r"^(closed|loading)$"))


def type_code(page, code):
    """Replace the editor's code by typing it as a person would, whatever the auto-indent adds."""
    page.locator("#editor .cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    for i, line in enumerate(code.rstrip("\n").split("\n")):
        if i:
            page.keyboard.press("Enter")
            page.keyboard.press("Shift+Home")  # select the auto-indent; what is typed replaces it
        page.keyboard.type(line if line.strip() else " ")
        if not line.strip():
            page.keyboard.press("Backspace")
    assert page.evaluate("window.playground.getCode()").rstrip() == code.rstrip()


def answer(page, yes: bool) -> None:
    """Answer the page's question (its in-page dialog, page/ask.js) as a learner would: by its buttons."""
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    no = dialog.get_by_test_id("ask-no")
    expect(no).to_be_focused()  # the safe answer has the focus
    (dialog.get_by_test_id("ask-yes") if yes else no).click()
    expect(dialog).to_be_hidden()


# What has the focus: its tag, id and accessible text, e.g. "button#check Check".
FOCUSED = """() => { const e = document.activeElement;
  const text = (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40);
  return `${e.tagName.toLowerCase()}#${e.id} ${text}`; }"""


def focused(page) -> str:
    """What has the keyboard's focus, as FOCUSED says it."""
    return page.evaluate(FOCUSED)


def tab(page, key="Tab") -> str:
    """Press Tab (or key) and say what has the focus then."""
    page.keyboard.press(key)
    return focused(page)


def launched_window(page, lms, user: str):
    """Launch as user in a window of its own (first-party: local storage is the tool's); the page."""
    page.goto(lms.platform.url + f"start?user={user}&link=link-1")  # login, platform, form post: the page
    expect(page.locator("#check")).to_be_enabled(timeout=60_000)
    assert page.url.endswith("/lti/launch")
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    return page
