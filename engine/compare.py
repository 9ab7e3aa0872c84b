"""The comparison rule, shared by the grader, the diagnosis and /verify: a gradient is right when it
equals the expected one to 9 digits, or is within 1e-9 of it (relative above 1), since correct orders may
add the same terms in another order.

It is decided here only: the report carries each leaf's mark (`right`), which the page shows.
"""

TOLERANCE = 1e-9
# 1e-9 has no exact binary value: two 9-digit roundings one unit apart differ by a hair more than it.
HAIR = 1 + 1e-6


def close(got: float, expected: float) -> bool:
    """Compare by the rule: equal to 9 digits, or within 1e-9 (relative above 1)."""
    if round(got, 9) == round(expected, 9):
        return True
    return abs(got - expected) <= TOLERANCE * max(1.0, abs(expected)) * HAIR


def leaves_right(got: list, expected: list[float]) -> list[bool]:
    """Mark each leaf's gradient: a number close to the expected one. A case passes when all are."""
    return [type(g) is float and close(g, e) for g, e in zip(got, expected, strict=True)]


def same(got: object, expected: object) -> bool:
    """Compare by the rule, treating anything that is not a number as different."""
    try:
        return close(got, expected)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - a learner's grad may raise anything when compared
        return False
