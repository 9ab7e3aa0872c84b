"""Moving through the course inside the page (static/js/page/course-nav.js): Previous and Next keep the
runtime (the page is not loaded again, Python's files are fetched once, the runner frame stays), each
exercise then grades its own code (its reference passes, a named mistake is named), Back, Forward and a
reload show the right exercise with its saved code, and learner code on one exercise reaches nothing of
the next's."""

import json
import re

from playwright.sync_api import expect

from tests.browser.axe import serious_violations
from tests.browser.pages import exercise_page_path, open_playground, type_code
from tests.browser.service_worker import kept_offline
from tests.support.exercise_folders import heading
from tests.support.graded_exercise import code

# What tells a page that was not loaded again: a mark of the page's own, the runtime's first load's
# (one per page load), and Pyodide's wasm fetched once.
KEPT = """() => ({ sentinel: window.nav_sentinel === true,
  starts: performance.getEntriesByName("runtime: start").length,
  wasm: performance.getEntriesByType("resource")
    .filter((e) => e.name.endsWith("pyodide.asm.wasm")).length })"""
SHOWN = """id => JSON.parse(document.getElementById('config').textContent).exercise === id
  && window.playground !== undefined"""


def mistake(exercise: str) -> str:
    return json.loads(code(exercise, "exercise.json"))["mistakes"][0]["key"]


def moved_to(page, exercise: str, link: str | None) -> None:
    """Follow the course place's link (rel prev or next; None: Back or Forward was pressed) to exercise."""
    if link:
        page.locator(f"[data-testid=course-place] a[rel={link}]").click()
    page.wait_for_function(SHOWN, arg=exercise)
    assert page.url.endswith("/" + exercise_page_path(exercise)), page.url
    expect(page.locator("h1")).to_contain_text(heading(exercise))
    status = page.get_by_test_id("runtime-status")  # the new body's status line follows the runtime
    expect(status).to_have_attribute("data-fresh", "ready")
    expect(status).to_have_text("Python runtime ready.")


def grades_its_own(page, exercise: str) -> None:
    report = page.evaluate("s => window.playground.check(s)", code(exercise, "reference.py"))
    assert (report["passed"], report["exercise"]) == (True, exercise), report
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    key = mistake(exercise)
    report = page.evaluate("s => window.playground.check(s)", code(exercise, f"mistakes/{key}.py"))
    named = {e["mistake"]["kind"] for e in report["expressions"] if not e["passed"] and e["mistake"]}
    assert report["exercise"] == exercise and key in named, report
    expect(page.get_by_test_id("verdict-mistake")).to_have_attribute("data-kind", key)


def test_next_and_previous_keep_the_runtime_and_grade_their_own_exercise(page, base_url):
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    page.evaluate("window.nav_sentinel = true")
    moved_to(page, "neuron", "next")
    assert page.evaluate(KEPT) == {"sentinel": True, "starts": 1, "wasm": 1}
    grades_its_own(page, "neuron")
    moved_to(page, "ops", "prev")
    grades_its_own(page, "ops")
    assert page.evaluate(KEPT) == {"sentinel": True, "starts": 1, "wasm": 1}
    shown = page.evaluate("performance.getEntriesByName('page: exercise shown').map((m) => m.detail)")
    assert shown == ["neuron", "ops"]  # docs/page-contract.md: one mark per move


def test_back_forward_and_reload_show_the_exercise_with_its_saved_code(page, base_url):
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    type_code(page, "# mine, on ops")
    moved_to(page, "neuron", "next")
    type_code(page, "# mine, on neuron")
    page.go_back()
    moved_to(page, "ops", None)
    assert page.evaluate("window.playground.getCode()") == "# mine, on ops"
    page.go_forward()
    moved_to(page, "neuron", None)
    assert page.evaluate("window.playground.getCode()") == "# mine, on neuron"
    page.reload()
    page.wait_for_function(SHOWN, arg="neuron")
    assert page.evaluate("window.playground.getCode()") == "# mine, on neuron"


HOSTILE = """
import builtins, sys
builtins.abs = lambda x: 0
sys.modules["engine"] = None
for m in list(sys.modules.values()):
    if hasattr(m, "Value"):
        m.Value.__add__ = lambda a, b: a
"""


# The same, where learners put code: inside the method they edit, run once per case; and what its context
# reaches (import js: the runner's storage, its messages, a prototype), which must reach nothing of the page.
INSIDE = """
        print("hostile, inside __add__")
        import builtins, js, sys
        builtins.abs = lambda x: 0
        for m in list(sys.modules.values()):
            if hasattr(m, "Value"):
                m.Value.__mul__ = lambda a, b: a
        try:
            js.localStorage.setItem("backprop-playground:code/neuron", "# planted")
        except Exception:
            pass
        js.postMessage("planted")
        js.Object.prototype.planted = True
"""


