"""The expected gradients against closed-form derivatives, independent of the engine's backward."""

import math
import random
import re

import pytest

from engine.namespace import new_engine
from engine.watch import Watcher
from exercises.backward.plugin.extras import DEPTH, TANGLE, build_graph
from exercises.backward.seed import EXTRAS, LEAVES, VALUE_SETS, exercise
from server import ROOT
from server.exercises.graphs import forward
from server.exercises.reference import backward


def sech2(z: float) -> float:
    return 1 - math.tanh(z) ** 2


def neuron(x1, w1, x2, w2, b):
    d = sech2(x1 * w1 + x2 * w2 + b)
    return [w1 * d, x1 * d, w2 * d, x2 * d, d]


def reuse(a, b):
    return [b + 2 * a, a]


def chain(x, w, steps=10):
    # forward-mode: carry (value, d/dx, d/dw) through the steps
    v, dx, dw = x, 1.0, 0.0
    for _ in range(steps):
        z = v * w
        d = sech2(z)
        v, dx, dw = math.tanh(z), d * dx * w, d * (dw * w + v)
    return [dx, dw]


def shared(x, w):
    h = math.tanh(x * w)
    d = (2 * h + 1) * sech2(x * w)  # out = h·h + h
    return [d * w, d * x]


def diamond(x, w, c):
    u = x * w
    d = sech2(u) + c  # out = tanh(u) + u·c
    return [d * w, d * x, u]


def uneven(x, w):
    u = x * w
    d = 2 * u + sech2(math.tanh(u)) * sech2(u)  # out = u·u + tanh(tanh(u))
    return [d * w, d * x]


def twins(x, w, c):
    d = sech2(x * w) + c  # out = tanh(x·w) + (w·x)·c
    return [d * w, d * x, w * x]


def tangle(*leaves):
    # no closed form: central differences of the graph's own arithmetic (server/exercises/graphs.py's forward)
    def out(values):
        return forward(list(TANGLE), values)[-1]

    h = 1e-6
    return [
        (
            out([v + h * (i == j) for j, v in enumerate(leaves)])
            - out([v - h * (i == j) for j, v in enumerate(leaves)])
        )
        / (2 * h)
        for i in range(len(leaves))
    ]


def deep(x, w):
    return chain(x, w, DEPTH)


CLOSED_FORM = {
    "neuron": neuron,
    "reuse": reuse,
    "chain": chain,
    "shared": shared,
    "diamond": diamond,
    "uneven": uneven,
    "twins": twins,
    "tangle": tangle,
    "deep": deep,
}


def engine_grads(expr, values):
    engine = new_engine(exercise())
    if expr in EXTRAS:  # built beside the engine, as the grader builds them
        built = Watcher(engine).build(build_graph, engine["build"], engine["Value"], expr, list(values))
        backward(built.out)
        return [v.grad for v in built.leaves]
    engine["backward"] = backward
    return engine["grads_of"](expr, list(values), [0.0] * len(values))


def test_graded_cases_match_closed_forms(cases):
    assert {c["group"] for c in cases} == set(LEAVES) - {"random"}  # /verify draws those
    for case in cases:
        closed = CLOSED_FORM[case["group"]](*case["inputs"]["values"])
        assert case["expected"] == pytest.approx(closed, abs=1e-6)


@pytest.mark.parametrize("expr", sorted(CLOSED_FORM))
def test_reference_matches_closed_forms_on_random_values(expr):
    rng = random.Random(expr)
    for _ in range(20 if expr == "deep" else 200):  # a deep draw is a chain of 1,000 values
        values = [rng.uniform(-2, 2) for _ in LEAVES[expr]]
        assert engine_grads(expr, values) == pytest.approx(CLOSED_FORM[expr](*values), rel=1e-6, abs=1e-6)


def test_each_expression_has_an_example_and_three_hidden_sets(cases):
    for expr, sets in VALUE_SETS.items():
        graded = [c for c in cases if c["group"] == expr]
        if expr in EXTRAS:  # extras: no worked example, flagged as extra
            assert len(graded) == len(sets) >= 1
            assert all(c["extra"] and not c["example"] for c in graded)
            continue
        assert len(graded) == len(sets) >= 4
        assert [c["example"] for c in graded] == [True] + [False] * (len(sets) - 1)
        assert not any(c["extra"] for c in graded)
        assert len({tuple(c["expected"]) for c in graded}) == len(graded)  # no two alike


def test_every_picturable_case_has_every_values_expected_gradient(cases):
    for case in cases:
        if case["group"] == "deep":
            assert "data" not in case  # too big to draw
            continue
        nodes = case["data"]["nodes"]
        assert nodes[: len(case["leaves"])] == case["expected"]  # the leaves come first
        assert nodes[-1] == 1.0  # out


def test_every_case_has_a_nonzero_gradient(cases):
    # so the starter code (every gradient 0) fails every case
    assert all(any(g != 0 for g in c["expected"]) for c in cases)


def test_grads_are_rounded_to_nine_digits(cases):
    for case in cases:
        assert all(round(g, 9) == g for g in case["expected"])


def test_new_engine_is_a_new_class_each_time():
    assert new_engine(exercise())["Value"] is not new_engine(exercise())["Value"]


def test_the_leaves_are_named_in_the_order_build_unpacks_them():
    # The seed's engine is written once; its bridge (seed.py) names its leaves: they must agree.
    source = (ROOT / "exercises" / "backward" / "engine.py").read_text()
    unpacked = re.findall(r"^\s+([\w, ]+) = leaves$", source, re.M)
    assert [tuple(names.replace(" ", "").split(",")) for names in unpacked] == [
        LEAVES["neuron"],
        LEAVES["reuse"],
        LEAVES["chain"],
    ]
