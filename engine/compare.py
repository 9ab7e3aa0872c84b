"""The comparison rule design.md states, shared by the grader and the diagnosis."""


def close(got: float, expected: float) -> bool:
    """Compare as design.md says: equal to 9 digits, or within 1e-9 (relative above 1)."""
    if round(got, 9) == round(expected, 9):
        return True
    return abs(got - expected) <= 1e-9 * max(1.0, abs(expected))
