"""The graph picture: every value with its data and grads, the wrong ones marked, the calls step by step."""

import re

import pytest
from playwright.sync_api import expect

from tests import solutions
from tests.browser.pages import open_playground, watched_page


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


def test_a_failing_expression_shows_its_graph_left_to_right_with_the_wrong_values_marked(page, base_url):
    report = checked(page, base_url, solutions.NOT_REVERSED)
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
    flagged = reuse.locator("svg [data-node][data-flagged=true]").first
    node = flagged.get_attribute("data-node")
    note = next(d["message"] for d in expression(report, "reuse")["diagnosis"] if str(d["node"]) == node)
    expect(flagged.locator("title")).to_contain_text(note)
    # Inputs on the left, then the operation, then the value it makes.
    left = a.bounding_box()["x"]
    times = reuse.locator("svg [data-op-of='3']").bounding_box()["x"]
    assert left < times < aa.bounding_box()["x"] < out.bounding_box()["x"]
    named = re.compile(r"^Graph of reuse: 5 values.*Wrong grads: a and b\.")
    expect(reuse.get_by_role("img", name=named)).to_be_visible()


def test_the_text_alternative_lists_every_value_and_call_in_full(page, base_url):
    report = checked(page, base_url, solutions.NO_SEED)
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


def test_stepping_through_the_calls_shows_the_grads_after_each_call(page, base_url):
    checked(page, base_url, solutions.NOT_REVERSED)
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
    reuse.get_by_role("button", name="Last").click()
    expect(step).to_contain_text("After the last call")
    expect(reuse.locator("svg .active")).to_have_count(0)


@pytest.fixture
def routed_page(browser, serve, base_url):
    """A page whose requests the test routes: with no service worker, which would answer from its cache."""
    context = browser.new_context(service_workers="block")
    page, assert_clean = watched_page(context, serve.origins)
    yield page
    assert_clean()
    context.close()


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
    reuse.locator(":scope > summary").click()
    expect(reuse).to_have_attribute("data-state", "loading")
    expect(reuse).to_contain_text("Loading the picture…")
    held[0].continue_()
    page.unroute("**/*.js")
    expect(reuse).to_have_attribute("data-state", "ready")
    assert scripts, "opening the picture loaded no script"
    deep = picture(page, "deep")  # 1,002 values: a note, no drawing, no table
    deep.locator(":scope > summary").click()
    expect(deep).to_have_text(re.compile(r"This graph has 1002 values; too many to draw\."))
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


# A picture's scroller: what it scrolls, where the drawing sits in it, its scale, its labels' size on screen.
SIZES = """s => {
  const svg = s.querySelector('svg'), box = svg.getBoundingClientRect(), view = s.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const font = parseFloat(getComputedStyle(svg.querySelector('.value .label')).fontSize);
  return { scroll: s.scrollWidth, client: s.clientWidth, scale, label: font * scale,
           left: box.left - view.left, right: view.right - box.right }; }"""


@pytest.mark.parametrize("width", [390, 1366])
def test_every_picture_fits_its_box_and_zooms_to_readable_labels(page, base_url, width):
    page.set_viewport_size({"width": width, "height": 900})
    checked(page, base_url, solutions.NOT_REVERSED)
    for name in ("neuron", "reuse", "chain"):
        graph = picture(page, name)
        expect(graph).to_have_attribute("data-state", "ready")
        fitted = graph.locator(".graph-scroll").evaluate(SIZES)
        assert fitted["scroll"] <= fitted["client"], (name, fitted)  # nothing to scroll to
        assert fitted["left"] >= 0 and fitted["right"] >= 0, (name, fitted)  # the drawing inside its box
        assert fitted["scale"] <= 1  # never enlarged past its own size
        expect(graph.locator(".graph-zoom-level")).to_contain_text("Fitted to the box")
    chain = picture(page, "chain")
    scroller = chain.locator(".graph-scroll")
    out = chain.locator("svg [data-node='21']")  # the output, at the right end, is in view
    assert (
        scroller.bounding_box()["x"] + scroller.bounding_box()["width"]
        >= out.bounding_box()["x"] + out.bounding_box()["width"]
    )
    while chain.get_by_role("button", name="Zoom in").get_attribute("aria-disabled") != "true":
        chain.get_by_role("button", name="Zoom in").click()
        if scroller.evaluate(SIZES)["scale"] >= 1:
            break
    zoomed = scroller.evaluate(SIZES)
    assert zoomed["label"] >= 12, zoomed  # at full size the labels are 12 px
    assert zoomed["scroll"] > zoomed["client"]  # and the picture pans
    box = scroller.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    before = scroller.evaluate("s => s.scrollLeft")
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 150, box["y"] + box["height"] / 2)
    page.mouse.up()
    assert (
        scroller.evaluate("s => s.scrollLeft") == before + 150
    )  # dragged to the left: shows more of the right
    chain.get_by_role("button", name="Fit to the box").click()
    assert scroller.evaluate(SIZES)["scroll"] <= scroller.evaluate(SIZES)["client"]


def test_a_zoomed_picture_follows_the_call(page, base_url):
    page.set_viewport_size({"width": 900, "height": 900})
    checked(page, base_url, solutions.NOT_REVERSED)
    chain = picture(page, "chain")
    expect(chain).to_have_attribute("data-state", "ready")
    chain.get_by_role("button", name="Zoom in").click()
    chain.get_by_role("button", name="Zoom in").click()
    chain.get_by_role("button", name="Zoom in").click()
    expect(chain.locator(".graph-zoom-level")).to_have_text("Shown at 100 %")
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
