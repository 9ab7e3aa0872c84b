"""The diagnosis and the picture's data: each kind of mistake named at its value, and the extra graphs."""

import json

import pytest

from engine.grade import grade
from tests import solutions


def by_name(report):
    return {e["name"]: e for e in report["expressions"]}


def kinds(expr):
    return [d["kind"] for d in expr["diagnosis"]]


def label(expr, node):
    return expr["graph"]["nodes"][node]["label"]


def test_a_right_solution_has_no_diagnosis_and_a_picture_of_each_graph(cases):
    report = grade(solutions.ITERATIVE, cases)
    exprs = by_name(report)
    assert all(e["passed"] and e["diagnosis"] == [] for e in exprs.values())
    sizes = {name: len(e["graph"]["nodes"]) for name, e in exprs.items() if e["graph"]}
    assert sizes == {"neuron": 10, "reuse": 5, "chain": 22, "shared": 6, "diamond": 7}
    assert exprs["deep"]["graph"] is None  # 1,002 values: explained in words only
    for e in exprs.values():
        if e["graph"]:
            nodes = e["graph"]["nodes"]
            assert not any(n["wrong"] for n in nodes)
            assert all(len(n["calls"]) == (1 if n["children"] else 0) for n in nodes)
            assert nodes[e["graph"]["out"]]["label"] == "out"


def test_the_picture_names_values_as_learners_read_them(cases):
    exprs = by_name(grade(solutions.ITERATIVE, cases))
    assert [n["label"] for n in exprs["reuse"]["graph"]["nodes"]] == ["a", "b", "a·b", "a·a", "out"]
    assert exprs["reuse"]["graph"]["nodes"][3]["children"] == [0, 0]  # a·a uses a twice
    neuron = [(n["label"], n["formula"], n["op"]) for n in exprs["neuron"]["graph"]["nodes"][5:]]
    assert neuron == [
        ("x1·w1", "x1·w1", "*"),
        ("x2·w2", "x2·w2", "*"),
        ("s1", "x1·w1 + x2·w2", "+"),
        ("s1 + b", "s1 + b", "+"),
        ("out", "tanh(s1 + b)", "tanh"),
    ]


def test_the_calls_are_recorded_in_order_with_what_each_changed(cases):
    reuse = by_name(grade(solutions.ITERATIVE, cases))["reuse"]
    graph = reuse["graph"]
    assert [graph["nodes"][c["node"]]["label"] for c in graph["calls"]] == ["out", "a·b", "a·a"]
    first = graph["calls"][0]["changes"]
    assert [(graph["nodes"][d["node"]]["label"], d["before"], d["after"]) for d in first] == [
        ("a·b", 0.0, 1.0),
        ("a·a", 0.0, 1.0),
    ]
    assert graph["nodes"][4]["start"] == 1.0 and graph["nodes"][0]["start"] == 0.0


def test_missing_out_grad_is_named_at_out(cases):
    report = grade(solutions.NO_SEED, cases)
    for name in ("neuron", "reuse", "chain"):
        expr = by_name(report)[name]
        assert kinds(expr) == ["out-grad"]
        assert expr["diagnosis"][0]["node"] == expr["graph"]["out"]
        assert "set out.grad = 1" in expr["diagnosis"][0]["message"]
        assert expr["graph"]["nodes"][expr["graph"]["out"]]["wrong"]


def test_out_grad_set_to_something_else(cases):
    reuse = by_name(grade(solutions.OUT_TWO, cases))["reuse"]
    assert reuse["diagnosis"][0]["message"] == "out.grad was 2 when out passed its gradient on, not 1."


