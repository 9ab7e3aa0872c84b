"""The playground as a learner uses it: edit, Check, read the results, keep the code.

The tests that only Check and read what the page shows share one page (module_page); the others, which
need the page as it first loads, or reload it, take a page of their own."""

import json
import re

from playwright.sync_api import expect

from server import ROOT
from tests.browser.pages import SEED, answer, open_playground, type_code
from tests.support import solutions
from tests.support.events import assert_valid

EXPRESSIONS = ("neuron", "reuse", "chain")


def check(page):
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("button", name="Check")).to_be_enabled()
    expect(page.get_by_test_id("verdict")).not_to_have_attribute("data-status", "none")


def test_editor_is_usable_before_the_runtime_is_ready(page, base_url):
    page.goto(base_url)
    page.locator("#editor .cm-content").click()
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type("\n# typed while loading")
    state = page.get_by_test_id("runtime-status").get_attribute("data-state")
    assert "# typed while loading" in page.evaluate("window.playground.getCode()")
    assert state in ("loading", "ready")
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(page.get_by_test_id("runtime-status")).to_contain_text("ready")


def test_starter_code_fails_every_expression(page, base_url):
    open_playground(page, base_url)
    check(page)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
    for name in EXPRESSIONS:
        section = page.locator(f"[data-testid=results] [data-expr={name}]")
        expect(section).to_have_attribute("data-status", "fail")


def test_typed_correct_solution_passes(page, base_url):
    open_playground(page, base_url)
    type_code(page, solutions.CORRECT)
    check(page)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    for name in EXPRESSIONS:
        expect(page.locator(f"[data-expr={name}]")).to_have_attribute("data-status", "pass")
    expect(page.locator("[data-extra=false] td.wrong")).to_have_count(0)


def test_wrong_order_shows_expected_and_got(module_page):
    page = module_page
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
    neuron = page.locator("[data-expr=neuron]")
    expect(neuron).to_have_attribute("data-status", "fail")
    example = neuron.locator("table.case").first
    expect(example.locator("tr[data-leaf=x1] td").first).to_have_text("-1.5")  # expected
    expect(example.locator("tr[data-leaf=x1] td.got")).to_have_class("got wrong")
    expect(example.locator("tr[data-leaf=x1] td.got")).to_contain_text("0")


def test_check_resolves_to_the_report(module_page):
    page = module_page
    report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    assert report["passed"] is True and report["error"] is None
    assert [e["name"] for e in report["expressions"] if not e["extra"]] == list(EXPRESSIONS)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")


def test_ctrl_enter_checks(page, base_url):
    open_playground(page, base_url)
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.locator("#editor .cm-content").click()
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")


def test_syntax_error_marks_its_line(module_page):
    page = module_page
    page.evaluate("s => window.playground.check(s)", "def backward(out):\n    out.grad = 1\n    for v in\n")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "error")
    expect(page.get_by_test_id("error")).to_contain_text("SyntaxError")
    expect(page.get_by_test_id("error")).to_contain_text("Line 3")
    expect(page.locator(".cm-error-line")).to_have_text("    for v in")


def test_runtime_error_names_the_learners_line(module_page):
    page = module_page
    page.evaluate("s => window.playground.check(s)", "def backward(out):\n    out.grad = 1\n    1 / 0\n")
    expect(page.get_by_test_id("error")).to_contain_text("ZeroDivisionError")
    expect(page.locator(".cm-error-line")).to_have_text("    1 / 0")
    page.locator("#editor .cm-content").click()
    page.keyboard.type("x")  # editing clears the mark
    expect(page.locator(".cm-error-line")).to_have_count(0)


def test_code_without_backward(module_page):
    page = module_page
    report = page.evaluate("window.playground.check('x = 1')")
    assert report["error"]["kind"] == "runtime"
    expect(page.get_by_test_id("error")).to_contain_text("defines no function backward")


def test_endless_loop_times_out_and_the_next_check_passes(module_page):
    page = module_page
    report = page.evaluate("window.playground.check('while True:\\n    pass\\n')")
    assert report["error"]["kind"] == "timeout"
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "error")
    expect(page.get_by_test_id("error")).to_contain_text("stopped")
    report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    assert report["passed"] is True


