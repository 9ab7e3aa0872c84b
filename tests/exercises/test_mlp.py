"""mlp (exercise 7): what a learner notices of Neuron, Layer, MLP and parameters(), through the engine
and the reference: MLP(3, [4, 4, 1]) has 41 parameters, micrograd's demo's MLP(2, [16, 16, 1]) 337, the
same Values at every call, the weights set in parameters()' order computing the network by hand, its
last layer linear; the grade never depends on the random weights; and a plausible wrong solution no named
mistake explains is failed and named as none."""

import math

import pytest

from tests.support.exercise_folders import SHIPPED
from tests.support.graded_exercise import engine_with, graded, named

REFERENCE = (SHIPPED / "mlp" / "reference.py").read_text(encoding="utf-8")


@pytest.fixture
def mlp_engine():
    return engine_with("mlp", REFERENCE)


def test_an_mlp_has_a_weight_per_input_and_a_bias_per_neuron(mlp_engine):
    mlp = mlp_engine["MLP"]
    assert len(mlp(3, [4, 4, 1]).parameters()) == 41  # 4·(3+1) + 4·(4+1) + 1·(4+1)
    assert len(mlp(2, [16, 16, 1]).parameters()) == 337  # micrograd's demo.ipynb
    assert mlp_engine["counted"]("count", [4, 4, 1], 3) == [16, 20, 5]


def test_parameters_are_the_same_values_at_every_call(mlp_engine):
    model = mlp_engine["MLP"](2, [3, 1])
    first = model.parameters()
    model([0.5, -1.0])
    assert all(a is b for a, b in zip(first, model.parameters(), strict=True))
    assert (
        mlp_engine["counted"]("same", [3, 3, 1], 2)
        == mlp_engine["counted"]("count", [3, 3, 1], 2)
        == [9, 12, 4]
    )


def test_the_weights_go_in_parameters_order_and_the_last_layer_is_linear(mlp_engine):
    w11, b1, w21, b2, wo1, wo2, bo = 0.5, -0.3, -0.8, 0.2, 2.5, -1.5, 0.4
    weights = [w11, b1, w21, b2, wo1, wo2, bo]  # each neuron's w, then its b, layer by layer
    xs = [-1.5, 0.5, 2.0]
    by_hand = [wo1 * math.tanh(w11 * x + b1) + wo2 * math.tanh(w21 * x + b2) + bo for x in xs]
    got = mlp_engine["outputs"](xs, [2, 1], weights)
    assert got == pytest.approx(by_hand, abs=1e-9)
    assert max(abs(y) for y in got) > 1  # no tanh at the end: the output is not held in (-1, 1)


def test_the_random_initial_weights_never_change_the_grade():
    drawn_otherwise = {  # other draws, in another number: micrograd's own bias is Value(0)
        "gauss": REFERENCE.replace("random.uniform(-1, 1)", "random.gauss(0, 1)"),
        "bias 0": REFERENCE.replace("self.b = Value(random.uniform(-1, 1))", "self.b = Value(0)"),
    }
    for label, source in drawn_otherwise.items():
        assert source != REFERENCE, label
        assert graded("mlp", source)["passed"] is True, label


def test_the_starter_fails_and_a_bias_given_before_the_weights_is_named_as_no_mistake():
    assert graded("mlp", (SHIPPED / "mlp" / "starter.py").read_text(encoding="utf-8"))["passed"] is False
    bias_first = REFERENCE.replace("return self.w + [self.b]", "return [self.b] + self.w")
    assert bias_first != REFERENCE
    report = graded("mlp", bias_first)
    assert report["passed"] is False and report["error"] is None
    assert named(report) == {"forward": None}  # counted right, the same Values; set in another order
