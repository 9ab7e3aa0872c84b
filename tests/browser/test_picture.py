"""The graph picture: every value with its data and grads, the wrong ones marked, the calls step by step.

The tests that Check and look at the pictures at the default size share one page (module_page); those at
other sizes open their own at that size (resized just before a Check, the shared page once opened the big
graph with its first wrong value out of view), as do those that watch the drawing code load, and the
phone that taps."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.checks import check, fresh_runtime_ready
from tests.browser.pages import open_playground
from tests.support import solutions
from tests.support.seed import run_scratch


def checked(page, base_url, source):
    """Open the page, grade source and return the report."""
    open_playground(page, base_url)
    return page.evaluate("s => window.playground.check(s)", source)


def picture(page, name):
    return page.locator(f"[data-testid=results] [data-expr={name}] [data-testid=graph]")


def expression(report, name):
    return next(e for e in report["expressions"] if e["name"] == name)


def graph_of(report, name):
    return expression(report, name)["graph"]


def test_a_failing_expression_shows_its_graph_left_to_right_with_the_wrong_values_marked(module_page):
    page = module_page
    report = check(page, solutions.NOT_REVERSED)
    reuse = picture(page, "reuse")
    expect(reuse).to_have_attribute("data-state", "ready")  # failed, so it opens by itself
    expect(reuse.locator(":scope > summary")).to_have_text("Graph of reuse")
    expect(reuse).to_have_attribute("data-graph-of", "reuse")
    expect(page.locator("[data-expr=reuse]")).to_have_count(1)  # the page contract: one per expression
    nodes = graph_of(report, "reuse")["nodes"]  # a, b, a·b, a·a, out
    expect(reuse.locator("svg [data-node]")).to_have_count(len(nodes))
    expect(reuse.locator("svg .op")).to_have_count(3)  # *, *, +
    a, b, ab, aa, out = (reuse.locator(f"svg [data-node='{n['id']}']") for n in nodes)
    for wrong in (a, b):  # the order was not reversed: nothing reached the leaves
        expect(wrong).to_have_attribute("data-wrong", "true")
        expect(wrong.locator("path.mark")).to_have_count(1)  # a drawn cross: no font needed
    expect(a.locator(".row.data")).to_have_text(re.compile(r"data\s*3"))
    expect(a.locator(".row.grad")).to_have_text(re.compile(r"grad\s*0"))
    expect(a.locator(".row.expected")).to_have_text(re.compile(r"expected\s*4"))
    expect(aa).to_have_attribute("data-wrong", "false")
    expect(aa.locator("path.mark")).to_have_count(0)
    expect(aa.locator(".label")).to_have_text("a·a")
    expect(ab.locator(".badge")).to_have_text("#1")  # the call order
    expect(out.locator(".badge")).to_have_text("#3")
    expect(a.locator(".badge")).to_have_count(0)  # a leaf's _backward does nothing
    # Inputs on the left, then the operation, then the value it makes.
    left = a.bounding_box()["x"]
    times = reuse.locator("svg [data-op-of='3']").bounding_box()["x"]
    assert left < times < aa.bounding_box()["x"] < out.bounding_box()["x"]
    named = re.compile(r"^Graph of reuse: 5 values.*Wrong grads: a and b\.")
    expect(reuse.get_by_role("group", name=named)).to_be_visible()
    # Each value a button, named by its box's text as shown (what a speech user says), then the verdict.
    a_named = re.compile(r"^a, data 3, grad 0, expected 4: wrong$")
    expect(reuse.get_by_role("button", name=a_named)).to_be_visible()
    ab_named = re.compile(r"^a·b, #1, data −6, grad 1, expected 1: right$")  # its badge too
    expect(ab).to_have_attribute("aria-label", ab_named)


def test_the_text_alternative_lists_every_value_and_call_in_full(module_page):
    page = module_page
    report = check(page, solutions.NO_SEED)
    neuron = picture(page, "neuron")
    expect(neuron).to_have_attribute("data-state", "ready")
    graph = graph_of(report, "neuron")
    rows = neuron.locator("table.graph-table tbody tr")
    expect(rows).to_have_count(len(graph["nodes"]))
    b = neuron.locator("table.graph-table tr[data-node='4']")  # b = 6.8813735870195432
    expect(b.locator("th")).to_have_text("b")
    expect(b).to_contain_text("6.881373587019543")  # in full, where the box rounds it
    expect(neuron.locator("svg [data-node='4'] .row.data")).to_have_text(re.compile(r"data\s*6\.881$"))
    expect(b.locator("td").nth(4)).to_have_text("wrong")  # the verdict column, in words
    expect(neuron.locator("ol.graph-calls li")).to_have_count(len(graph["calls"]))
    expect(neuron.locator("ol.graph-calls li").first).to_contain_text("out._backward()")


def test_stepping_through_the_calls_shows_the_grads_after_each_call(module_page):
    page = module_page
    check(page, solutions.NOT_REVERSED)
    reuse = picture(page, "reuse")
    step = reuse.get_by_test_id("graph-step")
    ab, aa, out = (reuse.locator(f"svg [data-node='{i}']") for i in (2, 3, 4))
    expect(step).to_have_text(re.compile(r"^After the last call \(3 in all\): 2 of 5 grads wrong"))
    expect(reuse.get_by_role("button", name="Next call")).to_be_disabled()
    reuse.get_by_role("button", name="First").click()
    expect(step).to_have_text("Before the first call: out.grad = 1")
    expect(reuse.get_by_role("button", name="Previous call")).to_be_disabled()
    expect(ab).to_have_attribute("data-grad", "0")
    reuse.get_by_role("button", name="Next call").click()
    expect(step).to_have_text("Call 1 of 3: a·b passed nothing on (a·b.grad was 0)")
    expect(ab).to_have_class(re.compile(r"\bactive\b"))
    reuse.get_by_role("button", name="Next call").click()
    reuse.get_by_role("button", name="Next call").click()
    expect(step).to_have_text("Call 3 of 3: out passed its gradient to a·b (0 → 1) and a·a (0 → 1)")
    expect(out).to_have_class(re.compile(r"\bactive\b"))
    expect(ab).not_to_have_class(re.compile(r"\bactive\b"))
    for changed in (ab, aa):
        expect(changed).to_have_class(re.compile(r"\bchanged\b"))
        expect(changed.locator(".row.grad")).to_have_text(re.compile(r"grad\s*1"))
    reuse.get_by_role("button", name="Previous call").click()
    expect(step).to_have_text("Call 2 of 3: a·a passed nothing on (a·a.grad was 0)")
    expect(ab.locator(".row.grad")).to_have_text(re.compile(r"grad\s*0"))
    at_call_2 = re.compile(r"^a·b, #1, data −6, grad 0, expected 1: grad at this step$")
    expect(ab).to_have_attribute("aria-label", at_call_2)
    reuse.get_by_role("button", name="Last").click()
    expect(step).to_contain_text("After the last call")
    expect(reuse.locator("svg .active")).to_have_count(0)


def test_the_drawing_code_loads_only_when_a_picture_is_opened(routed_page, base_url):
    page = routed_page
    checked(page, base_url, solutions.ITERATIVE)  # everything passes: every picture starts closed
    # the next Check's runtime has loaded its scripts: what loads from here on is the picture's
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-fresh", "ready")
    scripts = []
    page.on("request", lambda r: r.resource_type == "script" and scripts.append(r.url))
    reuse = picture(page, "reuse")
    expect(reuse).to_have_attribute("data-state", "closed")
    expect(page.locator("[data-testid=graph] svg")).to_have_count(0)
    held = []
    page.route("**/*.js", lambda route: held.append(route))  # hold the drawing code back a moment
    assert scripts == []
    with page.expect_request(lambda r: r.resource_type == "script"):  # held: routed before this returns
        reuse.locator(":scope > summary").click()
    expect(reuse).to_have_attribute("data-state", "loading")
    expect(reuse).to_contain_text("Loading the picture…")
    held[0].continue_()
    page.unroute("**/*.js")
    expect(reuse).to_have_attribute("data-state", "ready")
    assert scripts, "opening the picture loaded no script"
    deep = picture(page, "deep")  # 1,002 values: a note, no drawing, no table
    deep.locator(":scope > summary").click()
    expect(deep).to_have_text(re.compile(r"This graph has 1,002 values; too many to draw\."))
    expect(deep.locator("svg, table")).to_have_count(0)


def test_a_picture_that_cannot_load_says_so_and_loads_when_opened_again(routed_page, base_url):
    page = routed_page
    checked(page, base_url, solutions.ITERATIVE)
    page.route("**/*.js", lambda route: route.abort())
    chain = picture(page, "chain")
    chain.locator(":scope > summary").click()
    expect(chain).to_have_attribute("data-state", "failed")
    expect(chain).to_contain_text("The picture could not be shown")
    page.unroute("**/*.js")
    chain.locator(":scope > summary").click()
    chain.locator(":scope > summary").click()
    expect(chain).to_have_attribute("data-state", "ready")
    expect(chain.locator("svg [data-node]")).to_have_count(22)


# The smallest text in a picture as the user sees it (its font size times the drawing's scale on the
# screen), against the page's body text.
TEXT_SIZES = """d => {
  const svg = d.querySelector('svg.graph-svg'), ctm = svg.getScreenCTM(), scale = Math.hypot(ctm.a, ctm.b);
  const sizes = [...svg.querySelectorAll('text')].map(t => {
    const box = t.getBoundingClientRect(), font = parseFloat(getComputedStyle(t).fontSize);
    return { shown: font * scale, box: box.height };
  });
  return { body: parseFloat(getComputedStyle(document.body).fontSize),
           smallest: Math.min(...sizes.map(s => s.shown)), boxes: Math.min(...sizes.map(s => s.box)),
           count: sizes.length }; }"""
SCREENS = {  # width, height: a desktop and a 390 px phone, each at 100 % and at 200 % zoom (CSS px halved)
    "desktop": (1280, 800),
    "desktop at 200 %": (640, 400),
    "phone": (390, 844),
    "phone at 200 %": (195, 422),
}
# A scratch drawing of 200 values, the most a picture draws: the chain's steps, 99 times over.
BIG_DRAWING = """x = Value(0.5)
w = Value(0.9)
out = x
for _ in range(99):
    out = (out * w).tanh()