def test_order_not_reversed_names_each_value_that_passed_on_too_early(cases):
    exprs = by_name(grade(solutions.NOT_REVERSED, cases))
    reuse = exprs["reuse"]
    assert kinds(reuse) == ["early", "early"]
    named = {label(reuse, d["node"]) for d in reuse["diagnosis"]}
    assert named == {"a·b", "a·a"}
    assert (
        reuse["diagnosis"][0]["message"]
        == "a·b (used once) passed its gradient on before it had received any of it."
    )
    shared = exprs["shared"]
    t1 = next(d for d in shared["diagnosis"] if label(shared, d["node"]) == "t1")
    assert t1["message"] == "t1 (used 3 times) passed its gradient on before it had received any of it."
    assert len(exprs["chain"]["diagnosis"]) == 19  # every value but out, the leaves aside


def test_every_backward_twice_names_each_value(cases):
    reuse = by_name(grade(solutions.TWICE, cases))["reuse"]
    assert kinds(reuse) == ["repeated"] * 3
    assert (
        reuse["diagnosis"][2]["message"]
        == "out: its _backward ran twice; each run passes its gradient on again."
    )
    assert all(
        reuse["graph"]["nodes"][d["node"]]["calls"] == [n, n + 1]
        for d, n in zip(reuse["diagnosis"], (5, 3, 1), strict=True)
    )


def test_a_backward_that_never_runs(cases):
    chain = by_name(grade(solutions.SKIP_TANH, cases))["chain"]
    assert set(kinds(chain)) == {"never"}
    assert chain["diagnosis"][0]["message"] == "t1: its _backward never ran, so x·w got nothing from it."


def test_a_leaf_gradient_changed_directly(cases):
    reuse = by_name(grade(solutions.LEAF_BY_HAND, cases))["reuse"]
    assert kinds(reuse) == ["direct", "direct"]
    assert reuse["diagnosis"][0]["message"].startswith("The gradient of the leaf a was changed directly")


def test_pre_order_passes_the_seeds_three_and_is_told_where_the_extras_go_wrong(cases):
    report = grade(solutions.PRE_ORDER, cases)
    exprs = by_name(report)
    assert report["passed"] is True and report["error"] is None  # extras are outside the verdict
    assert not exprs["shared"]["passed"] and not exprs["diamond"]["passed"]
    diamond = exprs["diamond"]
    assert [(d["kind"], label(diamond, d["node"])) for d in diamond["diagnosis"]] == [
        ("early", "x·w"),
        ("repeated", "x·w"),
    ]
    assert (
        diamond["diagnosis"][0]["message"]
        == "x·w (used twice) passed its gradient on after 1 of 2 contributions."
    )
    wrong = {n["label"] for n in diamond["graph"]["nodes"] if n["wrong"]}
    assert wrong == {"x", "w"}
    shared = exprs["shared"]
    assert [(d["kind"], label(shared, d["node"])) for d in shared["diagnosis"]] == [
        ("repeated", "x·w"),
        ("repeated", "t1"),
    ]


def test_a_recursive_search_does_not_survive_the_deep_chain(cases):
    report = grade(solutions.CORRECT, cases)
    deep = by_name(report)["deep"]
    assert report["passed"] and report["error"] is None
    assert deep["error"]["message"].startswith("RecursionError")
    assert kinds(deep) == ["recursion"]
    assert "1,002 values deep" in deep["diagnosis"][0]["message"]
    assert by_name(grade(solutions.ITERATIVE, cases))["deep"]["passed"]


def test_the_instrumentation_is_out_of_the_learners_sight(cases):
    source = solutions.ITERATIVE.replace(
        "    out.grad = 1\n",
        "    out.grad = 1\n    assert build.__name__ == 'build' and Value.__init__.__name__ == '__init__'\n",
    )
    assert grade(source, cases)["passed"]


@pytest.mark.parametrize("value", ["float('nan')", "float('inf')", "1j", "'one'"])
def test_any_grad_the_learner_sets_still_gives_a_json_report(cases, value):
    source = f"def backward(out):\n    for v in [out, *out._prev]:\n        v.grad = {value}\n"
    report = grade(source, cases)
    json.dumps(report, allow_nan=False)
    assert report["passed"] is False