def test_code_survives_a_reload_and_is_not_run(page, base_url):
    open_playground(page, base_url)
    type_code(page, solutions.NOT_REVERSED)
    page.reload()
    open_playground(page, base_url)
    assert page.evaluate("window.playground.getCode()").rstrip() == solutions.NOT_REVERSED.rstrip()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "none")
    expect(page.locator("[data-expr]")).to_have_count(0)


def test_check_with_a_source_puts_it_in_the_editor_so_marks_and_notices_match(page, base_url):
    open_playground(page, base_url)
    broken = solutions.CORRECT.replace("    out.grad = 1", "    out.grad = 1\n    1 / 0", 1)
    assert broken != solutions.CORRECT
    report = page.evaluate("s => window.playground.check(s)", broken)
    assert report["error"]["kind"] == "runtime"
    assert_valid("report", report)  # the published JSON Schema
    assert_valid("report", page.evaluate("s => window.playground.check(s)", solutions.CORRECT))
    report = page.evaluate("s => window.playground.check(s)", broken)
    assert page.evaluate("window.playground.getCode()") == broken  # what ran is in the editor
    marked = page.locator("#editor .cm-error-line")
    expect(marked).to_have_count(1)
    expect(marked).to_have_text("    1 / 0")  # the line that raised, in the code that ran
    expect(page.get_by_test_id("stale")).to_be_hidden()  # the results are for the code on show
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    expect(page.get_by_test_id("stale")).to_be_visible()  # and say so once it changes
    page.reload()
    open_playground(page, base_url)
    assert page.evaluate("window.playground.getCode()") == solutions.CORRECT  # saved, as typed code is


def test_reset_asks_first(page, base_url):
    open_playground(page, base_url)
    starter = page.evaluate("window.playground.getCode()")
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.get_by_role("button", name="Reset", exact=True).click()
    answer(page, yes=False)
    assert page.evaluate("window.playground.getCode()") == solutions.CORRECT
    # A question asked in the same moment as the answer to the one before is a question of its own:
    # the first one's closing does not answer it.
    page.get_by_role("button", name="Reset", exact=True).click()
    page.evaluate("() => ['ask-no', 'reset'].forEach((id) => document.getElementById(id).click())")
    answer(page, yes=True)
    assert page.evaluate("window.playground.getCode()") == starter  # changed by the time the click is over
    page.reload()
    open_playground(page, base_url)
    assert page.evaluate("window.playground.getCode()") == starter


def test_ready_rejects_when_the_runtime_cannot_load(page, serve):
    url = serve() + SEED
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(url)
    page.wait_for_function("() => window.playground !== undefined")
    message = page.evaluate("window.playground.ready.then(() => 'resolved', (e) => e.message)")
    assert "could not load" in message
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-state", "dead")
    report = page.evaluate("window.playground.check('x = 1')")
    assert report["error"]["kind"] == "crash"


def test_the_header_says_what_the_page_is(module_page):
    page = module_page
    banner = page.get_by_role("banner")
    # in the shipped course, the site's line says which course and where in it (a page alone says the site's)
    title = json.loads((ROOT / "exercises/course.json").read_text())["title"]["en"]
    expect(banner.get_by_test_id("course-place")).to_contain_text(
        re.compile(rf"{re.escape(title)} · Exercise \d+ of \d+")
    )
    expect(banner.get_by_role("heading", level=1)).to_have_text("Run backpropagation in the right order")
    expect(banner).not_to_contain_text("Code it")


def test_the_tables_marks_are_the_reports(serve, page, monkeypatch):
    # A leaf 0.010000005 off a gradient of 1e7 is right by the rule (and the verdict passes): the page
    # marks no ✗ there, where its old rule of its own did. Everywhere: one ✗ per mark the report says false.
    from server.page import page as page_view
    from tests.support.tolerance import NUDGED, big_cases

    cases = big_cases(page_view.graded_cases())
    monkeypatch.setattr(page_view, "graded_cases", lambda verdict="seed": cases)
    open_playground(page, serve() + SEED)
    for source in (NUDGED, solutions.NOT_REVERSED):
        report = page.evaluate("s => window.playground.check(s)", source)
        marks = [
            m
            for e in report["expressions"]
            for c in e["cases"]
            for m in (c["right"] or [False] * len(e["leaves"]))
        ]
        expect(page.locator("td.got")).to_have_count(len(marks))
        expect(page.locator("td.got.wrong")).to_have_count(marks.count(False))
        if source == NUDGED:
            assert report["passed"] is True
            expect(page.locator("[data-expr=reuse] td.got.wrong")).to_have_count(0)
