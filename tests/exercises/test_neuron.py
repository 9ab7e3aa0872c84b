"""neuron (exercise 2): tanh's _backward, from its output t and times out.grad, on the lecture's neuron
and on expressions where tanh's input is reused or its out.grad is not 1; graded as the page grades."""

import math

import pytest

from tests.support.graded_folder import graded

LECTURE = {"x1": 2.0, "x2": 0.0, "w1": -3.0, "w2": 1.0, "b": 6.8813735870195432}


@pytest.fixture(scope="module")
def neuron():
    return graded("neuron")


def run(neuron, source: str, name: str, values: list[float]):
    """The engine's build and backward(out) with source's Value: the leaves and out."""
    space: dict = {}
    exec(source, space)  # noqa: S102 - the exercise's own code
    exec(neuron.folder.code["engine.py"], space)  # noqa: S102
    leaves, out = space["build"](name, values)
    space["backward"](out)
    return leaves, out


def test_the_lectures_neuron_through_the_reference(neuron):
    leaves, out = run(neuron, neuron.code("reference.py"), "neuron", list(LECTURE.values()))
    grads = {name: leaf.grad for name, leaf in zip(LECTURE, leaves, strict=True)}
    assert round(out.data, 4) == 0.7071
    assert {k: round(g, 9) for k, g in grads.items()} == {
        "x1": -1.5,
        "w1": 1.0,
        "x2": 0.5,
        "w2": 0.0,
        "b": 0.5,
    }


def test_tanhs_local_gradient_is_its_outputs_times_out_grad_and_added(neuron):
    reference = neuron.code("reference.py")
    (a, b), _ = run(neuron, reference, "tanh(a)*b", [0.6, -2.0])
    t = math.tanh(0.6)
    assert a.grad == pytest.approx((1 - t * t) * -2.0) and b.grad == pytest.approx(t)
    (a,), _ = run(neuron, reference, "tanh(a)+a", [0.8])  # + gives a 1, tanh its own share
    assert a.grad == pytest.approx(1 + 1 - math.tanh(0.8) ** 2)


def test_the_example_alone_does_not_catch_a_missing_out_grad(neuron):
    """no-chain is right on the lecture's neuron (out.grad is 1 at its tanh) and on tanh(a)+a, and named
    where tanh's out.grad is not 1."""
    assert neuron.failing(neuron.code("mistakes/no-chain.py")) == {
        "tanh(a)*b": "no-chain",
        "tanh(tanh(a))": "no-chain",
    }
    assert neuron.failing(neuron.code("mistakes/assign.py")) == {"tanh(a)+a": "assign"}


def test_the_starter_fails_on_every_group_unnamed(neuron):
    report = neuron.report(neuron.code("starter.py"))
    assert report["error"] is None
    assert neuron.failing(neuron.code("starter.py")) == dict.fromkeys(neuron.exercise.groups)


def test_another_wrong_tanh_is_named_as_no_mistake(neuron):
    """1 - t where 1 - t² belongs: wrong everywhere, and none of the named mistakes."""
    source = neuron.code("reference.py").replace("(1 - t * t) * out.grad", "(1 - t) * out.grad")
    assert source != neuron.code("reference.py")
    assert neuron.failing(source) == dict.fromkeys(neuron.exercise.groups)
