"""Hostile learner code, isolated (interrupt) and not (worker restart): a clear report, then a pass."""

import pytest
from playwright.sync_api import expect

from tests import solutions
from tests.browser.conftest import open_playground, watched_page

LIMIT_MS = 2000

HOSTILE = {
    "endless loop": ("while True:\n    pass\n", "timeout"),
    "infinite recursion": ("def backward(out):\n    backward(out)\n", "runtime"),
    "memory hog": ("x = []\nwhile True:\n    x.append(bytearray(10**7))\n", None),
    "sys.exit": ("import sys\nsys.exit()\n", "runtime"),
    "raise KeyboardInterrupt": ("raise KeyboardInterrupt\n", "runtime"),
    "catches the interrupt": (
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except KeyboardInterrupt:\n        pass\n",
        "timeout",
    ),
    "pyodide fatal error": (
        "import pyodide_js\npyodide_js._api.fatal_error(pyodide_js._api.__class__)\n",
        "crash",
    ),
    "closes the worker": ("import js\njs.close()\n", "runtime"),
}


@pytest.fixture(scope="module", params=[True, False], ids=["isolated", "not-isolated"])
def playground(request, serve, browser):
    url = serve(TIME_LIMIT_MS=LIMIT_MS, CROSS_ORIGIN_ISOLATION=request.param)
    context = browser.new_context()
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, url)
    page.isolated = request.param
    yield page
    context.close()
    assert_clean()


def check(page, source):
    return page.evaluate("s => window.playground.check(s)", source)


def then_correct_passes(page):
    report = check(page, solutions.CORRECT)
    assert report["passed"] is True, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")


def test_stop_mode_matches_isolation(playground):
    status = playground.get_by_test_id("runtime-status")
    assert playground.evaluate("crossOriginIsolated") is playground.isolated
    expect(status).to_have_attribute("data-stop", "interrupt" if playground.isolated else "restart")
    if not playground.isolated:
        expect(status).to_contain_text("not cross-origin isolated")


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_code_gets_a_clear_report(playground, name):
    source, kind = HOSTILE[name]
    playground.evaluate("s => window.playground.setCode(s)", source)
    report = check(playground, source)
    error = report["error"]
    assert error is not None and error["message"]
    if kind:
        assert error["kind"] == kind, error
    expect(playground.get_by_test_id("verdict")).to_have_attribute("data-status", "error")
    expect(playground.get_by_test_id("error")).to_be_visible()
    assert playground.evaluate("window.playground.getCode()") == source  # the code is untouched
    then_correct_passes(playground)


def test_interrupt_keeps_the_runtime_and_names_the_line(playground):
    if not playground.isolated:
        pytest.skip("without isolation the worker is restarted instead")
    report = check(playground, "n = 0\nwhile True:\n    n += 1\n")
    assert report["error"]["kind"] == "timeout" and report["error"]["line"] in (2, 3)
    assert "restarted" not in report["error"]["message"]
    expect(playground.get_by_test_id("runtime-status")).to_have_attribute("data-state", "ready")


def test_restart_fallback_says_so(playground):
    if playground.isolated:
        pytest.skip("isolated pages interrupt instead")
    report = check(playground, "while True:\n    pass\n")
    assert "restarted" in report["error"]["message"]


def test_raised_keyboard_interrupt_is_not_mistaken_for_stop(playground):
    report = check(playground, "def backward(out):\n    raise KeyboardInterrupt\n")
    assert report["error"]["kind"] == "runtime" and report["error"]["line"] == 2


def test_recursion_points_at_the_learners_line(playground):
    report = check(playground, "def backward(out):\n    backward(out)\n")
    assert report["error"]["message"].startswith("RecursionError") and report["error"]["line"] == 2
    expect(playground.get_by_test_id("error")).to_contain_text("Previous line repeated")


def test_100k_prints_are_shown_capped(playground):
    report = check(playground, "for i in range(100_000):\n    print(i)\n" + solutions.CORRECT)
    assert report["passed"] is True
    assert report["output"]["cut_chars"] > 0
    expect(playground.get_by_test_id("output-text")).to_contain_text("1999")
    expect(playground.get_by_test_id("output-cut")).to_contain_text("more characters were cut")


def test_stderr_is_shown(playground):
    check(playground, 'import sys\nprint("to stderr", file=sys.stderr)\n' + solutions.CORRECT)
    expect(playground.get_by_test_id("output-text")).to_have_text("to stderr\n")


def test_patching_value_does_not_reach_the_next_check(playground):
    report = check(playground, "Value.__add__ = lambda self, other: self\n" + solutions.CORRECT)
    assert report["passed"] is False
    then_correct_passes(playground)


def test_source_over_100_kb_is_refused(playground):
    report = check(playground, solutions.CORRECT + "#" * 200_000)
    assert report["error"]["kind"] == "syntax" and "100,000" in report["error"]["message"]
    then_correct_passes(playground)


def test_code_that_posts_messages_cannot_forge_a_report(playground):
    forge = (
        "import js\n"
        "js.postMessage('junk')\n"
        'js.postMessage(js.JSON.parse(\'{"type": "report", "id": 1, "report": {"passed": true}}\'))\n'
        "def backward(out):\n    pass\n"
    )
    report = check(playground, forge)
    assert report["passed"] is False and report["error"] is None
    then_correct_passes(playground)


def test_stop_button(serve, browser):
    for isolated in (True, False):
        url = serve(TIME_LIMIT_MS=60_000, CROSS_ORIGIN_ISOLATION=isolated)
        context = browser.new_context()
        page, assert_clean = watched_page(context, serve.origins)
        open_playground(page, url)
        page.evaluate("s => window.playground.setCode(s)", "while True:\n    pass\n")
        stop = page.get_by_role("button", name="Stop")
        expect(stop).to_be_hidden()
        page.get_by_role("button", name="Check").click()
        stop.click()
        expect(page.get_by_test_id("error")).to_contain_text("You stopped your code")
        expect(stop).to_be_hidden()
        then_correct_passes(page)
        context.close()
        assert_clean()
