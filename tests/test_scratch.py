"""The scratch pad in CPython: Runs of the learner's own Values through their backward, and draw(v)."""

import json

import pytest

from engine.drawing import MAX_CALLS
from engine.report import FIELDS
from engine.scratch import MAX_DRAWINGS, run_scratch, runner
from server.presets import PRESETS, STARTER
from tests import solutions

PRESET = {p["id"]: p["code"] for p in PRESETS}


def grads(drawing: dict) -> dict:
    """Each value's grad in a drawing, by its label."""
    return {n["label"]: n["grad"] for n in drawing["nodes"]}


def replayed(drawing: dict) -> list:
    """The grads after replaying the drawing's calls from its start, as the page's picture does."""
    state = [n["start"] for n in drawing["nodes"]]
    for call in drawing["calls"]:
        for change in call["changes"]:
            state[change["node"]] = change["after"]
    return state


@pytest.mark.parametrize("preset", PRESET)
def test_every_preset_runs_with_a_right_backward(preset):
    result = run_scratch(PRESET[preset], solutions.ITERATIVE)
    assert result["error"] is None, result["error"]
    assert list(result) == list(FIELDS["run"])
    assert result["drawings"] and all(set(d) == set(FIELDS["drawing"]) for d in result["drawings"])


def test_a_reused_non_leaf_passes_all_its_gradient_on():
    result = run_scratch(PRESET["reused"], solutions.CORRECT)
    assert result["output"]["text"] == "a.grad = 4.0\n"
    (drawing,) = result["drawings"]
    assert grads(drawing) == {"a": 4.0, "b": 2.0, "c": 1.0}
    assert [n["formula"] for n in drawing["nodes"]] == [None, "a + a", "b + b"]
    assert [drawing["nodes"][c["node"]]["label"] for c in drawing["calls"]] == ["c", "b"]  # in their order
    assert replayed(drawing) == [n["grad"] for n in drawing["nodes"]]


def test_x_times_x_and_backward_twice():
    assert run_scratch(PRESET["square"], solutions.CORRECT)["output"]["text"] == "x.grad = 6.0\n"
    text = run_scratch(PRESET["twice"], solutions.CORRECT)["output"]["text"].splitlines()
    once, twice = (float(line.rsplit("=", 1)[1]) for line in text)
    assert (once, twice) == (-0.5, -1.0)


def test_a_drawing_shows_the_graph_as_it_is_when_drawn():
    before, after = run_scratch(PRESET["before-after"], solutions.CORRECT)["drawings"]
    assert set(grads(before).values()) == {0.0} and before["calls"] == []
    assert grads(after)["a"] == -2.0 and grads(after)["b"] == 2.0  # c = a*b + a: b + 1, a
    assert (before["line"], after["line"]) == (5, 7) and after["file"] == "scratch"


def test_a_graph_too_big_to_draw_says_how_big():
    result = run_scratch(PRESET["deep"], solutions.ITERATIVE)
    assert result["error"] is None, result["error"]
    (drawing,) = result["drawings"]
    assert drawing["nodes"] is None and drawing["size"] == 1002
    recursive = run_scratch(PRESET["deep"], solutions.CORRECT)["error"]  # what the preset is there to show
    assert recursive["file"] == "editor" and "RecursionError" in recursive["message"]


def test_without_the_learners_backward_the_scratch_pad_has_none():
    result = run_scratch("backward(Value(1.0))\n", None)
    assert result["error"]["kind"] == "runtime" and "NameError" in result["error"]["message"]
    assert (result["error"]["file"], result["error"]["line"]) == ("scratch", 1)


def test_an_error_is_placed_in_the_editor_it_happened_in():
    broken = "def backward(out):\n    out.grad = 1\n    raise ValueError('mine')\n"
    error = run_scratch("x = Value(2.0)\nbackward(x)\n", broken)["error"]
    assert (error["file"], error["line"]) == ("editor", 3) and "ValueError: mine" in error["message"]
    assert "scratch pad, line 2" in error["traceback"] and "editor, line 3" in error["traceback"]
    syntax = run_scratch("x = (\n", solutions.CORRECT)["error"]
    assert (syntax["kind"], syntax["file"]) == ("syntax", "scratch")
    assert run_scratch("draw(3)\n", None)["error"]["message"] == "TypeError: draw() takes a Value, not int"


def test_values_are_named_by_their_one_variable_or_their_formula():
    source = "a = Value(2.0)\nalso = a\nb = Value(3.0)\ndraw(a * b + Value(1.0))\n"
    (drawing,) = run_scratch(source, None)["drawings"]
    labels = [n["label"] for n in drawing["nodes"]]
    assert "b" in labels and "a" not in labels and "also" not in labels  # two names: neither is clear
    assert drawing["label"] == labels[-1] and "·" in labels[-1]


def test_drawings_and_calls_are_capped():
    many = "x = Value(1.0)\n" + "draw(x)\n" * (MAX_DRAWINGS + 2)
    result = run_scratch(many, None)
    assert len(result["drawings"]) == MAX_DRAWINGS and result["cut_drawings"] == 2
    often = "x = Value(0.5)\nw = Value(2.0)\ny = (x * w).tanh()\nfor _ in range(1500):\n    backward(y)\n"
    often += "draw(y)\n"
    (drawing,) = run_scratch(often, solutions.CORRECT)["drawings"]
    assert len(drawing["calls"]) == MAX_CALLS  # the last ones: the picture still ends at the grads
    assert replayed(drawing) == pytest.approx([n["grad"] for n in drawing["nodes"]])


def test_hostile_runs_end_with_a_clear_error():
    assert run_scratch("for i in range(10**7):\n    print(i)\n", None)["error"]["kind"] == "output"
    assert "SystemExit" in run_scratch("import sys\nsys.exit()\n", None)["error"]["message"]
    message = run_scratch('raise ValueError("x" * 50_000_000)\n', None)["error"]["message"]
    assert len(message) < 2500 and "characters cut" in message
    assert run_scratch("#" * 100_001, None)["error"]["kind"] == "syntax"


def test_the_starter_and_the_worker_entry_give_json():
    result = json.loads(runner()(STARTER, solutions.CORRECT))
    assert result["output"]["text"].startswith("a.grad = -2.0") and len(result["drawings"]) == 1
