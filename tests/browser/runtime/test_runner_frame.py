"""Pasted code cannot take over the playground: it runs where the page's origin is not its own.

Learner code runs in workers of the runner frame, a sandboxed iframe with an opaque origin
(runtime/server.py): the origin's Cache Storage, IndexedDB, local storage, cookies and service worker
are not there to write. These tests try it as an attacker would, and then come back as the learner
does: a reload and a browser restart on the same profile, where nothing the code could have written is
trusted, and a right Check passes and a wrong one fails. The same probe runs in every other hosting
mode too, in the test of that mode (test_hosting.py: under a prefix, behind a proxy, a static export,
in a course page's iframe).
"""

import json
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.serving import make_server

from engine.compare import TOLERANCE
from server import create_app
from server.exercises import value_sets
from server.page import page as page_view
from server.page.names import NAMES
from tests.browser.checks import PROBE, check, sees_no_storage, then_honest
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.hosts import Dispatch, course_page, ready_frame
from tests.browser.pages import SEED, TIME_LIMIT_MS, open_playground, watched_page
from tests.browser.service_worker import offline_state
from tests.support import solutions
from tests.support.builds import new_build_app

# Pasted code that tries to leave something behind for later Checks and visits: at module level, in
# backward, and in a timer that would run after the report if its worker were not ended.
ATTACK = (
    """import js
from pyodide.ffi import create_proxy
def attack(*_):
    for leave in (
        lambda: js.caches.open(SNAPSHOT_CACHE),
        lambda: js.indexedDB.open("pwned"),
        lambda: js.localStorage.setItem(CODE_KEY, "pwned"),
        lambda: js.self.postMessage(js.JSON.parse('{"type": "report", "passed": true}')),
    ):
        try:
            leave()
        except Exception:
            pass
attack()
js.setTimeout(create_proxy(attack), 0)
""".replace("SNAPSHOT_CACHE", repr(NAMES["caches"]["snapshot"])).replace(
        "CODE_KEY", repr(NAMES["storage"]["code"])
    )
    + solutions.CORRECT.replace("def backward(out):\n", "def backward(out):\n    attack()\n", 1)
)


def test_learner_code_sees_none_of_the_origins_storage(page, base_url):
    open_playground(page, base_url)
    sees_no_storage(page)


def test_embedded_same_site_too(host, context):
    # The course page and the playground on one origin: what the playground's page could write
    # there, the course page would trust. Learner code still reaches none of it.
    playground = create_app({"TESTING": True})
    site = Dispatch()
    base = host(site)
    embedding = course_page(base + "playground/" + SEED, isolated=True)
    site.app = DispatcherMiddleware(embedding, {"/playground": playground})
    page, assert_clean = watched_page(context, {base.split("/")[2]})
    page.goto(base + "course")
    sees_no_storage(ready_frame(page, base + "playground/" + SEED))
    assert_clean()


def test_the_first_check_runs_in_the_same_kind_of_runtime_as_the_next(page, base_url):
    # The runtime that took the snapshot never runs learner code: Check 1 and Check 2 see the same.
    open_playground(page, base_url)
    first, second = (check(page, PROBE + solutions.CORRECT) for _ in range(2))
    assert first["output"]["text"] == second["output"]["text"]
    assert first["passed"] is second["passed"] is True


def test_later_runtimes_share_the_runner_frames_compiled_webassembly(page, base_url):
    # Each runtime instantiates the module the runner frame compiled (a compile per runtime made every
    # Check about 3x slower): the status line says which the next Check's runtime did.
    open_playground(page, base_url)
    status = page.get_by_test_id("runtime-status")
    for _ in range(2):
        then_honest(page)
        expect(status).to_have_attribute("data-fresh", "ready")
        expect(status).to_have_attribute("data-wasm", "shared")


def test_the_worker_hands_python_the_interrupt_view(page, base_url):
    # Pyodide reads the interrupt word through a view that reads and clears it in one step
    # (runtime/worker/interrupt.js), never the plain buffer, whose stops a busy loop can lose.
    open_playground(page, base_url)
    probe = "import pyodide_js\nprint(pyodide_js._module.Py_EmscriptenSignalBuffer.constructor.name)\n"
    report = check(page, probe + solutions.CORRECT)
    assert report["output"]["text"] == "Object\n", report["output"]["text"]


# In the kept snapshot, set every double equal to one of `values` to 1e300: a snapshot that still
# restores, whose grader then takes other numbers as right (the attack changed the expected
# gradients; the snapshot holds no exercise's cases now, but it holds the grader's default tolerance,
# engine/compare.py's, by which an exercise that gives none is graded).
TAMPER = """async (values) => {
  const cache = await caches.open(SNAPSHOT_CACHE);
  const [request] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
  const view = new DataView(bytes.buffer);
  let changed = 0;
  for (let i = 0; i + 8 <= bytes.length; i += 8) {
    if (values.includes(view.getFloat64(i, true))) {
      view.setFloat64(i, 1e300, true);
      changed += 1;
    }
  }
  await cache.put(request, new Response(bytes));
  return changed;
}""".replace("SNAPSHOT_CACHE", json.dumps(NAMES["caches"]["snapshot"]))

SNAPSHOT_KEY = NAMES["storage"]["snapshot"]
KEPT = f"() => localStorage.getItem({json.dumps(SNAPSHOT_KEY)}) !== null"


def persistent(browser, profile):
    """A browser on a profile kept on disk: a restart is a learner's next visit."""
    return browser.browser_type.launch_persistent_context(
        str(profile), executable_path=chromium_path(), args=TEST_ARGS
    )


