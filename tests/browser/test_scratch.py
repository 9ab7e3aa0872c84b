"""The scratch pad in the real page: Run and draw(v), presets, hostile code, the stale notice, share links."""

import re

import pytest
from playwright.sync_api import expect

from engine.errors import ENGINE_HINTS
from engine.report import FIELDS
from server.exercises.presets import PRESETS
from tests.browser.checks import fresh_runtime_ready, then_honest
from tests.browser.pages import SEED, TIME_LIMIT_MS, answer, open_playground, watched_page
from tests.support import solutions
from tests.support.events import assert_valid

PRESET = {p["id"]: p for p in PRESETS}
# Every event the page fires, counted (checked, ready...): a Run must fire none.
COUNT_EVENTS = """() => { window.firedEvents = [];
  for (const name of ['ready', 'checked', 'resize'])
    window.addEventListener(`backprop-playground:${name}`, () => window.firedEvents.push(name)); }"""


@pytest.fixture(scope="module")
def scratch_page(serve, browser):
    """One playground page for the module's Runs, the learner's right backward in its editor."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED)
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    yield page
    context.close()
    assert_clean()


def run(page, source=None):
    fresh_runtime_ready(page)
    if source is None:
        return page.evaluate("() => window.playground.run()")
    return page.evaluate("s => window.playground.run(s)", source)


def drawn_grads(page, index: int) -> dict:
    """The grads a drawing's picture shows, by value label, once it is drawn."""
    drawing = page.get_by_test_id("drawing").nth(index)
    expect(drawing).to_have_attribute("data-state", "ready")
    rows = drawing.locator("table.graph-table tbody tr").all()
    return {row.locator("th").text_content(): row.locator("td.grad").text_content() for row in rows}


def load_preset(page, preset_id):
    page.select_option("#preset", preset_id)
    page.click("#load-preset")
    # It asks only when the scratch pad holds code of the learner's own (a Run's source, say).
    first = PRESET[preset_id]["code"].split("\n")[0]
    asked = (
        "([first]) => document.getElementById('ask').open || "
        "document.querySelector('#scratch .cm-content').textContent.startsWith(first)"
    )
    page.wait_for_function(asked, arg=[first])
    if page.evaluate("() => document.getElementById('ask').open"):
        answer(page, yes=True)
    assert page.evaluate("() => document.querySelector('#scratch .cm-content').textContent").startswith(
        PRESET[preset_id]["code"].split("\n")[0]
    )


@pytest.mark.parametrize("preset", list(PRESET))
def test_each_preset_runs_from_the_run_button_and_draws(scratch_page, preset):
    page = scratch_page
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)  # whatever an earlier test left
    load_preset(page, preset)
    fresh_runtime_ready(page)
    page.click("#run")
    expect(page.get_by_test_id("run")).to_have_text("Run")
    if preset == "deep":  # the recursive backward in the editor: the lesson, with its line there
        expect(page.get_by_test_id("run-error")).to_contain_text("RecursionError")
        expect(page.get_by_test_id("run-error")).to_contain_text("of your backward")
        return
    expect(page.get_by_test_id("run-status")).to_contain_text("Ran in")
    expect(page.get_by_test_id("run-error")).to_be_hidden()
    assert page.get_by_test_id("drawing").count() >= 1
    if preset == "reused":
        assert drawn_grads(page, 0)["a"] == "4"  # b = a + a, c = b + b
        expect(page.get_by_test_id("run-output")).to_contain_text("a.grad = 4.0")
    if preset == "square":
        assert drawn_grads(page, 0)["x"] == "6"


def test_a_drawing_before_backward_shows_zeros_and_after_it_the_grads(scratch_page):
    page = scratch_page
    # the right backward, whatever an earlier test of the module left (a share link's code, say)
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    result = run(page, PRESET["before-after"]["code"])
    assert [d["line"] for d in result["drawings"]] == [5, 7]
    before, after = drawn_grads(page, 0), drawn_grads(page, 1)
    assert set(before.values()) == {"0"}
    assert after["a"] == "-2" and after["b"] == "2"
    expect(page.get_by_test_id("drawing").nth(1).locator("> summary")).to_have_text("draw(c), line 7")
    steps = page.get_by_test_id("drawing").nth(1).get_by_test_id("graph-step")
    expect(steps).to_contain_text("After the last call (2 in all)")
    page.get_by_test_id("drawing").nth(1).get_by_role("button", name="First").click()
    expect(steps).to_contain_text("Before the first call")


