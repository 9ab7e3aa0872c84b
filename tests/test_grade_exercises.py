"""The general grader on two exercises that are not the seed's (exercises/ops, where the learner writes
Value's _backward of + and *, and exercises/step, one gradient-descent step): their call and tolerance
read from the descriptor, their mistakes named by their numbers, in CPython."""

from functools import cache

import pytest

from engine.descriptor import read
from engine.grade import grade
from engine.outputs import compute
from server.exercises import grading, languages
from server.exercises.folder import Exercise, load
from server.exercises.registry import SHIPPED
from server.exercises.runs import fixed_cases

# Other code learners write, and what the rule names it: None, nothing.
OTHERS = {
    "ops": {
        "= in + only": (
            lambda ref: ref.replace("self.grad += out.grad", "self.grad = out.grad").replace(
                "other.grad += out.grad", "other.grad = out.grad"
            ),
            "assign",
        ),
        "* doubled": (lambda ref: ref.replace("* out.grad", "* out.grad * 2"), None),
        "* passes out.grad on as + does": (
            lambda ref: ref.replace("self.grad += other.data * out.grad", "self.grad += out.grad").replace(
                "other.grad += self.data * out.grad", "other.grad += out.grad"
            ),
            None,
        ),
    },
    "step": {
        "value ops": (
            lambda ref: ref.replace("p.data -= lr * p.grad", "p = p + Value(-lr * p.grad)"),
            "grad-not-data",
        ),
        "no lr": (lambda ref: ref.replace("p.data -= lr * p.grad", "p.data -= p.grad"), None),
        "data for grad": (lambda ref: ref.replace("p.data -= lr * p.grad", "p.data -= lr * p.data"), None),
    },
}


def trusted(exercise, source: str, cases: list[dict]) -> list:
    """Each case's numbers with source as the learner's code (the server's trusted run, in the tests)."""
    result = compute(exercise, source, cases)
    assert result["error"] is None, result["error"]
    return result["got"]


@cache
def shipped(id_: str) -> Exercise:
    """A shipped exercise's folder, read with its words in every language it lists."""
    folder = load(SHIPPED / id_, own=True)
    complaints, _ = languages.check(folder, [])
    assert not complaints, complaints
    return folder


@pytest.fixture(scope="module", params=["ops", "step"])
def served(request):
    """An exercise read from its folder's descriptor, and its fixed cases with their expected and wrong
    numbers; its code (reference, starter, named mistakes) and English words beside."""
    folder = shipped(request.param)
    exercise = grading.read(folder)
    reference, starter = folder.code["reference.py"], folder.code["starter.py"]
    mistakes = {key: folder.code[f"mistakes/{key}.py"] for key in folder.keys}
    cases = fixed_cases(folder)
    expected = trusted(exercise, reference, cases)
    wrong = {key: trusted(exercise, code, cases) for key, code in mistakes.items()}
    for i, case in enumerate(cases):
        case["expected"] = expected[i]
        case["wrong"] = {key: numbers[i] for key, numbers in wrong.items()}
    return exercise, cases, reference, starter, mistakes


def failing(report: dict) -> dict[str, str | None]:
    """Each failing group's named mistake (None: none named)."""
    return {
        e["name"]: e["mistake"] and e["mistake"]["kind"] for e in report["expressions"] if not e["passed"]
    }


def test_the_reference_passes_and_the_starter_does_not(served):
    exercise, cases, reference, starter, _ = served
    report = grade(exercise, reference, cases)
    assert report["passed"] is True and report["error"] is None and report["order"] is None
    assert [e["name"] for e in report["expressions"]] == list(exercise.groups)
    started = grade(exercise, starter, cases)
    assert started["passed"] is False
    if exercise.id == "ops":  # its __rmul__/__radd__ are left to write: 2*a is Python's TypeError
        assert "unsupported operand type(s) for *: 'int' and 'Value'" in started["error"]["message"]
    else:
        assert started["error"] is None
    # ops' starter passes nothing on (no mistake's numbers); step's changes nothing: grad-not-data's
    assert set(failing(started).values()) == ({None} if exercise.id == "ops" else {"grad-not-data"})


def test_each_wrong_solution_is_named_as_itself_with_its_words(served):
    exercise, cases, _, _, mistakes = served
    words = shipped(exercise.id).words["en"]
    for key, code in mistakes.items():
        report = grade(exercise, code, cases)
        assert report["passed"] is False
        assert failing(report) and set(failing(report).values()) == {key}, key
        said = {e["mistake"]["message"] for e in report["expressions"] if not e["passed"]}
        assert said == {words["mistakes"][key]["says"]}, key


def test_other_code_is_named_only_for_a_mistake_it_makes(served):
    exercise, cases, reference, _, _ = served
    for label, (change, key) in OTHERS[exercise.id].items():
        source = change(reference)
        assert source != reference, label
        report = grade(exercise, source, cases)
        assert report["passed"] is False, label
        assert set(failing(report).values()) == {key}, label


def test_the_numbers_are_marked_by_the_descriptors_tolerance(served):
    exercise, cases, reference, _, _ = served
    nudged = [dict(c, expected=[x + 1e-4 for x in c["expected"]]) for c in cases]
    assert grade(exercise, reference, nudged)["passed"] is False
    loose = read(dict(exercise.data, tolerance={"digits": 2, "within": 1e-3}), exercise.engine_source)
    assert grade(loose, reference, nudged)["passed"] is True


def test_a_missing_name_is_said_as_the_learner_writes_it(served):
    exercise, cases, _, _, _ = served
    message = grade(exercise, "x = 1\n", cases)["error"]["message"]
    # ops' engine has no Value of its own; step's has a step(model, xs, ys, lr) to replace
    assert (
        message
        == {
            "ops": "Your code defines no Value.",
            "step": "Your code defines no function step(model, xs, ys, lr).",
        }[exercise.id]
    )


def test_the_sandboxs_compute_gives_the_same_numbers_as_a_check(served):
    exercise, cases, reference, _, mistakes = served
    key = next(iter(mistakes))
    sent = [{k: c[k] for k in ("group", "leaves", "inputs", "example", "extra")} for c in cases]
    result = compute(exercise, mistakes[key], sent)
    assert result["data"] == [None] * len(cases)  # no plugin: no data beside the numbers
    checked = grade(exercise, mistakes[key], cases)
    got = [c["got"] for e in checked["expressions"] for c in e["cases"]]
    by_group = [
        r for g in exercise.groups for r, c in zip(result["got"], cases, strict=True) if c["group"] == g
    ]
    assert got == by_group
