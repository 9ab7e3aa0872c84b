"""The numbers rule: which named mistake a group's wrong numbers show, read from the numbers alone.

An exercise names its mistakes, each with the code of a wrong solution; the server runs each one on every
case like the reference, and a case carries their numbers (`wrong`: key -> numbers, or None where it
raised). A group the learner fails is named by the first mistake, in the exercise's order, whose numbers
the learner's equal (by the exercise's tolerance) on every case of the group where that mistake's numbers
exist and differ from the expected ones, provided there is such a case; none: no named mistake.

Pure: the page's grader and the server (on the numbers its sandbox returned) run the same function on
the same numbers, so they agree by construction.
"""

from engine.compare import close


def equal(a: list | None, b: list | None, tolerance: tuple | None = None) -> bool:
    """Whether two cases' numbers are the same by the rule: both there, as long, each pair close (a
    number the report gives as text, nan or not a number at all, equals nothing)."""
    if a is None or b is None or len(a) != len(b):
        return False
    return all(
        type(x) in (int, float) and type(y) in (int, float) and close(x, y, tolerance)
        for x, y in zip(a, b, strict=True)
    )


def apart(wrong: list, expected: list[list], tolerance: tuple | None = None) -> list[int]:
    """The cases (indexes) where a mistake's numbers exist and differ from the expected ones."""
    return [i for i, w in enumerate(wrong) if w is not None and not equal(w, expected[i], tolerance)]


def named(
    got: list[list | None],
    expected: list[list],
    wrong: dict[str, list[list | None]],
    keys: list[str],
    tolerance: tuple | None = None,
) -> str | None:
    """Name one group's mistake by its numbers: got, expected and each mistake's numbers (wrong[key]) are
    per case of the group, in the same order; keys are the exercise's mistakes in its order. None where no
    mistake's numbers are the learner's (or the learner's are right)."""
    for key in keys:
        theirs = wrong.get(key)
        if theirs is None or len(theirs) != len(got):
            continue
        cases = apart(theirs, expected, tolerance)
        if cases and all(equal(got[i], theirs[i], tolerance) for i in cases):
            return key
    return None