def test_a_run_is_never_a_check(scratch_page):
    page = scratch_page
    page.evaluate(COUNT_EVENTS)
    progress = page.get_by_test_id("progress")
    attempts = progress.get_attribute("data-attempts")
    verdict = page.get_by_test_id("verdict").get_attribute("data-status")
    run(page, PRESET["reused"]["code"])
    expect(page.get_by_test_id("drawing")).to_have_count(1)
    assert "checked" not in page.evaluate("window.firedEvents")  # resize may: the page grew
    assert progress.get_attribute("data-attempts") == attempts
    assert page.get_by_test_id("verdict").get_attribute("data-status") == verdict


# Hostile bodies where a scratch pad puts them: at its module level, in the learner's backward (which
# it calls), and in backward from its third call on. Each is followed by a right Run and an honest Check.
HOSTILE = {
    "endless loop": ("while True:\n    pass", "timeout", "was stopped"),
    "flood": ("for i in range(10**7):\n    print(i)", "output", "printed too much"),
    "huge message": ('raise ValueError("x" * 50_000_000)', "runtime", "characters cut"),
    "2 GB": ("bytearray(2 * 10**9)", "runtime", "MemoryError"),
}
CALLS = "x = Value(0.5)\nw = Value(2.0)\ny = (x * w).tanh()\nfor _ in range(4):\n    backward(y)\n"


def placed(body: str, where: str) -> tuple[str, str]:
    """(scratch pad, editor) with body at a place."""
    header, rest = solutions.CORRECT.split("\n", 1)
    if where == "scratch":
        return f"{body}\n{CALLS}", solutions.CORRECT
    if where == "backward":
        return CALLS, f"{header}\n{solutions.indent(body, 4)}\n{rest}"
    third = f"calls = 0\n{header}\n    global calls\n    calls += 1\n    if calls >= 3:\n"
    return CALLS, f"{third}{solutions.indent(body, 8)}\n{rest}"


@pytest.mark.parametrize("where", ["scratch", "backward", "third call"])
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_code_in_a_run_then_honest_runs_and_checks(scratch_page, name, where):
    page = scratch_page
    body, kind, says = HOSTILE[name]
    scratch, editor = placed(body, where)
    page.evaluate("s => window.playground.setCode(s)", editor)
    result = run(page, scratch)
    assert result["error"]["kind"] == kind and says in result["error"]["message"], result["error"]
    if kind != "timeout":  # Python placed it; a stop is the page's, with the line Python was at
        assert result["error"]["file"] == ("scratch" if where == "scratch" else "editor"), result["error"]
    assert len(result["output"]["text"]) <= 200_000
    expect(page.get_by_test_id("run-error")).to_be_visible()
    assert page.evaluate("window.playground.getCode()") == editor  # the learner's code is untouched
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    honest = run(page, PRESET["reused"]["code"])
    assert honest["error"] is None and honest["output"]["text"] == "a.grad = 4.0\n"
    then_honest(page)


def test_run_with_a_source_puts_it_in_the_scratch_pad_and_returns_the_whole_result(scratch_page):
    page = scratch_page
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    source = "a = Value(1.0)\n" + "draw(a)\n" * 12 + "print('drew')\n1 / 0\n"
    result = run(page, source)
    assert list(result) == list(FIELDS["run"])  # output, error, drawings, cut_drawings, ms: as documented
    assert_valid("run", result)  # the published JSON Schema
    assert result["cut_drawings"] == 2 and len(result["drawings"]) == 10
    assert isinstance(result["ms"], int | float) and result["ms"] > 0
    assert result["error"]["line"] == 15 and result["error"]["file"] == "scratch"
    scratch_text = "() => [...document.querySelectorAll('#scratch .cm-line')].map((l) => l.textContent)"
    lines = page.evaluate(scratch_text)
    assert lines[:2] == ["a = Value(1.0)", "draw(a)"] and lines[14] == "1 / 0"  # what ran is what is shown
    marked = page.locator("#scratch .cm-error-line")
    expect(marked).to_have_count(1)
    expect(marked).to_have_text("1 / 0")  # the mark is on the line that raised, in the code that ran
    expect(page.get_by_test_id("drawings")).to_contain_text("2 more draw() calls were not drawn")


def test_the_results_say_when_they_are_for_an_earlier_version(scratch_page):
    page = scratch_page
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.click("#check")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    stale = page.get_by_test_id("stale")
    expect(stale).to_be_hidden()
    page.locator("#editor .cm-content").click()
    page.keyboard.type("# a change\n")
    expect(stale).to_be_visible()
    expect(stale).to_contain_text("earlier version")
    page.click("#check")
    expect(stale).to_be_hidden()