backward(out)
draw(out)
"""


WEIGHT = next(
    n["id"] for n in run_scratch(BIG_DRAWING, solutions.CORRECT)["drawings"][0]["nodes"] if n["label"] == "w"
)


def opened(page, name):
    graph = picture(page, name)
    graph.evaluate("d => (d.open = true)")
    expect(graph).to_have_attribute("data-state", "ready")
    return graph


def assert_readable(graph, what):
    sizes = graph.evaluate(TEXT_SIZES)
    assert sizes["count"] > 0
    assert sizes["smallest"] >= sizes["body"] - 0.01, (what, sizes)  # no text smaller than the page's
    assert sizes["boxes"] >= 0.9 * sizes["body"], (what, sizes)  # and its glyphs take that room


def in_view(element, scroller) -> bool:
    """Whether element is all in the scroller's view; one bigger than the view: its left or top edge."""
    box, view = element.bounding_box(), scroller.bounding_box()

    def seen(start, extent, view_start, view_extent):
        if extent > view_extent:  # where its name is
            return view_start <= start <= view_start + view_extent
        return view_start <= start and start + extent <= view_start + view_extent

    return seen(box["x"], box["width"], view["x"], view["width"]) and seen(
        box["y"], box["height"], view["y"], view["height"]
    )


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_pictures_text_is_never_smaller_than_the_pages(page, base_url, screen):
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    checked(page, base_url, solutions.NOT_REVERSED)
    for name in ("chain", "tangle", "reuse"):
        assert_readable(opened(page, name), (screen, name))
    fresh_runtime_ready(page)
    page.evaluate("s => window.playground.run(s)", BIG_DRAWING)
    drawing = page.get_by_test_id("drawing").first
    expect(drawing).to_have_attribute("data-state", "ready")
    expect(drawing.locator("svg [data-node]")).to_have_count(200)
    assert_readable(drawing, (screen, "drawing"))
    # w feeds all 99 multiplications, far apart: each of its edges is drawn (an arc over the graph).
    assert drawing.locator(f"svg g.edge[data-child='{WEIGHT}'] path").count() == 99
    # It opens on the output, the value that matters in a drawing.
    assert in_view(drawing.locator("svg [data-node='199']"), drawing.locator(".graph-scroll"))


