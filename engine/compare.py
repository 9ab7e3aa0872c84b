"""The comparison rule design.md states, shared by the grader and the diagnosis."""

TOLERANCE = 1e-9
# 1e-9 has no exact binary value: two 9-digit roundings one unit apart differ by a hair more than it.
HAIR = 1 + 1e-6


def close(got: float, expected: float) -> bool:
    """Compare as design.md says: equal to 9 digits, or within 1e-9 (relative above 1)."""
    if round(got, 9) == round(expected, 9):
        return True
    return abs(got - expected) <= TOLERANCE * max(1.0, abs(expected)) * HAIR
