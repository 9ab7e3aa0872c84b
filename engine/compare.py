"""The comparison rule, shared by the grader, the numbers rule (named.py) and /verify: a number is right
when it equals the expected one rounded to an exercise's digits, or is within its tolerance of it
(relative above a size), since right code may add the same terms in another order.

An exercise's descriptor may give its own tolerance ({"digits", "within", "relative_above"}); without one,
the defaults below: 9 digits, within 1e-9, relative above 1. It is decided here only: the report carries
each number's mark (`right`), which the page shows.
"""

DIGITS = 9
TOLERANCE = 1e-9
RELATIVE_ABOVE = 1.0
# 1e-9 has no exact binary value: two 9-digit roundings one unit apart differ by a hair more than it.
HAIR = 1 + 1e-6


def tolerance_of(given: dict | None) -> tuple[int, float, float]:
    """An exercise's tolerance as (digits, within, relative_above), the defaults where it says nothing."""
    given = given or {}
    return (
        int(given.get("digits", DIGITS)),
        float(given.get("within", TOLERANCE)),
        float(given.get("relative_above", RELATIVE_ABOVE)),
    )


def close(got: float, expected: float, tolerance: tuple | None = None) -> bool:
    """Compare by the rule: equal rounded to the digits, or within the tolerance (relative above a size)."""
    digits, within, above = tolerance or (DIGITS, TOLERANCE, RELATIVE_ABOVE)
    if round(got, digits) == round(expected, digits):
        return True
    return abs(got - expected) <= within * max(above, abs(expected)) * HAIR


def outputs_right(got: list, expected: list[float], tolerance: tuple | None = None) -> list[bool]:
    """Mark each number: a float close to the expected one. A case passes when all are."""
    return [type(g) is float and close(g, e, tolerance) for g, e in zip(got, expected, strict=True)]


def same(got: object, expected: object, tolerance: tuple | None = None) -> bool:
    """Compare by the rule, treating anything that is not a number as different."""
    try:
        return close(got, expected, tolerance)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - a learner's grad may raise anything when compared
        return False