@pytest.mark.parametrize("width", [390, 1280])
def test_a_big_graph_opens_on_its_first_wrong_value_and_pans_to_the_rest(page, base_url, width):
    page.set_viewport_size({"width": width, "height": 844})
    report = checked(page, base_url, solutions.PRE_ORDER)  # the tangle: wrong from value 5 on
    mistake = expression(report, "tangle")["mistake"]["node"]
    assert mistake not in (None, graph_of(report, "tangle")["out"])
    tangle = opened(page, "tangle")
    scroller = tangle.locator(".graph-scroll")
    first = tangle.locator(f"svg [data-node='{mistake}']")
    assert in_view(first, scroller)
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth || s.scrollHeight > s.clientHeight")
    expect(tangle.locator(".graph-zoom-level")).to_have_text(re.compile(r"drag, or use the arrow keys"))
    expect(first).to_have_attribute("tabindex", "0")  # the value in the Tab order
    label = graph_of(report, "tangle")["nodes"][mistake]["label"]
    named = re.compile(rf"^{re.escape(label)}( = .+)?: data ")  # its note, shown unasked
    expect(tangle.get_by_test_id("graph-note")).to_have_text(named)
    # The arrow keys move from value to value, the view following.
    first.focus()
    seen = set()
    for _ in range(12):
        before = scroller.evaluate("s => [s.scrollLeft, s.scrollTop]")
        page.keyboard.press("ArrowLeft")
        focused = tangle.locator("svg [data-node]:focus")
        expect(focused).to_have_count(1)
        assert in_view(focused, scroller)
        seen.add(focused.get_attribute("data-node"))
        if scroller.evaluate("s => [s.scrollLeft, s.scrollTop]") != before:
            break
    else:
        raise AssertionError(f"the view never moved; visited {seen}")
    # The rest by dragging, too.
    box = scroller.bounding_box()
    before = scroller.evaluate("s => s.scrollLeft")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 100, box["y"] + 20)
    page.mouse.up()
    assert scroller.evaluate("s => s.scrollLeft") == max(0, before - 100)


