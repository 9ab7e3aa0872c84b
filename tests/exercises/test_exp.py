"""exp (exercise 3): exp's and **'s _backward, - and / built from them, and tanh rebuilt from exp with
the primitive tanh's gradients; a Value power stopped with the assert's words; a wrong solution that is
no named mistake named as none."""

import math

import pytest

from engine.scratch import run_scratch
from tests.support.graded_exercise import code, engine_with, graded, named, numbered

REFERENCE = code("exp", "reference.py")
POWER = "AssertionError: the power must be a number (int or float), not a Value"


@pytest.mark.parametrize(("a", "g"), [(0.6, 1.5), (-1.1, -2.5), (2.3, 0.4), (-0.05, 3.0)])
def test_tanh_rebuilt_from_exp_gives_the_primitive_tanhs_gradients(a, g):
    engine = engine_with("exp", REFERENCE)
    (rebuilt,) = engine["grads_of"]("tanh-from-exp", [a], g)
    x = engine["Value"](a)
    engine["backward"](g * x.tanh())  # the tanh of exercise 2, in the engine's BaseValue
    assert rebuilt == pytest.approx(x.grad, abs=1e-9)
    assert rebuilt == pytest.approx((1 - math.tanh(a) ** 2) * g, abs=1e-9)


def test_exps_gradient_is_its_output_and_the_power_rule_lowers_the_power():
    engine = engine_with("exp", REFERENCE)
    Value, backward = engine["Value"], engine["backward"]
    a = Value(0.7)
    out = a.exp()
    backward(out)
    assert a.grad == out.data == pytest.approx(math.exp(0.7))
    b = Value(1.5)
    backward(b**3)
    assert b.grad == pytest.approx(3 * 1.5**2)  # 6.75, not 3 · 1.5³ nor 1.5²
    c, d = Value(1.2), Value(-0.8)
    backward(2 - c / d)  # __rsub__ and __truediv__: d(2 - c/d)/dc = -1/d, /dd = c/d²
    assert (c.grad, d.grad) == pytest.approx((1 / 0.8, 1.2 / 0.64))


def test_a_value_power_stops_at_the_assert_with_its_words_in_a_check_and_in_a_run():
    source = REFERENCE.replace("return self * other**-1", "return self * other ** Value(-1.0)")
    report = graded("exp", source)
    assert report["passed"] is False
    assert report["error"]["message"] == POWER
    assert "return self * other ** Value(-1.0)" in report["error"]["traceback"]
    read, _ = numbered("exp")
    run = run_scratch(read, "a = Value(2.0)\nb = Value(3.0)\nc = a ** b\n", REFERENCE)
    assert run["error"]["message"] == POWER and "c = a ** b" in run["error"]["traceback"]
    said = " ".join(code("exp", "statement.en.md").split())  # the statement and the starter say it first
    assert "The power `n` is a number (an `int` or a `float`), never a `Value`" in said
    assert POWER.removeprefix("AssertionError: ") in code("exp", "starter.py")


def test_negation_made_as_a_new_value_fails_and_is_named_as_no_mistake():
    cut = REFERENCE.replace("return self * -1", "return Value(-self.data)")  # the graph is cut at -b
    assert cut != REFERENCE
    report = graded("exp", cut)
    assert report["passed"] is False and report["error"] is None
    assert named(report) == {"a-b": None, "2-a": None}  # b and a get nothing back through the minus


def test_the_reference_passes_and_each_mistake_fails_where_its_operation_is_used():
    assert graded("exp", REFERENCE)["passed"] is True
    assert set(named(graded("exp", code("exp", "mistakes/rsub-swapped.py")))) == {"2-a"}
    assert set(named(graded("exp", code("exp", "mistakes/exp-from-input.py")))) == {"exp(a)", "tanh-from-exp"}


def test_a_run_makes_the_engines_values_with_the_learners_value():
    # 2 * a is made by the engine's BaseValue: in a Run, as in a Check, it is the learner's Value, with exp
    read, _ = numbered("exp")
    run = run_scratch(read, code("exp", "scratch.py"), REFERENCE)
    assert run["error"] is None, run["error"]
    rebuilt, primitive = run["output"]["text"].splitlines()  # tanh(0.6) and its gradient, both ways
    assert rebuilt.startswith("0.53704956699803") and rebuilt == primitive and len(run["drawings"]) == 1


def test_the_picture_names_exp_and_each_power_as_the_statement_writes_them():
    # tanh rebuilt from exp, drawn: every operation named (none "?"), each power with its number
    read, _ = numbered("exp")
    (drawing,) = run_scratch(read, code("exp", "scratch.py"), REFERENCE)["drawings"]
    ops = [n["op"] for n in drawing["nodes"] if n["op"]]
    assert "?" not in ops and {"exp", "**-1", "+", "*"} <= set(ops), ops
    formulas = [n["formula"] for n in drawing["nodes"] if n["formula"]]
    assert any(f.startswith("exp(") for f in formulas) and any(f.endswith("**-1") for f in formulas), formulas
