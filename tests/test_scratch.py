"""The scratch pad in CPython: Runs of the learner's own Values through their backward, and draw(v)."""

import json

import pytest

from engine.drawing import MAX_CALLS, MAX_LABEL_CHARS
from engine.errors import ENGINE_HINTS
from engine.namespace import new_engine
from engine.report import FIELDS
from engine.scratch import MAX_DRAWINGS, runner
from exercises.backward.seed import exercise
from server.exercises.presets import PRESETS, STARTER
from tests.support import solutions
from tests.support.seed import run_scratch

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
    assert "·" in labels[-1] and drawing["label"] == "a * b + Value(1.0)"  # the title: draw's argument


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
    result = json.loads(runner(exercise())(STARTER, solutions.CORRECT))
    assert result["output"]["text"].startswith("a.grad = -2.0") and len(result["drawings"]) == 1


def test_print_shows_a_value_as_micrograd_does():
    source = "x = Value(2.0)\ny = x * x\nprint(x)\nbackward(y)\nprint([x, y])\n"
    text = run_scratch(source, solutions.CORRECT)["output"]["text"]
    assert text == "Value(data=2.0, grad=0.0)\n[Value(data=2.0, grad=4.0), Value(data=4.0, grad=1)]\n"
    # The repr is the Run's engine's only: the graded engine's Value stays the seed's, plain.
    assert "__repr__" not in new_engine(exercise())["Value"].__dict__
    assert " object at 0x" in repr(new_engine(exercise())["Value"](1.0))


OPERATIONS = [  # what the learner wrote, what Python says, the hint beside it
    ("2*x", "TypeError: unsupported operand type(s) for *: 'int' and 'Value'", "number"),
    ("x*2", "AttributeError: 'int' object has no attribute 'data'", "number"),
    ("x + 1", "AttributeError: 'int' object has no attribute 'data'", "number"),
    ("1 + x", "TypeError: unsupported operand type(s) for +: 'int' and 'Value'", "number"),
    ("x + 1.5", "AttributeError: 'float' object has no attribute 'data'", "number"),
    ("x += 1", "AttributeError: 'int' object has no attribute 'data'", "number"),
    ("x - 1", "TypeError: unsupported operand type(s) for -: 'Value' and 'int'", "-"),
    ("x - y", "TypeError: unsupported operand type(s) for -: 'Value' and 'Value'", "-"),
    ("x -= 1", "TypeError: unsupported operand type(s) for -=: 'Value' and 'int'", "-"),
    ("-x", "TypeError: bad operand type for unary -: 'Value'", "negation"),
    ("x / 2", "TypeError: unsupported operand type(s) for /: 'Value' and 'int'", "/"),
    ("x**2", "TypeError: unsupported operand type(s) for ** or pow(): 'Value' and 'int'", "**"),
    ("x // 2", "TypeError: unsupported operand type(s) for //: 'Value' and 'int'", "operator"),
    ("x + 'a'", "AttributeError: 'str' object has no attribute 'data'", "operator"),
    ("x > 0", "TypeError: '>' not supported between instances of 'Value' and 'int'", "compare"),
    ("math.tanh(x)", "TypeError: must be real number, not Value", "number wanted"),
    ("x.backward()", "AttributeError: 'Value' object has no attribute 'backward'", "backward"),
]


@pytest.mark.parametrize(("code", "python", "hint"), OPERATIONS, ids=[o[0] for o in OPERATIONS])
def test_an_operation_the_engine_lacks_says_what_to_write_instead(code, python, hint):
    error = run_scratch(f"x = Value(2.0)\ny = Value(3.0)\n{code}\n", None)["error"]
    assert error["message"] == f"{python}\n{ENGINE_HINTS[hint]}"  # Python's own words first, as it says them
    assert (error["kind"], error["file"], error["line"]) == ("runtime", "scratch", 3)
    assert error["traceback"].endswith(error["message"]) and f"    {code}" in error["traceback"]


@pytest.mark.parametrize("method", ["relu", "exp"])
def test_a_method_the_engine_lacks_is_named(method):
    error = run_scratch(f"x = Value(2.0)\nx.{method}()\n", None)["error"]
    python = f"AttributeError: 'Value' object has no attribute '{method}'"
    assert error["message"] == f"{python}\n{ENGINE_HINTS['attribute'].format(name=method)}"
    assert f"{method} is not in this exercise's engine" in error["message"]


def test_an_operation_in_the_learners_backward_is_explained_too_and_other_errors_are_not():
    broken = "def backward(out):\n    out.grad = 1.0\n    return out - 1\n"
    error = run_scratch("backward(Value(2.0))\n", broken)["error"]
    assert error["file"] == "editor" and error["message"].endswith(ENGINE_HINTS["-"])
    for plain in ("x = Value(2.0)\nx.grad.foo\n", "[].data\n", "1 + 'a'\n", "raise TypeError('mine')\n"):
        message = run_scratch(plain, None)["error"]["message"]
        assert "\n" not in message and not any(hint in message for hint in ENGINE_HINTS.values()), plain


def test_a_drawing_is_titled_by_the_text_of_draws_argument():
    (deep,) = run_scratch(PRESET["deep"], solutions.ITERATIVE)["drawings"]
    assert deep["label"] == "out" and deep["nodes"] is None  # too big to draw, still titled
    source = "a = Value(2.0)\nb = Value(3.0)\ndraw(a + b); draw(\n    a *\n    b\n)\nd = draw\nd(a)\n"
    titles = [d["label"] for d in run_scratch(source, None)["drawings"]]
    assert titles == ["a + b", "a * b", "a"]
    long = "(" + " + ".join(["a"] * MAX_LABEL_CHARS) + ")"
    (drawing,) = run_scratch(f"a = Value(1.0)\ndraw({long})\n", None)["drawings"]
    assert drawing["label"] == drawing["nodes"][-1]["label"] != long  # too long a title: the value's label
    made_by_exec = "big = Value(1.0)\nfor _ in range(300):\n    big = big + big\nexec('draw(big)')\n"
    (made,) = run_scratch(made_by_exec, None)["drawings"]
    assert made["label"] is None and made["nodes"] is None  # no text of the learner's for it: numbered


@pytest.mark.parametrize("preset", PRESET)
def test_every_preset_drawing_has_its_argument_as_title(preset):
    lines = PRESET[preset].splitlines()
    drawings = run_scratch(PRESET[preset], solutions.ITERATIVE)["drawings"]
    expected = [lines[d["line"] - 1].split("draw(", 1)[1].split(")", 1)[0] for d in drawings]
    assert [d["label"] for d in drawings] == expected and all(expected)
