"""The diagnosis and the picture's data: each kind of mistake named at its value, and the extra graphs."""

import json

import pytest

from server.page.page import read
from tests.support import orders, solutions
from tests.support.seed import grade

STARTER = read("exercises/backward/starter.py")


def by_name(report):
    return {e["name"]: e for e in report["expressions"]}


def kinds(expr):
    return [d["kind"] for d in expr["diagnosis"]]


def label(expr, node):
    return expr["graph"]["nodes"][node]["label"]


def mistake(expr):
    return (expr["mistake"]["kind"], expr["mistake"]["message"]) if expr["mistake"] else None


def test_a_right_solution_has_no_diagnosis_and_a_picture_of_each_graph(cases):
    report = grade(solutions.ITERATIVE, cases)
    exprs = by_name(report)
    assert report["order"] == "right"
    assert all(e["passed"] and e["diagnosis"] == [] and e["mistake"] is None for e in exprs.values())
    sizes = {name: len(e["graph"]["nodes"]) for name, e in exprs.items() if e["graph"]}
    assert sizes == {
        "neuron": 10,
        "reuse": 5,
        "chain": 22,
        "shared": 6,
        "diamond": 7,
        "uneven": 7,
        "twins": 8,
        "tangle": 34,
    }
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
    # The values the formula names (h = tanh(x·w), u = x·w) have those names in the picture too.
    shared = [(n["label"], n["formula"]) for n in exprs["shared"]["graph"]["nodes"][2:]]
    assert shared == [("x·w", "x·w"), ("h", "tanh(x·w)"), ("h·h", "h·h"), ("out", "h·h + h")]
    assert [n["label"] for n in exprs["uneven"]["graph"]["nodes"]] == [
        "x",
        "w",
        "u",
        "u·u",
        "t1",
        "t2",
        "out",
    ]
    assert exprs["diamond"]["graph"]["nodes"][3]["label"] == "u"


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


def test_the_starter_is_told_it_does_nothing_yet(cases):
    report = grade(STARTER, cases)
    assert report["passed"] is False and report["error"] is None
    for expr in report["expressions"]:
        assert mistake(expr) == (
            "nothing",
            "Your backward does nothing yet: no _backward() ran and out.grad is still 0. Set out.grad = 1, "
            "then call _backward() on every value, from out back to the leaves.",
        )
        # Nothing ran: no sentence says out passed its gradient on.
        assert "out-grad" not in kinds(expr)
        assert not any("passed its gradient on" in d["message"] for d in expr["diagnosis"])


def test_setting_out_grad_and_nothing_else_is_told_no_backward_ran(cases):
    reuse = by_name(grade("def backward(out):\n    out.grad = 1\n", cases))["reuse"]
    assert reuse["mistake"]["kind"] == "never"
    assert reuse["mistake"]["message"].startswith("No _backward() ran, so no gradient went further than out.")


def test_missing_out_grad_is_named_at_out(cases):
    report = grade(solutions.NO_SEED, cases)
    for name in ("neuron", "reuse", "chain"):
        expr = by_name(report)[name]
        assert kinds(expr) == ["out-grad"]
        assert expr["diagnosis"][0]["node"] == expr["graph"]["out"]
        assert expr["mistake"]["kind"] == "out-grad" and "set out.grad = 1" in expr["mistake"]["message"]
        assert expr["graph"]["nodes"][expr["graph"]["out"]]["wrong"]


def test_out_grad_set_to_something_else(cases):
    reuse = by_name(grade(solutions.OUT_TWO, cases))["reuse"]
    assert reuse["diagnosis"][0]["message"] == "out.grad was 2 when out passed its gradient on, not 1."


def test_a_forgotten_reverse_is_named_once_with_the_values_one_click_away(cases):
    exprs = by_name(grade(solutions.NOT_REVERSED, cases))
    for expr in exprs.values():
        if expr["role"] == "lesson":  # a recursive search: stopped by the recursion limit there
            continue
        assert expr["mistake"]["kind"] == "reversed", expr["name"]
        assert "reversed(topo)" in expr["mistake"]["message"]
        assert expr["mistake"]["node"] == expr["graph"]["out"]
    reuse = exprs["reuse"]
    assert kinds(reuse) == ["early", "early"]  # the detail: each value that passed on too early
    assert {label(reuse, d["node"]) for d in reuse["diagnosis"]} == {"a·b", "a·a"}
    assert (
        reuse["diagnosis"][0]["message"]
        == "a·b (used once) passed its gradient on before it had received any of it."
    )
    shared = exprs["shared"]
    h = next(d for d in shared["diagnosis"] if label(shared, d["node"]) == "h")
    assert h["message"] == "h (used 3 times) passed its gradient on before it had received any of it."
    assert len(exprs["chain"]["diagnosis"]) == 19  # every value but out, the leaves aside