def copied_link(page, code: str, scratch: str) -> str:
    """Put code in the editor and type scratch into the scratch pad, press "Copy link"; return the link."""
    page.evaluate("s => window.playground.setCode(s)", code)
    page.locator("#scratch .cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(scratch)
    page.click("#share")
    expect(page.get_by_test_id("share-status")).to_contain_text("Link copied")
    return page.evaluate("navigator.clipboard.readText()")


def test_a_share_link_round_trips_and_asks_first(browser, serve):
    url = serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, url)
    padding = "#" * (20_000 - len(solutions.CORRECT) - 30)
    shared = "# ünïcödé: ∂L/∂w, 😀\n" + solutions.CORRECT + padding + "\n"
    assert len(shared) >= 19_990
    link = copied_link(page, shared, "print('shared π')")
    assert re.search(r"#code/1/[A-Za-z0-9_-]+$", link) and len(link) < 8000  # deflated
    # Another learner, with code of their own, opens it: asked first; declining keeps theirs.
    page.evaluate("s => window.playground.setCode(s)", solutions.NOT_REVERSED)
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_function("() => window.playground !== undefined")
    offer = page.get_by_test_id("shared-code")
    expect(offer).to_be_visible()
    expect(offer).to_be_focused()
    assert page.evaluate("window.playground.getCode()") == solutions.NOT_REVERSED
    page.click("#keep-mine")
    expect(offer).to_be_hidden()
    assert page.evaluate("window.playground.getCode()") == solutions.NOT_REVERSED
    assert "#code/" not in page.url  # a reload does not ask again
    page.goto("about:blank")
    page.goto(link)
    page.click("#use-shared")
    assert page.evaluate("window.playground.getCode()") == shared
    scratch = page.evaluate("() => document.querySelector('#scratch .cm-content').textContent")
    assert scratch == "print('shared π')"
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "none")  # nothing ran
    expect(page.get_by_test_id("run-status")).to_have_text("")
    context.close()
    assert_clean()


def test_a_drawing_of_values_whose_labels_double_stays_small(scratch_page):
    page = scratch_page
    doubling = (
        "x = Value(1.0)\nfor _ in range(24):\n    x = x + x  # each label would be twice the last\ndraw(x)\n"
    )
    result = run(page, doubling)  # 2 ** 24 characters in a label, if nothing bounded them
    assert result["error"] is None, result["error"]
    (drawing,) = result["drawings"]
    labels = [node["label"] for node in drawing["nodes"]]
    assert max(map(len, labels)) <= 40 and labels[-1] == "x"
    assert max(len(node["formula"] or "") for node in drawing["nodes"]) <= 2 * 40 + 3
    expect(page.get_by_test_id("drawing")).to_have_attribute("data-state", "ready")  # drawn, opened
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)  # whatever an earlier test left
    honest = run(page, PRESET["reused"]["code"])
    assert honest["error"] is None and honest["output"]["text"] == "a.grad = 4.0\n"


def deflate_bomb(chars: int) -> str:
    """A share link's data that inflates to a JSON of about chars characters (base64url).

    Made in a few milliseconds, not by deflating chars bytes: each million x's is one run of deflate
    blocks ended by a full flush (which forgets the history), so every million deflates to the same bytes.
    """
    import base64
    import zlib

    def deflated(data: bytes, last: bool = False) -> bytes:
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        return packer.compress(data) + packer.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)

    million = deflated(b"x" * 1_000_000)
    stream = deflated(b'{"code": "') + million * (chars // 1_000_000)
    stream += deflated(b'", "scratch": ""}', last=True)
    return base64.urlsafe_b64encode(stream).rstrip(b"=").decode()


# What the page feeds its inflater, counted on the way in (the inflater itself is the browser's own).
COUNT_FED = """() => {
  const Inflater = DecompressionStream;
  window.fedToInflater = 0;
  window.DecompressionStream = function (format) {
    const inflater = new Inflater(format);
    const count = (chunk, control) => ((window.fedToInflater += chunk.byteLength), control.enqueue(chunk));
    const counter = new TransformStream({ transform: count });
    counter.readable.pipeTo(inflater.writable).catch(() => {});
    return { writable: counter.writable, readable: inflater.readable };
  };
}"""


@pytest.mark.parametrize("chars", [1_000_000_000, 1_300_000], ids=["inflates-to-1G", "just-past-the-cap"])
def test_a_share_link_too_large_is_refused_before_it_is_parsed(scratch_page, serve, chars):
    scratch_page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page, assert_clean = watched_page(scratch_page.context, serve.origins)  # the learner's next tab
    page.add_init_script(f"({COUNT_FED})()")
    link = deflate_bomb(chars)
    page.goto(scratch_page.url.split("#")[0] + "#code/1/" + link)  # 1 G: more than a string may hold
    status = page.get_by_test_id("share-status")
    expect(status).to_contain_text("The link's code could not be read")
    expect(status).to_contain_text("more than two pieces of code of 100,000 characters")
    expect(page.get_by_test_id("shared-code")).to_be_hidden()
    # Refused as it inflates: a few kilobytes of the link's megabyte in, never the whole gigabyte out.
    assert page.evaluate("window.fedToInflater") <= 16 * 1024, len(link)
    assert page.evaluate("window.playground.getCode()") == solutions.CORRECT  # theirs, unchanged
    then_honest(page)
    page.close()
    assert_clean()


def test_a_share_link_carries_the_code_only_and_points_at_the_public_page(browser, serve):
    url = serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, url + "?learner=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl")
    mine = "# mine\n" + solutions.CORRECT
    page.evaluate("s => window.playground.setCode(s)", mine)
    page.click("#share")
    expect(page.get_by_test_id("share-status")).to_contain_text("Link copied")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(url + "#code/1/") and "learner" not in link and "?" not in link
    page.goto("about:blank")
    page.goto(link)
    expect(page.get_by_test_id("shared-code")).to_be_hidden()  # the same code as kept here: nothing to ask
    assert page.evaluate("window.playground.getCode()") == mine and "?" not in page.url
    context.close()
    assert_clean()