def test_the_chain_opens_readable_on_its_output_and_zooms_in_never_out_past_readable(page, base_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    checked(page, base_url, solutions.NOT_REVERSED)  # the mistake is at out: it passed on too early
    chain = opened(page, "chain")
    scroller = chain.locator(".graph-scroll")
    assert in_view(chain.locator("svg [data-node='21']"), scroller)
    zoom_out = chain.get_by_role("button", name="Zoom out")
    expect(zoom_out).to_have_attribute("aria-disabled", "true")  # readable is as small as it goes
    chain.get_by_role("button", name="Zoom in").click()
    expect(chain.locator(".graph-zoom-level")).to_have_text("Shown at 150 %")
    scroller.focus()
    page.keyboard.press("0")
    expect(chain.locator(".graph-zoom-level")).to_contain_text("Text at page size (100 %)")
    assert_readable(chain, "reset")


@pytest.fixture
def phone(learner_page):
    """A 390 px phone that taps."""
    return learner_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)


def test_a_tap_or_the_focus_on_a_value_shows_its_note_to_eyes_and_screen_readers(phone, base_url):
    page = phone
    report = checked(page, base_url, solutions.NOT_REVERSED)
    reuse = picture(page, "reuse")
    expect(reuse).to_have_attribute("data-state", "ready")
    notes = {str(d["node"]): d["message"] for d in expression(report, "reuse")["diagnosis"]}
    flagged = reuse.locator("svg [data-node][data-flagged=true]")
    first, second = flagged.nth(0), flagged.nth(1)
    note = reuse.get_by_test_id("graph-note")
    second.scroll_into_view_if_needed()
    second.tap()
    expect(second).to_be_focused()
    expect(note).to_contain_text(notes[second.get_attribute("data-node")])
    expect(second).to_have_accessible_description(
        re.compile(re.escape(notes[second.get_attribute("data-node")]))
    )
    first.focus()  # by keyboard, or a screen reader's own cursor
    expect(note).to_contain_text(notes[first.get_attribute("data-node")])
    expect(first).to_have_accessible_description(
        re.compile(re.escape(notes[first.get_attribute("data-node")]))
    )
    expect(first).to_have_attribute("tabindex", "0")
    expect(second).to_have_attribute("tabindex", "-1")
    expect(reuse.locator(".graph-legend")).to_contain_text("tap or focus the value to read it")


