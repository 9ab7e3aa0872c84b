"""accumulate (exercise 6): the rule the statement states, through the engine and the reference: two
backward calls add on the leaves, zero_grad then backward equals one call, and accumulate over batches
equals one backward of their summed loss; and a plausible wrong solution no named mistake explains is
failed and named as none."""

import pytest

from tests.support.exercise_folders import SHIPPED
from tests.support.graded_exercise import engine_with, graded, named

REFERENCE = (SHIPPED / "accumulate" / "reference.py").read_text(encoding="utf-8")
B1 = {"xs": [[-0.5, 1.5]], "ys": [0.3]}
B2 = {"xs": [[1.2, 0.4], [0.7, -0.9]], "ys": [-0.6, 0.2]}


@pytest.fixture
def neuron_engine():
    return engine_with("accumulate", REFERENCE)


def grads_of(neuron_engine, batches, weights=(0.5, -0.3, 0.1)):
    """The grads of w1, w2, b after one backward per batch, from new parameters."""
    params = [neuron_engine["Value"](w) for w in weights]
    for batch in batches:
        neuron_engine["backward"](neuron_engine["loss"](params, batch["xs"], batch["ys"]))
    return params, [p.grad for p in params]


def test_two_backward_calls_add_on_the_leaves(neuron_engine):
    _, once = grads_of(neuron_engine, [B1])
    _, twice = grads_of(neuron_engine, [B1, B1])
    assert all(abs(g) > 0.01 for g in once)
    assert twice == pytest.approx([2 * g for g in once], abs=1e-12)


def test_zero_grad_then_backward_equals_one_call(neuron_engine):
    params, _ = grads_of(neuron_engine, [B2, B2])  # grads left by two earlier calls
    neuron_engine["zero_grad"](params)
    assert [p.grad for p in params] == [0.0, 0.0, 0.0]
    assert [p.data for p in params] == [0.5, -0.3, 0.1]  # only the grads cleared
    neuron_engine["backward"](neuron_engine["loss"](params, B1["xs"], B1["ys"]))
    assert [p.grad for p in params] == pytest.approx(grads_of(neuron_engine, [B1])[1], abs=1e-12)


def test_accumulate_equals_one_backward_of_the_summed_loss(neuron_engine):
    params, _ = grads_of(neuron_engine, [B2])  # they arrive with an earlier batch's grads
    neuron_engine["accumulate"](params, [B1, B2])
    summed = [neuron_engine["Value"](w) for w in (0.5, -0.3, 0.1)]
    loss = neuron_engine["loss"]
    neuron_engine["backward"](loss(summed, B1["xs"], B1["ys"]) + loss(summed, B2["xs"], B2["ys"]))
    assert [p.grad for p in params] == pytest.approx([p.grad for p in summed], abs=1e-12)


def test_the_reference_passes_and_an_average_of_the_batches_is_named_as_no_mistake():
    assert graded("accumulate", REFERENCE)["passed"] is True
    # gradient accumulation as some frameworks' recipes do it: the loss divided by the number of batches
    averaged = REFERENCE.replace(
        'backward(loss(params, batch["xs"], batch["ys"]))',
        'backward(loss(params, batch["xs"], batch["ys"]) / len(batches))',
    )
    assert averaged != REFERENCE
    report = graded("accumulate", averaged)
    assert report["passed"] is False and report["error"] is None
    assert named(report) == {"accumulate": None}  # zero_grad is right; no named mistake's numbers