def test_a_run_prints_a_value_as_micrograd_does_and_says_what_to_write_instead(scratch_page):
    page = scratch_page
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    result = run(page, "x = Value(2.0)\nprint(x)\ny = 2*x\n")
    expect(page.get_by_test_id("run-output")).to_contain_text("Value(data=2.0, grad=0.0)")
    error = page.get_by_test_id("run-error")
    python = "TypeError: unsupported operand type(s) for *: 'int' and 'Value'"
    expect(error).to_contain_text(f"{python}\n{ENGINE_HINTS['number']}")  # Python's words, then the hint
    expect(error).to_contain_text("write Value(2.0) * x instead of 2 * x")
    expect(error).to_contain_text("Line 3 of the scratch pad")
    assert result["error"]["message"] == f"{python}\n{ENGINE_HINTS['number']}"


def test_the_deep_chain_example_is_titled_by_its_variable(scratch_page):
    page = scratch_page
    page.evaluate("s => window.playground.setCode(s)", solutions.ITERATIVE)  # one that reaches draw(out)
    load_preset(page, "deep")
    fresh_runtime_ready(page)
    page.click("#run")
    expect(page.get_by_test_id("run-status")).to_contain_text("Ran in")
    drawing = page.get_by_test_id("drawing")
    expect(drawing).to_have_count(1)
    expect(drawing.locator("> summary")).to_have_text("draw(out), line 9")
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)


def test_a_share_link_in_a_fresh_browser_loads_without_a_question(browser, serve):
    url = serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED
    sharer = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page, assert_clean = watched_page(sharer, serve.origins)
    open_playground(page, url)
    link = copied_link(page, solutions.NOT_REVERSED, "print('from a friend')")
    sharer.close()
    assert_clean()
    fresh = browser.new_context()  # no code of the learner's own: nothing to lose, nothing to ask
    page, assert_clean = watched_page(fresh, serve.origins)
    page.goto(link)
    page.wait_for_function("() => window.playground !== undefined")
    expect(page.get_by_test_id("share-status")).to_contain_text("The link's code is in the editor")
    expect(page.get_by_test_id("shared-code")).to_be_hidden()
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert page.evaluate("window.playground.getCode()") == solutions.NOT_REVERSED
    scratch = page.evaluate("() => document.querySelector('#scratch .cm-content').textContent")
    assert scratch == "print('from a friend')" and "#code/" not in page.url
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "none")  # nothing ran
    # Now the code is theirs (kept in this browser): the next link asks before it replaces it.
    page.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.goto("about:blank")
    page.goto(link)
    expect(page.get_by_test_id("shared-code")).to_be_visible()
    assert page.evaluate("window.playground.getCode()") == solutions.CORRECT
    fresh.close()
    assert_clean()


def test_a_drawing_past_the_cap_patched_in_the_worker_is_not_laid_out(scratch_page):
    page = scratch_page
    patched = (  # learner code lifts the worker's cap: the page's own cap (config.picture) still holds
        "import engine.drawing as d\nd.MAX_PICTURE = 10**6\n"
        "x = Value(1.0)\nfor _ in range(100):\n    x = x * Value(1.0) + Value(1.0)\ndraw(x)\n"
    )
    result = run(page, patched)
    assert result["error"] is None, result["error"]
    (drawing,) = result["drawings"]
    assert len(drawing["nodes"]) > 200  # the worker sent every value
    figure = page.get_by_test_id("drawing")
    expect(figure).to_have_attribute("data-state", "none")
    expect(figure).to_contain_text("This graph has 401 values; too many to draw.")
    assert figure.locator("svg").count() == 0
    then_honest(page)