# How far a cell's own text starts from the cell's left edge: what comes before it on its line.
LED = """c => { const r = document.createRange(); r.setStart(c.firstChild, 0); r.setEnd(c.firstChild, 1);
  return r.getBoundingClientRect().left - c.getBoundingClientRect().left; }"""


def test_the_text_table_is_whole_on_a_phone(page, base_url):
    page.set_viewport_size({"width": 390, "height": 844})
    checked(page, base_url, solutions.NOT_REVERSED)
    # The tangle is one of the graphs that tell orders apart, folded away while the graded ones fail.
    page.locator("[data-testid=extras] details.extras-list").evaluate("d => (d.open = true)")
    for name in ("neuron", "tangle"):
        graph = opened(page, name)
        graph.locator("details.graph-text").evaluate("d => (d.open = true)")
        table = graph.locator("table.graph-table")
        wrap = graph.locator(".graph-table-wrap")
        assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth"), name  # nothing to scroll sideways
        right = page.evaluate("() => document.documentElement.clientWidth")
        cells = table.locator("tbody th, tbody td").evaluate_all(
            "cs => cs.filter(c => c.offsetParent).map(c => c.getBoundingClientRect().right)"
        )
        assert cells and max(cells) <= right, (name, max(cells), right)
        notes = table.locator("tbody td[data-key=notes]").filter(has_text=re.compile(r"\w"))
        expect(notes.first).to_be_visible()
        # Each cell says which column it is in, to the eye; the table keeps its headers for screen readers.
        key = notes.first.evaluate("c => getComputedStyle(c, '::before').content")
        assert "notes" in key or "attr(data-key)" in key, key
        assert notes.first.evaluate(LED) > 20  # and its text starts after that name, on the same line
        expect(table.get_by_role("columnheader", name="notes")).to_have_count(1)


def test_a_zoomed_picture_follows_the_call(page, base_url):
    page.set_viewport_size({"width": 900, "height": 900})
    checked(page, base_url, solutions.NOT_REVERSED)
    chain = picture(page, "chain")
    expect(chain).to_have_attribute("data-state", "ready")
    chain.get_by_role("button", name="Zoom in").click()
    expect(chain.locator(".graph-zoom-level")).to_have_text("Shown at 150 %")
    chain.get_by_role("button", name="First").click()
    scroller = chain.locator(".graph-scroll")
    scroller.evaluate("s => (s.scrollLeft = 0)")
    out = chain.locator("svg [data-node='21']")
    view = scroller.bounding_box()
    assert out.bounding_box()["x"] > view["x"] + view["width"]  # out of view at the left end
    chain.get_by_role("button", name="Last").click()
    chain.get_by_role("button", name="Previous call").click()  # call 20: out passes its gradient on
    expect(chain.get_by_test_id("graph-step")).to_have_text(re.compile(r"^Call 20 of 20: out passed"))
    box = out.bounding_box()
    assert view["x"] <= box["x"] and box["x"] + box["width"] <= view["x"] + view["width"]