def test_every_backward_twice_is_named_at_the_value_nearest_out(cases):
    reuse = by_name(grade(solutions.TWICE, cases))["reuse"]
    assert kinds(reuse) == ["repeated"] * 3
    assert mistake(reuse) == (
        "repeated",
        "The _backward() of out ran twice (and 2 more values), and each run passes its gradient on again. "
        "Call _backward() once per value: remember the values you have visited, in a set.",
    )
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
    assert chain["mistake"]["message"].startswith(
        "out: its _backward never ran, so t9·w got nothing from it."
    )


def test_a_leaf_gradient_changed_directly(cases):
    reuse = by_name(grade(solutions.LEAF_BY_HAND, cases))["reuse"]
    assert kinds(reuse) == ["direct", "direct"]
    assert reuse["diagnosis"][0]["message"].startswith("The gradient of the leaf a was changed directly")
    assert reuse["mistake"]["message"].startswith("Your code changes .grad itself: a.grad is 5, but the")


def test_pre_order_passes_the_seeds_three_but_not_the_order(cases):
    report = grade(solutions.PRE_ORDER, cases)
    exprs = by_name(report)
    assert report["passed"] is True and report["error"] is None  # the seed's rule: the three pass
    assert report["order"] == "wrong"
    assert {e["name"] for e in report["expressions"] if not e["passed"]} >= {"shared", "diamond", "uneven"}
    diamond = exprs["diamond"]
    assert [(d["kind"], label(diamond, d["node"])) for d in diamond["diagnosis"]] == [
        ("early", "u"),
        ("repeated", "u"),
    ]
    assert (
        diamond["diagnosis"][0]["message"]
        == "u (used twice) passed its gradient on after 1 of 2 contributions."
    )
    assert diamond["mistake"]["message"].startswith("The _backward() of u ran twice, and each run")
    wrong = {n["label"] for n in diamond["graph"]["nodes"] if n["wrong"]}
    assert wrong == {"x", "w"}


def test_breadth_first_is_told_about_the_paths_of_different_lengths(cases):
    uneven = by_name(grade(orders.WRONG["breadth-first"], cases))["uneven"]
    assert mistake(uneven) == (
        "early",
        "u passed its gradient on before it had all of it (2 of its 3 shares had come). Every value made "
        "from u must run its _backward() first: a list with each value after its inputs (a depth-first "
        "search), gone through backwards, does that. Here u reaches out by paths of 2 steps and of 3 steps: "
        "an order that takes values as it meets them from out (level by level, say) runs it after the "
        "short path only.",
    )


def test_values_remembered_by_their_data_are_told_so(cases):
    twins = by_name(grade(orders.WRONG["seen by data"], cases))["twins"]
    assert mistake(twins) == (
        "never",
        "w·x: its _backward never ran, so w, x got nothing from it. w·x has the same data as x·w, which "
        "did run: remember the values you visited by the values themselves (a set of them), not by their "
        "data.",
    )


def test_kahns_on_uses_taken_off_per_user_is_told_about_the_double_use(cases):
    shared = by_name(grade(orders.WRONG["kahn, uses not users"], cases))["shared"]
    assert shared["mistake"]["kind"] == "never"
    assert "h·h lists h twice in its _prev" in shared["mistake"]["message"]


def test_a_recursive_search_is_right_and_the_deep_chain_is_a_lesson(cases):
    report = grade(solutions.CORRECT, cases)
    exprs = by_name(report)
    deep = exprs["deep"]
    assert report["passed"] and report["error"] is None and report["order"] == "right"
    assert all(e["passed"] for e in report["expressions"] if e["role"] != "lesson")
    assert deep["role"] == "lesson" and deep["error"]["message"].startswith("RecursionError")
    assert kinds(deep) == ["recursion"] and deep["mistake"] is None
    assert "1,002 values deep" in deep["diagnosis"][0]["message"]
    assert by_name(grade(solutions.ITERATIVE, cases))["deep"]["passed"]


def test_an_error_on_an_order_graph_only_is_not_called_a_wrong_order(cases):
    big = solutions.ITERATIVE.replace("    out.grad = 1\n", "    out.grad = 1\n    assert len(topo) < 30\n")
    report = grade(big, cases)
    assert report["passed"] is True and report["order"] == "error"
    assert {e["name"] for e in report["expressions"] if not e["passed"]} == {"tangle", "deep"}


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
