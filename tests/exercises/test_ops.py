"""ops (exercise 1): + and * of two Values, and of a Value and a number through __radd__/__rmul__ (a
number operand made a Value); graded as the page grades."""

import pytest

from tests.support.graded_folder import graded

CONSTANTS = ("2*a", "a+1", "1+a", "3*a*a")
TWO_VALUES = ("a*b", "a+a", "a*b+a", "a+b", "a*a")  # the groups learners' saved records name


@pytest.fixture(scope="module")
def ops():
    return graded("ops")


def grads(ops, source: str, name: str, values: list[float], g: float) -> list[float]:
    space: dict = {}
    exec(source, space)  # noqa: S102 - the exercise's own code
    exec(ops.folder.code["engine.py"], space)  # noqa: S102
    return space["grads_of"](name, values, g)


def test_a_number_is_a_constant_through_radd_and_rmul(ops):
    reference = ops.code("reference.py")
    assert grads(ops, reference, "2*a", [0.75], 1.5) == [3.0]  # 2 * g
    assert grads(ops, reference, "1+a", [1.3], 2.5) == [2.5]  # g
    assert grads(ops, reference, "a+1", [0.4], -1.5) == [-1.5]
    assert grads(ops, reference, "3*a*a", [0.6], 1.5) == [5.4]  # 6·a·g: a is used twice


def test_the_groups_of_two_values_come_first_as_records_name_them(ops):
    assert list(ops.exercise.groups) == [*TWO_VALUES, *CONSTANTS]


def test_plus_and_times_of_two_values_only_fail_the_constants_with_pythons_error(ops):
    """The code ops asked for before constants: right on two Values; a number's groups end in the error
    Python raises (no .data on a number, no __rmul__/__radd__), not a named mistake."""
    reference = ops.code("reference.py")
    old = reference.replace(
        "        other = other if isinstance(other, Value) else Value(other)  # a number becomes a Value\n",
        "",
    )
    old = old[: old.index("    def __radd__")].rstrip() + "\n"
    assert "__rmul__" not in old and "isinstance" not in old
    report = ops.report(old)
    said = {
        e["name"]: e.get("error") and e["error"]["message"] for e in report["expressions"] if not e["passed"]
    }
    assert set(said) == set(CONSTANTS)
    assert "TypeError: unsupported operand type(s) for *: 'int' and 'Value'" in said["2*a"]
    assert "TypeError: unsupported operand type(s) for +: 'int' and 'Value'" in said["1+a"]
    assert "AttributeError: 'int' object has no attribute 'data'" in said["a+1"]
    assert ops.failing(old) == dict.fromkeys(CONSTANTS)


def test_radd_that_recurses_is_said_as_a_recursion_error(ops):
    """micrograd #76: __radd__ as other + self asks the number again, which calls __radd__ again."""
    source = ops.code("reference.py").replace(
        "1 + v\n        return self + other", "1 + v\n        return other + self"
    )
    assert source != ops.code("reference.py")
    report = ops.report(source)
    failed = {e["name"]: e for e in report["expressions"] if not e["passed"]}
    assert list(failed) == ["1+a"] and "RecursionError" in failed["1+a"]["error"]["message"]


def test_each_named_mistake_is_named_on_the_constants_where_it_shows(ops):
    assert ops.failing(ops.code("mistakes/assign.py")) == dict.fromkeys(
        ("a+a", "a*b+a", "a*a", "3*a*a"), "assign"
    )
    swapped = ops.failing(ops.code("mistakes/swapped.py"))
    assert {g: swapped[g] for g in CONSTANTS if g in swapped} == {"2*a": "swapped", "3*a*a": "swapped"}
    assert ops.failing(ops.code("mistakes/no-chain.py")) == dict.fromkeys(
        [*TWO_VALUES, *CONSTANTS], "no-chain"
    )


def test_rmul_copied_from_radd_is_named_as_no_mistake(ops):
    """__rmul__ returning self + other (a slip from __radd__): wrong where a number multiplies, unnamed."""
    source = ops.code("reference.py").replace(
        "2 * v\n        return self * other", "2 * v\n        return self + other"
    )
    assert source != ops.code("reference.py")
    assert ops.failing(source) == {"2*a": None, "3*a*a": None}
