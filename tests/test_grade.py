"""grade(): right and wrong solutions, errors with the learner's line, isolation between runs."""

import pytest

from engine.compare import close
from tests.support import solutions
from tests.support.seed import grade
from tests.support.tolerance import NUDGED, big_cases


def statuses(report):
    """Pass or fail of the seed's three expressions, the ones the verdict counts."""
    return {e["name"]: e["passed"] for e in report["expressions"] if not e["extra"]}


def test_correct_solution_passes_everything(cases):
    report = grade(solutions.CORRECT, cases)
    assert report["error"] is None
    assert report["passed"] is True
    assert statuses(report) == {"neuron": True, "reuse": True, "chain": True}
    graded = [e for e in report["expressions"] if not e["extra"]]
    assert all(c["got"] == c["expected"] for e in graded for c in e["cases"])


def test_report_shape(cases):
    report = grade(solutions.CORRECT, cases)
    assert set(report) >= {"passed", "expressions", "error", "ms"}
    assert report["ms"] >= 0
    neuron = report["expressions"][0]
    assert neuron["name"] == "neuron" and neuron["leaves"] == ["x1", "w1", "x2", "w2", "b"]
    assert len(neuron["cases"]) == 4
    assert set(neuron["cases"][0]) >= {"values", "expected", "got", "right", "passed"}


def test_each_leafs_mark_is_the_rules_and_a_case_passes_when_all_are_right(cases):
    report = grade(NUDGED, big_cases(cases))
    reuse = next(e for e in report["expressions"] if e["name"] == "reuse")
    big = reuse["cases"][-1]
    assert big["got"][0] != 1e7 and big["right"] == [True, True] and big["passed"] is True
    assert report["passed"] is True
    wrong = grade(solutions.NOT_REVERSED, cases)
    for expr in wrong["expressions"]:
        for case in expr["cases"]:
            assert case["passed"] is (case["right"] is not None and all(case["right"]))


def test_starter_fails_every_expression(cases):
    from pathlib import Path

    report = grade(Path("exercises/backward/starter.py").read_text(), cases)
    assert report["error"] is None
    assert statuses(report) == {"neuron": False, "reuse": False, "chain": False}
    assert report["passed"] is False


def test_missing_seed_gradient_fails(cases):
    report = grade(solutions.NO_SEED, cases)
    assert not report["passed"]
    graded = [e for e in report["expressions"] if not e["extra"]]
    assert all(g == 0 for e in graded for c in e["cases"] for g in c["got"])


def test_order_not_reversed_fails(cases):
    report = grade(solutions.NOT_REVERSED, cases)
    assert statuses(report) == {"neuron": False, "reuse": False, "chain": False}


def test_each_backward_twice_fails(cases):
    report = grade(solutions.TWICE, cases)
    assert not any(statuses(report).values())


def test_pre_order_passes_the_seeds_trees_only_where_no_value_is_reused(cases):
    # reuse's `a` feeds two nodes; pre-order without memory still sums right on a tree of leaves
    report = grade(solutions.PRE_ORDER, cases)
    assert report["error"] is None
    assert statuses(report)["neuron"] and statuses(report)["chain"]


def test_syntax_error_has_its_line(cases):
    report = grade("def backward(out):\n    out.grad = 1\n    for v in\n", cases)
    assert report["error"]["kind"] == "syntax"
    assert report["error"]["line"] == 3
    assert "SyntaxError" in report["error"]["message"]
    assert report["expressions"] == [] and report["passed"] is False


def test_indentation_error_is_a_syntax_error(cases):
    report = grade("def backward(out):\nout.grad = 1\n", cases)
    assert report["error"]["kind"] == "syntax" and report["error"]["line"] == 2


def test_runtime_error_names_the_learners_line(cases):
    source = "def backward(out):\n    out.grad = 1\n    out._prev[5]._backward()\n"
    report = grade(source, cases)
    err = report["error"]
    assert (err["kind"], err["line"]) == ("runtime", 3)
    assert err["message"] == "IndexError: tuple index out of range"
    assert err["traceback"].splitlines() == [
        "Traceback (your code only):",
        "  line 3, in backward",
        "    out._prev[5]._backward()",
        "IndexError: tuple index out of range",
    ]
    assert {e["name"] for e in report["expressions"]} == {c["group"] for c in cases}
    assert all(c["got"] is None for e in report["expressions"] for c in e["cases"])


def test_error_inside_the_engine_points_at_the_learners_call(cases):
    source = 'def backward(out):\n    out.grad = "one"\n    out._backward()\n'
    report = grade(source, cases)
    assert report["error"]["kind"] == "runtime"
    assert "TypeError" in report["error"]["message"]
    assert report["error"]["line"] == 3


def test_error_at_module_level(cases):
    report = grade("import nonexistent_module_xyz\n", cases)
    assert report["error"]["kind"] == "runtime" and report["error"]["line"] == 1
    assert "ModuleNotFoundError" in report["error"]["message"]


def test_no_backward_defined(cases):
    report = grade("def backwards(out):\n    pass\n", cases)
    assert report["error"]["kind"] == "runtime"
    assert "defines no function backward" in report["error"]["message"]
    assert report["error"]["line"] is None


def test_backward_not_callable(cases):
    report = grade("backward = 3\n", cases)
    assert "defines no function backward" in report["error"]["message"]


def test_grad_that_is_not_a_number(cases):
    report = grade("def backward(out):\n    out.grad = None\n    out._backward()\n", cases)
    assert report["error"]["kind"] == "runtime"
    assert not report["passed"]


def test_patching_value_does_not_leak_into_the_next_run(cases):
    patch = "Value.__add__ = lambda self, other: self\n" + solutions.CORRECT
    assert not grade(patch, cases)["passed"]
    assert grade(solutions.CORRECT, cases)["passed"]


def test_learner_cannot_replace_grads_of_for_the_grader(cases):
    cheat = "def backward(out):\n    pass\n\ndef grads_of(expr, vals, grad):\n    return [1.0] * len(vals)\n"
    assert not grade(cheat, cases)["passed"]


def test_close_follows_the_comparison_rule():
    assert close(0.1 + 0.2, 0.3)
    assert close(1.0000000004, 1.0)
    assert close(1e6 + 1e-4, 1e6)  # relative above 1
    assert not close(0.30001, 0.3)
    assert not close(float("nan"), 0.3)


def scaled(factor: float) -> str:
    """A right backward whose leaves' gradients come out multiplied by factor."""
    return (
        solutions.ITERATIVE + f"    for v in topo:\n        if not v._prev:\n            v.grad *= {factor}\n"
    )


def test_an_answer_off_by_1e_8_fails_and_one_within_1e_9_passes(cases):
    assert grade(scaled(1 + 1e-8), cases)["passed"] is False
    assert statuses(grade(scaled(1 + 1e-8), cases)) == {"neuron": False, "reuse": False, "chain": False}
    assert grade(scaled(1 + 3e-10), cases)["passed"] is True


SIZES = {"neuron": 10, "reuse": 5, "chain": 22}  # values in each graph


@pytest.mark.parametrize("wrong", list(SIZES))
def test_failing_any_one_expression_fails_the_verdict(cases, wrong):
    # right everywhere but on one expression's graph, told apart by its number of values
    source = solutions.ITERATIVE.replace(
        "    out.grad = 1\n", f"    out.grad = 1 if len(topo) != {SIZES[wrong]} else 0\n"
    )
    report = grade(source, cases)
    assert statuses(report) == {name: name != wrong for name in SIZES}
    assert report["passed"] is False and report["error"] is None
