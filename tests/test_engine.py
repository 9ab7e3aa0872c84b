"""The expected gradients against closed-form derivatives, independent of the engine's backward."""

import math
import random

import pytest

from engine.cases import LEAVES, VALUE_SETS
from engine.fresh import fresh_engine
from engine.reference import backward


def sech2(z: float) -> float:
    return 1 - math.tanh(z) ** 2


def neuron(x1, w1, x2, w2, b):
    d = sech2(x1 * w1 + x2 * w2 + b)
    return [w1 * d, x1 * d, w2 * d, x2 * d, d]


def reuse(a, b):
    return [b + 2 * a, a]


def chain(x, w):
    # forward-mode: carry (value, d/dx, d/dw) through the ten steps
    v, dx, dw = x, 1.0, 0.0
    for _ in range(10):
        z = v * w
        d = sech2(z)
        v, dx, dw = math.tanh(z), d * dx * w, d * (dw * w + v)
    return [dx, dw]


CLOSED_FORM = {"neuron": neuron, "reuse": reuse, "chain": chain}


def engine_grads(expr, values):
    engine = fresh_engine()
    engine["backward"] = backward
    return engine["grads_of"](expr, list(values), [0.0] * len(values))


def test_graded_cases_match_closed_forms(cases):
    assert {c["expr"] for c in cases} == set(LEAVES)
    for case in cases:
        assert case["expected"] == pytest.approx(CLOSED_FORM[case["expr"]](*case["values"]), abs=1e-6)


@pytest.mark.parametrize("expr", sorted(LEAVES))
def test_reference_matches_closed_forms_on_random_values(expr):
    rng = random.Random(expr)
    for _ in range(200):
        values = [rng.uniform(-2, 2) for _ in LEAVES[expr]]
        assert engine_grads(expr, values) == pytest.approx(CLOSED_FORM[expr](*values), abs=1e-6)


def test_each_expression_has_an_example_and_three_hidden_sets(cases):
    for expr, sets in VALUE_SETS.items():
        graded = [c for c in cases if c["expr"] == expr]
        assert len(graded) == len(sets) >= 4
        assert [c["example"] for c in graded] == [True] + [False] * (len(sets) - 1)
        assert len({tuple(c["expected"]) for c in graded}) == len(graded)  # no two alike


def test_every_case_has_a_nonzero_gradient(cases):
    # so the starter code (every gradient 0) fails every case
    assert all(any(g != 0 for g in c["expected"]) for c in cases)


def test_grads_are_rounded_to_nine_digits(cases):
    for case in cases:
        assert all(round(g, 9) == g for g in case["expected"])


def test_fresh_engine_is_a_new_class_each_time():
    assert fresh_engine()["Value"] is not fresh_engine()["Value"]