def test_a_hostile_check_on_one_exercise_reaches_nothing_of_the_next(page, base_url):
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    page.evaluate("s => window.playground.check(s)", code("ops", "reference.py") + HOSTILE)
    inside = code("ops", "reference.py").replace(
        "        out._backward = _backward\n", INSIDE + "        out._backward = _backward\n", 1
    )
    assert INSIDE in inside
    report = page.evaluate("s => window.playground.check(s)", inside)
    assert "hostile, inside __add__" in report["output"]["text"], report  # it ran, at each case
    moved_to(page, "neuron", "next")
    assert page.evaluate("window.playground.getCode()") == code("neuron", "starter.py")
    assert page.evaluate("({}).planted") is None
    grades_its_own(page, "neuron")


def test_the_exercise_moved_to_is_readable_by_everyone_and_has_the_focus(page, base_url):
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    moved_to(page, "neuron", "next")
    expect(page.locator("h1")).to_be_focused()  # a screen reader hears where it is now
    page.evaluate("s => window.playground.check(s)", code("neuron", f"mistakes/{mistake('neuron')}.py"))
    assert serious_violations(page) == []


# A Check that runs until Stop or the time limit: Next pressed meanwhile cannot switch the runtime.
FOREVER = "while True:\n    pass\n"


def test_next_pressed_while_a_check_runs_loads_the_next_page_in_full(page, base_url):
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    page.evaluate("window.nav_sentinel = true")
    page.evaluate("s => { window.playground.check(s); }", FOREVER)
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-state", "busy")
    page.locator("[data-testid=course-place] a[rel=next]").click()
    page.wait_for_function(SHOWN, arg="neuron")
    assert not page.evaluate(KEPT)["sentinel"]  # loaded again: a page of its own
    grades_its_own(page, "neuron")


def test_offline_the_exercises_seen_are_moved_between_inside_the_page(fresh_page, base_url):
    page = fresh_page
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops"))
    kept_offline(page)
    page.evaluate("window.nav_sentinel = true")
    moved_to(page, "neuron", "next")
    page.context.set_offline(True)
    try:
        moved_to(page, "ops", "prev")
        moved_to(page, "neuron", "next")
        assert page.evaluate(KEPT)["sentinel"]
        grades_its_own(page, "neuron")
    finally:
        page.context.set_offline(False)


def test_next_pressed_while_a_pass_waits_for_the_server_loads_the_next_page_in_full(
    page, serve, tmp_path_factory
):
    """A pass the server could not verify yet is the exercise's work under way: the page does not move
    inside itself (the pass would then be sent as the next exercise's), it loads the next page."""
    key = tmp_path_factory.mktemp("key") / "signing-key.pem"
    root = serve(VERIFY=True, SIGNING_KEY_FILE=str(key))
    busy = json.dumps({"error": "Every sandbox is busy; try again in a moment."})
    page.route(
        "**/verify*",
        lambda route: route.fulfill(
            status=503, headers={"Retry-After": "30"}, content_type="application/json", body=busy
        ),
    )
    open_playground(page, root + exercise_page_path("ops"))
    page.evaluate("window.nav_sentinel = true")
    page.evaluate("s => window.playground.check(s)", code("ops", "reference.py"))
    expect(page.get_by_test_id("verified")).to_have_attribute("data-state", "waiting")
    page.locator("[data-testid=course-place] a[rel=next]").click()
    page.wait_for_function(SHOWN, arg="neuron")
    assert not page.evaluate(KEPT)["sentinel"]  # loaded again: a page of its own


def test_the_next_exercise_comes_in_the_language_its_link_would_open_it_in(page, base_url):
    """?lang=de in one page's address only: Next opens neuron as the link does, in full, in the server's
    English. A language the learner chose is kept: Next then moves inside the page, in German."""
    root = base_url.removesuffix(exercise_page_path("backward"))
    open_playground(page, root + exercise_page_path("ops") + "?lang=de")
    page.evaluate("window.nav_sentinel = true")
    page.locator("[data-testid=course-place] a[rel=next]").click()
    page.wait_for_function(SHOWN, arg="neuron")
    assert not page.evaluate(KEPT)["sentinel"]  # loaded in full: no page of two languages
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_test_id("runtime-status")).to_have_text("Python runtime ready.")
    page.get_by_label("Language").select_option("de")
    page.wait_for_url(re.compile(r"lang=de"))
    page.wait_for_function(SHOWN, arg="neuron")
    expect(page.get_by_test_id("runtime-status")).to_have_text("Python-Laufzeit bereit.")
    page.evaluate("window.nav_sentinel = true")
    page.locator("[data-testid=course-place] a[rel=next]").click()
    page.wait_for_function(SHOWN, arg="exp")
    assert page.evaluate(KEPT)["sentinel"] and "lang=de" in page.url  # inside the page, in German
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("h1")).to_have_text(heading("exp", "de"))
    expect(page.get_by_test_id("runtime-status")).to_have_text("Python-Laufzeit bereit.")
    report = page.evaluate("s => window.playground.check(s)", code("exp", "starter.py"))
    assert report["exercise"] == "exp" and not report["passed"]
    expect(page.get_by_test_id("verdict")).to_contain_text("Ausdrücken")
