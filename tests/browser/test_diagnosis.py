"""A learner with a wrong order sees the value it concerns named in words and marked in the picture.

Every test here Checks and reads the results, on one page (module_page): each Check redraws them."""

import pytest
from playwright.sync_api import expect

from tests.browser.colours import PAINTED, is_red
from tests.browser.pages import wait_for_pictures
from tests.support import solutions

# Each mistake of the issue: where it shows, the value named, the words that say what happened.
MISTAKES = {
    "missing out.grad": (solutions.NO_SEED, "reuse", "out", "set out.grad = 1"),
    "order not reversed": (solutions.NOT_REVERSED, "reuse", "a·b", "before it had received any of it"),
    "every _backward twice": (solutions.TWICE, "reuse", "a·b", "ran twice"),
    "pre-order without memory": (solutions.PRE_ORDER, "diamond", "u", "after 1 of 2 contributions"),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_mistake_is_named_and_marked_in_the_picture(module_page, mistake):
    page = module_page
    source, expr, value, words = MISTAKES[mistake]
    report = page.evaluate("s => window.playground.check(s)", source)
    section = page.locator(f"[data-testid=results] [data-expr={expr}]")
    expect(section).to_have_attribute("data-status", "fail")
    said = section.get_by_test_id("diagnosis").locator("li", has_text=words).first
    expect(said).to_contain_text(value)
    node = said.get_attribute("data-node")
    graph = section.get_by_test_id("graph")
    expect(graph).to_have_attribute("data-state", "ready")  # a failing expression's picture opens by itself
    marked = graph.locator(f"svg [data-node='{node}']")
    expect(marked).to_have_attribute("data-flagged", "true")
    expect(marked).to_contain_text(value)
    shown = next(e for e in report["expressions"] if e["name"] == expr)
    expect(graph.locator("svg [data-node]")).to_have_count(len(shown["graph"]["nodes"]))


def test_pre_order_passes_the_three_and_the_order_graphs_say_where_it_goes_wrong(module_page):
    page = module_page
    page.evaluate("s => window.playground.check(s)", solutions.PRE_ORDER)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "order")
    extras = page.get_by_test_id("extras")
    expect(extras).to_contain_text("Not part of the verdict")
    expect(extras.locator("[data-expr=shared]")).to_have_attribute("data-status", "fail")
    shared = extras.locator("[data-expr=shared]")
    expect(shared.get_by_test_id("mistake")).to_have_text(
        "The _backward() of h ran 3 times (and 1 more value), and each run passes its gradient on again. "
        "Call _backward() once per value: remember the values you have visited, in a set."
    )
    details = shared.locator("details.values")
    expect(details.get_by_test_id("diagnosis")).to_be_hidden()  # value by value: one click away
    details.locator("summary").click()
    expect(details.get_by_test_id("diagnosis")).to_contain_text("h: its _backward ran 3 times")


def test_a_recursive_solution_is_told_what_the_deep_chain_teaches(module_page):
    page = module_page
    page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    deep = page.locator("[data-expr=deep]")
    expect(deep).to_have_attribute("data-status", "error")  # the contract: it raised
    expect(deep.locator("h3 .badge")).to_have_text("too deep for recursion")
    lesson = deep.locator(".lesson")
    expect(lesson.locator("h4")).to_have_text("What this graph teaches: Python’s recursion limit")
    expect(deep.get_by_test_id("diagnosis")).to_contain_text("1,002 values deep")
    expect(lesson).to_contain_text("a list as its stack")
    expect(lesson.locator("pre")).to_be_hidden()  # Python's own message, folded
    expect(lesson.locator("pre")).to_contain_text("RecursionError")
    expect(deep.get_by_test_id("graph")).to_contain_text("too many to draw")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(
    ("answer", "status"), [("CORRECT", "pass"), ("PRE_ORDER", "order"), ("ITERATIVE", "pass")]
)
def test_a_right_answer_shows_no_red(module_page, answer, status, theme):
    # A pass of the three with a wrong order too: amber in the headline, violet on the order graphs.
    page = module_page
    page.emulate_media(color_scheme=theme)  # the system's theme, switched in place
    page.evaluate("s => window.playground.check(s)", getattr(solutions, answer))
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", status)
    page.locator("[data-testid=results] details").evaluate_all("ds => ds.forEach(d => (d.open = true))")
    wait_for_pictures(page)  # the extras' pictures too, with their wrong values marked
    red = [p for p in page.evaluate(PAINTED) if is_red(p[2])]
    assert not red, f"red on a right answer ({answer}, {theme}): {red[:8]}"