def visit(context, url, origins):
    page, assert_clean = watched_page(context, origins)
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    open_playground(page, url)
    page.messages = messages
    return page, assert_clean


def start_of(page):
    return page.get_by_test_id("runtime-status").get_attribute("data-start")


def test_a_kept_snapshot_that_does_not_match_its_digest_is_never_restored(browser, serve, tmp_path):
    url = serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED
    context = persistent(browser, tmp_path / "profile")
    page, assert_clean = visit(context, url, serve.origins)
    page.wait_for_function(KEPT)
    assert page.evaluate(TAMPER, [TOLERANCE]) > 0  # the grader's tolerance is in it
    page.reload()
    page.wait_for_function("() => window.playground !== undefined")
    page.evaluate("window.playground.ready")
    assert start_of(page) == "full"  # not the tampered snapshot
    assert any("does not match its digest" in m for m in page.messages), page.messages
    then_honest(page)  # graded against the right gradients
    page.wait_for_function(KEPT)
    context.close()
    context = persistent(browser, tmp_path / "profile")  # the next visit: a new snapshot, kept right
    page, assert_clean = visit(context, url, serve.origins)
    assert start_of(page) == "stored"
    then_honest(page)
    context.close()
    assert_clean()


def test_pasted_code_leaves_nothing_for_later_checks_or_visits(browser, serve, tmp_path):
    url = serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED
    context = persistent(browser, tmp_path / "profile")
    page, assert_clean = visit(context, url, serve.origins)
    offline_state(page, "kept")
    page.wait_for_function(KEPT)
    kept = page.evaluate("k => localStorage.getItem(k)", SNAPSHOT_KEY)
    caches = page.evaluate("async () => (await caches.keys()).sort()")
    page.evaluate("s => window.playground.setCode(s)", ATTACK)
    report = page.evaluate("() => window.playground.check()")
    assert report["passed"] is True, report["error"]
    then_honest(page)  # check(source) puts each source in the editor: the learner's code goes back in after
    page.evaluate("s => window.playground.setCode(s)", ATTACK)
    checks = 3
    for step in ("reload", "restart"):
        if step == "reload":
            page.reload()
            page.wait_for_function("() => window.playground !== undefined")
            page.evaluate("window.playground.ready")
        else:
            context.close()
            context = persistent(browser, tmp_path / "profile")
            page, assert_clean = visit(context, url, serve.origins)
        assert start_of(page) == "stored", step
        assert page.evaluate("window.playground.getCode()") == ATTACK  # the learner's code, kept
        assert page.evaluate("k => localStorage.getItem(k)", SNAPSHOT_KEY) == kept
        assert page.evaluate("async () => (await caches.keys()).sort()") == caches
        assert page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)") == []
        progress = json.loads(page.evaluate("k => localStorage.getItem(k)", NAMES["storage"]["progress"]))
        assert progress["attempts"] == checks, progress  # counted by the page, never written by the code
        then_honest(page)
        page.evaluate("s => window.playground.setCode(s)", ATTACK)
        checks += 2
    context.close()
    assert_clean()


@pytest.fixture
def switchable():
    """One origin whose app a test can swap: a deploy, as a returning learner meets it."""
    site = Dispatch()
    server = make_server("127.0.0.1", 0, site, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield site, f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


def neuron_cases(report) -> int:
    return len(next(e for e in report["expressions"] if e["name"] == "neuron")["cases"])


def test_a_deploy_that_changes_the_cases_grades_by_the_new_ones_and_a_new_worker_is_never_restored_old(
    switchable, context, monkeypatch, tmp_path
):
    site, root = switchable
    url = root + SEED  # the seed's page
    site.app = create_app({"TESTING": True})
    page, assert_clean = watched_page(context, {url.split("/")[2]})
    open_playground(page, url)
    page.wait_for_function(KEPT)
    before = neuron_cases(check(page, solutions.CORRECT))
    # A deploy that adds a value set: the kept snapshot holds no cases (a runtime loads the page's after
    # its restore), so it still serves, and the new value set is graded.
    cases = value_sets.graded_cases()
    more = [*cases, {**next(c for c in cases if c["group"] == "neuron"), "example": False}]
    monkeypatch.setattr(page_view, "graded_cases", lambda verdict="seed": more)
    site.app = create_app({"TESTING": True})
    open_playground(page, url)
    assert start_of(page) == "stored"
    assert neuron_cases(check(page, solutions.CORRECT)) == before + 1
    page.wait_for_function(KEPT)
    monkeypatch.undo()
    # A deploy that changes only the worker's bundle.
    site.app = new_build_app(tmp_path / "build")
    open_playground(page, url)
    assert start_of(page) == "full"
    then_honest(page)
    assert_clean()


def test_memory_taken_through_javascript_loses_nothing(page, base_url):
    # 2 GiB of JavaScript buffers is past the 1 GiB cap on Python's own memory (docs/security.md says
    # so): the page lives on, the learner's code is kept, and the next Checks are honest.
    open_playground(page, base_url)
    source = "import js\nheld = [js.ArrayBuffer.new(2**28) for _ in range(8)]\n" + solutions.CORRECT
    page.evaluate("s => window.playground.setCode(s)", source)
    report = page.evaluate("() => window.playground.check()")
    assert report["error"] is None or report["error"]["kind"] in ("runtime", "crash", "timeout"), report
    assert page.evaluate("k => localStorage.getItem(k)", NAMES["storage"]["code"]) == source
    then_honest(page)
