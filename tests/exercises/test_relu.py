"""relu (exercise 4): its gradient is out.grad above 0 and nothing below, graded exactly and never at the
kink; testing the output or the input is the same; a reused input adds; a wrong solution that is no
named mistake named as none, and one that is a named mistake's in other words named as it."""

import json
import random

import pytest

from engine.scratch import run_scratch
from tests.support.exercise_folders import SHIPPED
from tests.support.graded_exercise import code, engine_with, graded, named, numbered

REFERENCE = code("relu", "reference.py")
TEST = "(out.data > 0) * out.grad"


@pytest.mark.parametrize(("a", "g", "grad"), [(1.3, 1.5, 1.5), (-0.8, -2.5, 0.0), (0.6, -0.75, -0.75)])
def test_relu_passes_out_grad_above_0_and_nothing_below(a, g, grad):
    engine = engine_with("relu", REFERENCE)
    assert engine["grads_of"]("relu(a)", [a], g) == [grad]
    assert engine["grads_of"]("relu(a)+a", [a], g) == [grad + g]  # and + adds its own share


@pytest.mark.parametrize("test", ["(self.data > 0)", "(out.data > 0)", "(self.data >= 0)"])
def test_testing_the_output_or_the_input_passes_and_0_itself_is_never_graded(test):
    assert graded("relu", REFERENCE.replace("(out.data > 0)", test))["passed"] is True


def test_the_output_at_or_above_0_is_always_true_and_named_as_passing_the_gradient_whatever_the_sign():
    # relu's output is never below 0: out.data >= 0 is always true
    report = graded("relu", REFERENCE.replace("(out.data > 0)", "(out.data >= 0)"))
    assert report["passed"] is False and set(named(report).values()) == {"identity"}


def test_no_case_fixed_or_drawn_is_near_the_kink():
    data = json.loads((SHIPPED / "relu" / "exercise.json").read_text())
    namespace: dict = {}
    exec(code("relu", "cases.py"), namespace)  # noqa: S102 - the exercise's own cases.py
    rng = random.Random(52)
    drawn = [namespace["draw"](g["name"], rng) for g in data["groups"] for _ in range(200)]
    inputs = [c["inputs"] for c in data["cases"]] + drawn
    assert all(abs(case["values"][0]) >= 0.2 for case in inputs)  # a, relu's input, away from 0
    assert {case["values"][0] > 0 for case in inputs} == {True, False}  # both sides


def test_a_leaky_relus_gradient_fails_and_is_named_as_no_mistake():
    leaky = REFERENCE.replace(TEST, "(1.0 if out.data > 0 else 0.01) * out.grad")
    assert leaky != REFERENCE
    report = graded("relu", leaky)
    assert report["passed"] is False and report["error"] is None
    assert set(named(report).values()) == {None}


def test_the_inputs_value_as_the_gradient_is_named_as_the_outputs():
    # above 0, self.data is out.data; below 0, (out.data > 0) is 0: out-value's numbers, so its name
    source = REFERENCE.replace(TEST, "(out.data > 0) * self.data * out.grad")
    assert set(named(graded("relu", source)).values()) == {"out-value"}


def test_the_picture_names_relu():
    read, _ = numbered("relu")
    source = "a = Value(-0.7)\nb = Value(1.5)\ny = a.relu() * b + a\nbackward(y)\ndraw(y)\n"
    (drawing,) = run_scratch(read, source, REFERENCE)["drawings"]
    assert "relu(a)" in [n["formula"] for n in drawing["nodes"]]
