"""Where a picture looks and how big it shows (static/js/picture/graph-view.js), run in Node."""

import json

from server import ROOT
from tests.support.node import module_json

VIEW = ROOT / "static/js/picture/graph-view.js"


def view(script: str) -> object:
    """Run an ES module that imports graph-view.js as `v`; return what it prints, as JSON."""
    return module_json(f"console.log(JSON.stringify({script}));", v=VIEW)


def graph(wrong=(), out=4, size=5) -> dict:
    return {"out": out, "nodes": [{"id": i, "wrong": i in wrong} for i in range(size)]}


def test_the_readable_scale_makes_the_drawings_text_as_big_as_the_pages():
    assert view("v.readableScale(16, 12)") == 16 / 12
    assert view("v.readableScale(0, 12)") == 1  # no body size known: the drawing's own size
    assert view("v.ZOOMS")[0] == 1  # never smaller than readable


def test_a_picture_opens_on_the_mistake_then_the_diagnosis_then_the_last_wrong_value_then_the_output():
    g = json.dumps(graph(wrong=(0, 1, 2)))
    assert view(f"v.focusOf({g}, {{ mistake: {{ node: 3 }}, diagnosis: [{{ node: 1 }}] }})") == 3
    unnamed = "{ mistake: { node: null }, diagnosis: [{ node: null }, { node: 1 }] }"
    assert view(f"v.focusOf({g}, {unnamed})") == 1
    assert view(f"v.focusOf({g}, {{ diagnosis: [{{ node: 99 }}] }})") == 2  # a node the graph lacks: ignored
    assert view(f"v.focusOf({json.dumps(graph())})") == 4


def test_centring_puts_the_point_in_the_middle_within_what_scrolls():
    size, box = json.dumps({"width": 1000, "height": 200}), "{ width: 400, height: 300 }"
    assert view(f"v.centredScroll({{ x: 500, y: 100 }}, {size}, 2, {box})") == {
        "left": 800,
        "top": 50,
    }
    assert view(f"v.centredScroll({{ x: 990, y: 0 }}, {size}, 1, {box})") == {
        "left": 600,  # the right end, no further
        "top": 0,
    }
    # A box wider than the view: its left edge (its name) in view, 12 px in, not its middle.
    assert view(f"v.centredScroll({{ x: 500, y: 100, width: 600, height: 40 }}, {size}, 1, {box})") == {
        "left": 188,
        "top": 0,
    }


def test_an_arrow_key_moves_to_the_nearest_value_that_way():
    at = {0: (0, 0), 1: (100, 0), 2: (100, 80), 3: (60, 200)}  # 0 and 1 in a row, 2 under 1, 3 further down
    centres = "new Map([" + ", ".join(f"[{i}, {{ x: {x}, y: {y} }}]" for i, (x, y) in at.items()) + "])"
    assert view(f"v.neighbour({centres}, 0, 'ArrowRight')") == 1
    assert view(f"v.neighbour({centres}, 1, 'ArrowDown')") == 2
    assert view(f"v.neighbour({centres}, 2, 'ArrowDown')") == 3
    assert view(f"v.neighbour({centres}, 0, 'ArrowLeft')") is None
    assert view(f"v.neighbour({centres}, 0, 'a')") is None
