"""The numbers rule (engine/named.py): a failing group is named by the first mistake whose numbers the
learner's equal wherever that mistake's differ from the expected ones; a slip nobody named is not named."""

from engine.compare import tolerance_of
from engine.named import apart, equal, named

EXPECTED = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
WRONG = {
    "assign": [[1.0, 2.0], [3.0, 2.0], [5.0, 3.0]],  # right on the first case: it tells nothing there
    "no-chain": [[2.0, 2.0], [1.0, 1.0], [1.0, 1.0]],
}
KEYS = ["assign", "no-chain"]


def test_a_mistakes_numbers_name_it_on_the_cases_that_tell_it_apart_only():
    # On the first case assign gives the right numbers: the learner's may be anything there.
    got = [[9.0, 9.0], [3.0, 2.0], [5.0, 3.0]]
    assert apart(WRONG["assign"], EXPECTED) == [1, 2]
    assert named(got, EXPECTED, WRONG, KEYS) == "assign"


def test_a_slip_nobody_named_is_not_named():
    doubled = [[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]]
    assert named(doubled, EXPECTED, WRONG, KEYS) is None
    partly = [[1.0, 2.0], [3.0, 2.0], [5.0, 6.0]]  # assign's on one case, right on another it tells apart
    assert named(partly, EXPECTED, WRONG, KEYS) is None


def test_the_first_mistake_in_the_exercises_order_wins():
    same = {"first": [[0.0, 0.0]], "second": [[0.0, 0.0]]}
    assert named([[0.0, 0.0]], [[1.0, 1.0]], same, ["first", "second"]) == "first"
    assert named([[0.0, 0.0]], [[1.0, 1.0]], same, ["second", "first"]) == "second"


def test_a_mistake_that_raised_or_never_differs_names_nothing():
    raised = {"broke": [None, None, None]}
    assert named([None, None, None], EXPECTED, raised, ["broke"]) is None
    right = {"harmless": [list(e) for e in EXPECTED]}  # gives the right numbers: no case tells it apart
    assert named([[0.0, 0.0]] * 3, EXPECTED, right, ["harmless"]) is None


def test_a_mistake_is_named_where_its_run_raised_on_some_cases():
    wrong = {"assign": [None, [3.0, 2.0], None]}  # raised on two cases: only the middle one tells it apart
    assert named([[7.0, 7.0], [3.0, 2.0], None], EXPECTED, wrong, ["assign"]) == "assign"


def test_numbers_that_are_no_numbers_equal_nothing():
    wrong = {"nan": [["nan", 2.0]]}
    assert not equal(["nan", 2.0], ["nan", 2.0])
    assert named([["nan", 2.0]], [[1.0, 2.0]], wrong, ["nan"]) is None
    assert not equal([1.0], None) and not equal([1.0], [1.0, 2.0])


def test_the_exercises_tolerance_decides_what_is_equal():
    loose = tolerance_of({"digits": 3, "within": 1e-3})
    got, expected, wrong = [[1.0004]], [[2.0]], {"off": [[1.0]]}
    assert named(got, expected, wrong, ["off"]) is None  # by the default rule, 1.0004 is not 1.0
    assert named(got, expected, wrong, ["off"], loose) == "off"
