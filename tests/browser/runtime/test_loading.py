"""Loading as a learner meets it: the bytes counted, a slow line, a stall, a file that fails, Retry in
place, Check pressed early, and the snapshot a returning visit starts from: each test a first visit
(fresh_page)."""

import json
import re
import time

from playwright.sync_api import expect

from server import create_app
from server.exercises.registry import LEGACY
from server.page.names import NAMES
from tests.browser.middleware import Gate, Trickle
from tests.browser.pages import (
    READY_MS,
    SEED,
    TIME_LIMIT_MS,
    exercise_page_path,
    open_playground,
    wait_until,
)
from tests.support import solutions
from tests.support.graded_exercise import code

# The snapshot this browser kept: how many entries, and the size of the first.
SNAPSHOT_CACHE = json.dumps(NAMES["caches"]["snapshot"])
KEPT = f"""async () => {{
  const cache = await caches.open({SNAPSHOT_CACHE});
  const keys = await cache.keys();
  return keys.length ? [keys.length, (await (await cache.match(keys[0])).arrayBuffer()).byteLength] : [0, 0];
}}"""


def hosted(serve, wrap=None, **config) -> str:
    """Serve the playground, its WSGI app wrapped in a middleware; return its URL."""
    app = create_app({"TESTING": True, "TIME_LIMIT_MS": TIME_LIMIT_MS, **config})
    if wrap is not None:
        app.wsgi_app = wrap(app.wsgi_app)
    return serve.wsgi(app) + SEED


def status(page):
    return page.get_by_test_id("runtime-status")


def honest(page):
    """A correct solution passes and a wrong one fails: the runtime that loaded really grades."""
    assert page.evaluate("s => window.playground.check(s)", solutions.CORRECT)["passed"] is True
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    report = page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    assert report["passed"] is False and report["error"] is None, report["error"]


def test_a_progress_bar_counts_the_bytes_until_python_is_ready(fresh_page, serve):
    gates = []
    url = hosted(serve, lambda app: gates.append(Gate(app, "python_stdlib")) or gates[0])
    fresh_page.goto(url)
    bar = fresh_page.get_by_role("progressbar", name="Python runtime downloaded")
    expect(bar).to_be_visible()
    expected = fresh_page.evaluate("JSON.parse(document.getElementById('config').textContent).loadBytes")
    # The wasm and the engine arrive while the stdlib is held: some of the bytes, not all.
    fresh_page.wait_for_function("() => document.getElementById('load-progress').value > 1e6")
    value, maximum = fresh_page.evaluate(
        "['value', 'max'].map((k) => document.getElementById('load-progress')[k])"
    )
    assert 1e6 < value < maximum == expected
    expect(fresh_page.locator("#load-bytes")).to_have_text(
        re.compile(rf"^\d+\.\d of {expected / 1e6:.1f} MB$")
    )
    expect(status(fresh_page)).to_have_attribute("data-state", "loading")
    gates[0].open.set()
    expect(status(fresh_page)).to_have_attribute("data-state", "ready", timeout=READY_MS)
    expect(bar).to_be_hidden()


def test_a_slow_line_gets_there_with_no_overall_deadline(fresh_page, serve):
    # The wasm (3.5 MB gzipped) comes in 96 KB pieces 0.3 s apart: ten seconds and more in all, never
    # long without bytes. (The stall limit leaves room for starting Python once the bytes are in.)
    url = hosted(serve, lambda app: Trickle(app, "pyodide.asm.wasm", 96 * 1024, 0.3), LOAD_STALL_MS=8000)
    started = time.monotonic()
    fresh_page.goto(url)
    expect(status(fresh_page)).to_have_attribute("data-state", "ready", timeout=READY_MS)
    assert time.monotonic() - started > 8  # as long as the stall limit and more: only a stall fails a load
    honest(fresh_page)


def test_a_stalled_load_fails_and_retry_loads_in_place_with_the_code_kept(fresh_page, serve):
    gates = []
    url = hosted(serve, lambda app: gates.append(Gate(app, "python_stdlib")) or gates[0], LOAD_STALL_MS=8000)
    fresh_page.goto(url)
    fresh_page.wait_for_function("() => window.playground !== undefined")
    fresh_page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    expect(status(fresh_page)).to_have_attribute("data-state", "dead", timeout=READY_MS)
    expect(status(fresh_page)).to_contain_text("nothing arrived for 8 s")
    expect(status(fresh_page)).to_contain_text("Your code is kept: press Retry")
    assert "nothing arrived" in fresh_page.evaluate(
        "window.playground.ready.then(() => 'ready', (e) => e.message)"
    )
    report = fresh_page.evaluate("window.playground.check()")  # says what is wrong, does not wait forever
    assert report["error"]["kind"] == "crash" and "press Retry" in report["error"]["message"]
    gates[0].open.set()
    retry = fresh_page.get_by_role("button", name="Retry")
    retry.focus()
    fresh_page.keyboard.press("Enter")
    expect(status(fresh_page)).to_be_focused()  # Retry hides itself; the keyboard goes where the news is
    expect(status(fresh_page)).to_have_attribute("data-state", "ready", timeout=READY_MS)
    expect(retry).to_be_hidden()
    assert fresh_page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    assert fresh_page.evaluate("window.playground.getCode()") == solutions.CORRECT
    honest(fresh_page)


