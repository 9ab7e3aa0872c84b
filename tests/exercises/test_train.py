"""The training loop (exercises/train), graded as a learner meets it: any right loop passes, whatever its
learning rate and number of steps within the statement's, even one whose loss rises on the way down;
what the engine measures is what each wrong loop gets wrong; a loop past the limit or a loss that blows
up is measured, not an error; and a plausible wrong loop no named mistake explains is named by none."""

import time
from functools import cache

import pytest

from engine.grade import grade
from server.exercises import grading
from server.exercises.folder import load
from server.exercises.registry import SHIPPED
from server.exercises.runs import fixed_cases

LEAVES = ["loss < 0.05", "loss fell", "grads 0", "new loss", "data moved", "against grad", "steps ≤ 30"]
RIGHT = [1.0] * 7


@cache
def served():
    """The exercise as the grader reads it, its reference's code and its fixed cases with the expected
    and each named mistake's numbers, as the server hands them to the page."""
    folder = load(SHIPPED / "train", own=True)
    exercise = grading.read(folder)
    cases = fixed_cases(folder)
    wrong = {key: grading.numbers(exercise, folder.code[f"mistakes/{key}.py"], cases) for key in folder.keys}
    expected = grading.numbers(exercise, folder.code["reference.py"], cases)
    for i, case in enumerate(cases):
        case["expected"] = expected[i]
        case["wrong"] = {key: got[i] for key, got in wrong.items()}
    return exercise, folder.code["reference.py"], cases


def loop(lr=0.05, steps=20, body=None) -> str:
    """A learner's train: the lecture's loop with their rate and number of steps, or their own body."""
    body = body or (
        "        L = loss(model, xs, ys)\n"
        "        model.zero_grad()\n"
        "        backward(L)\n"
        "        for p in model.parameters():\n"
        f"            p.data -= {lr} * p.grad\n"
    )
    return f"def train(model, xs, ys):\n    for _ in range({steps}):\n{body}"


def named(source: str) -> dict:
    """Each failing network's named mistake (None: no mistake), and each case's numbers."""
    exercise, _, cases = served()
    report = grade(exercise, source, cases)
    assert report["error"] is None, report["error"]
    failing = {
        e["name"]: e["mistake"] and e["mistake"]["kind"] for e in report["expressions"] if not e["passed"]
    }
    got = [c["got"] for e in report["expressions"] for c in e["cases"]]
    return {"passed": report["passed"], "failing": failing, "got": got}


def test_the_cases_numbers_are_flags_and_a_right_loop_gives_all_ones():
    _, _, cases = served()
    assert all(c["leaves"] == LEAVES for c in cases)
    assert all(c["expected"] == RIGHT for c in cases)


@pytest.mark.parametrize(("lr", "steps"), [(0.05, 20), (0.1, 25), (0.05, 30), (0.08, 22)])
def test_any_right_loop_within_the_statements_limits_passes(lr, steps):
    assert named(loop(lr, steps))["passed"], (lr, steps)


def test_a_loss_that_rises_on_the_way_down_still_passes():
    """The lecture's network of the worked example (seed 13) at a rate of 0.05: its loss rises on the way
    (as demo.ipynb's does), and the loop passes."""
    recording = loop(
        body=(
            "        L = loss(model, xs, ys)\n"
            "        seen.append(L.data)\n"
            "        model.zero_grad()\n"
            "        backward(L)\n"
            "        for p in model.parameters():\n"
            "            p.data -= 0.05 * p.grad\n"
        )
    )
    exercise, _, cases = served()
    example = next(c for c in cases if c["example"])
    namespace = {}
    exec(exercise.engine_source, namespace)  # the engine, as the learner's page shows it
    del namespace["train"]
    exec("seen = []\n" + recording, namespace)
    namespace["trained"](
        "lecture", example["inputs"]["xs"], example["inputs"]["ys"], example["inputs"]["seed"]
    )
    seen = namespace["seen"]
    assert any(b > a for a, b in zip(seen, seen[1:], strict=False)), seen  # it rises at least once
    assert seen[-1] < 0.05 < seen[0]
    assert named("seen = []\n" + recording)["passed"]


def test_the_engines_lecture_network_has_41_parameters():
    exercise, _, _ = served()
    namespace = {}
    exec(exercise.engine_source, namespace)
    assert len(namespace["MLP"](3, [4, 4, 1]).parameters()) == 41
    assert len(namespace["MLP"](2, [4, 1]).parameters()) == 17


def test_a_loop_past_the_limit_is_stopped_there_and_measured():
    started = time.perf_counter()
    result = named(loop(steps=100_000))
    assert time.perf_counter() - started < 30  # stopped at the 31st backward, not run 100 000 times
    assert not result["passed"] and set(result["failing"].values()) == {None}
    assert all(got == RIGHT[:6] + [0.0] for got in result["got"])  # it got there, in too many steps


def test_a_loss_that_blows_up_is_measured_not_an_error():
    result = named(loop(lr=5.0))  # OverflowError inside the loop: the loss past what a float holds
    assert set(result["failing"].values()) == {"lr-too-high"}
    assert all(got == [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0] for got in result["got"])


def test_clearing_the_grads_after_the_update_is_right_too():
    body = (
        "        L = loss(model, xs, ys)\n"
        "        backward(L)\n"
        "        for p in model.parameters():\n"
        "            p.data -= 0.05 * p.grad\n"
        "            p.grad = 0.0\n"
    )
    assert named(loop(body=body))["passed"]


@pytest.mark.parametrize(
    ("label", "body", "numbers"),
    [
        (  # zero_grad between backward and the update: nothing moves, and no named mistake says so
            "cleared before the update",
            "        L = loss(model, xs, ys)\n"
            "        backward(L)\n"
            "        model.zero_grad()\n"
            "        for p in model.parameters():\n"
            "            p.data -= 0.05 * p.grad\n",
            [0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0],
        ),
        (  # too few steps: the right way, not far enough (the third hint's case), not a rate too high
            "too few steps",
            None,
            [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        ),
    ],
)
def test_a_plausible_wrong_loop_no_mistake_explains_is_named_by_none(label, body, numbers):
    source = loop(steps=2) if body is None else loop(body=body)
    result = named(source)
    assert not result["passed"], label
    assert set(result["failing"].values()) == {None}, label
    assert all(got == numbers for got in result["got"]), (label, result["got"])