def test_a_file_that_cannot_be_fetched_fails_the_load_at_once(fresh_page, base_url):
    fresh_page.route("**/python_stdlib.zip", lambda route: route.fulfill(status=404, body="gone"))
    started = time.monotonic()
    fresh_page.goto(base_url)
    expect(status(fresh_page)).to_have_attribute("data-state", "dead", timeout=READY_MS)
    assert time.monotonic() - started < 8  # not the 15 s a stall takes
    expect(status(fresh_page)).to_contain_text("python_stdlib.zip could not be fetched (HTTP 404)")
    fresh_page.unroute("**/python_stdlib.zip")
    fresh_page.route("**/pyodide.asm.wasm", lambda route: route.abort("blockedbyclient"))
    fresh_page.get_by_role("button", name="Retry").click()
    wasm_failed = re.compile(r"pyodide\.asm\.wasm could not be fetched \(.+\)")
    expect(status(fresh_page)).to_contain_text(wasm_failed, timeout=READY_MS)
    fresh_page.unroute("**/pyodide.asm.wasm")
    fresh_page.get_by_role("button", name="Retry").click()
    expect(status(fresh_page)).to_have_attribute("data-state", "ready", timeout=READY_MS)
    honest(fresh_page)


def test_check_pressed_before_python_is_ready_runs_once_it_is(fresh_page, serve):
    gates = []
    url = hosted(serve, lambda app: gates.append(Gate(app, "/engine-")) or gates[0])
    fresh_page.goto(url)
    fresh_page.wait_for_function("() => window.playground !== undefined")
    fresh_page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    check = fresh_page.locator("#check")
    check.click()
    expect(check).to_have_text("Waiting for Python…")
    gates[0].open.set()
    expect(fresh_page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass", timeout=READY_MS)
    expect(check).to_have_text("Check")


def test_check_is_inert_until_the_page_script_can_run_it(fresh_page, serve):
    gates = []
    url = hosted(serve, lambda app: gates.append(Gate(app, "/assets/page-")) or gates[0])
    fresh_page.goto(url)
    check = fresh_page.get_by_role("button", name="Check")
    expect(check).to_be_disabled()  # a click now would do nothing: the button says so
    gates[0].open.set()
    expect(check).to_be_enabled()
    check.click()
    expect(fresh_page.get_by_test_id("verdict")).not_to_have_attribute(
        "data-status", "none", timeout=READY_MS
    )


def test_a_returning_visit_starts_from_the_snapshot_this_browser_kept(fresh_page, base_url):
    open_playground(fresh_page, base_url)
    expect(status(fresh_page)).to_have_attribute("data-start", "full")
    wait_until(fresh_page, f"() => ({KEPT})().then(([n, size]) => n === 1 && size > 1e6)")
    fresh_page.reload()
    open_playground(fresh_page, base_url)
    expect(status(fresh_page)).to_have_attribute("data-start", "stored")
    honest(fresh_page)


def test_a_kept_snapshot_that_does_not_restore_is_replaced_by_a_full_start(fresh_page, base_url):
    open_playground(fresh_page, base_url)
    wait_until(fresh_page, f"() => ({KEPT})().then(([n, size]) => n === 1 && size > 1e6)")
    fresh_page.evaluate(
        f"""async () => {{
          const cache = await caches.open({SNAPSHOT_CACHE});
          const [key] = await cache.keys();
          await cache.put(key, new Response(new Uint8Array(4096).fill(7)));  // damaged
        }}"""
    )
    fresh_page.reload()
    open_playground(fresh_page, base_url)
    expect(status(fresh_page)).to_have_attribute("data-start", "full")
    honest(fresh_page)
    wait_until(fresh_page, f"() => ({KEPT})().then(([n, size]) => n === 1 && size > 1e6)")  # a good one again
    fresh_page.reload()
    open_playground(fresh_page, base_url)
    expect(status(fresh_page)).to_have_attribute("data-start", "stored")


def test_where_cache_storage_is_blocked_every_visit_starts_in_full(fresh_page, base_url):
    blocked = "get() { throw new DOMException('blocked', 'SecurityError'); }"
    fresh_page.add_init_script(f"Object.defineProperty(window, 'caches', {{ {blocked} }})")
    for _ in range(2):
        open_playground(fresh_page, base_url)
        expect(status(fresh_page)).to_have_attribute("data-start", "full")
        honest(fresh_page)


def test_the_next_exercise_of_the_course_restores_the_snapshot_the_first_one_kept(fresh_page, serve):
    # One snapshot for every exercise of a build: the first page boots Python in full and keeps it; the
    # next exercises' pages restore it, load their own exercise into it and grade that exercise.
    root = serve(TIME_LIMIT_MS=TIME_LIMIT_MS)
    open_playground(fresh_page, root + exercise_page_path("ops"))
    expect(status(fresh_page)).to_have_attribute("data-start", "full")
    wait_until(fresh_page, f"() => ({KEPT})().then(([n, size]) => n === 1 && size > 1e6)")
    for exercise in ("step", LEGACY):
        open_playground(fresh_page, root + exercise_page_path(exercise))
        expect(status(fresh_page)).to_have_attribute("data-start", "stored")
        reference = code(exercise, "reference.py")
        assert fresh_page.evaluate("s => window.playground.check(s)", reference)["passed"] is True
        key = json.loads(code(exercise, "exercise.json"))["mistakes"][0]["key"]
        wrong = code(exercise, f"mistakes/{key}.py")
        report = fresh_page.evaluate("s => window.playground.check(s)", wrong)
        named = {e["mistake"]["kind"] for e in report["expressions"] if not e["passed"] and e["mistake"]}
        assert report["passed"] is False and key in named, (exercise, key, named)
    assert fresh_page.evaluate(f"() => ({KEPT})()")[0] == 1  # still the one snapshot, never replaced
