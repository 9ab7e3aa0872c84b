"""The reference backward and the expected gradients: used on the server only, never sent."""

from engine.cases import value_sets
from engine.fresh import fresh_engine


def backward(out) -> None:
    """Set out.grad to 1, then call every _backward in reverse topological order."""
    order, seen = [], set()
    stack = [(out, False)]
    while stack:  # iterative depth-first search: deep graphs do not hit the recursion limit
        v, expanded = stack.pop()
        if expanded:
            order.append(v)
        elif id(v) not in seen:
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((child, False) for child in v._prev)
    out.grad = 1.0
    for v in reversed(order):
        v._backward()


def graded_cases() -> list[dict]:
    """Return every value set with the gradients the reference backward gives for it."""
    engine = fresh_engine()
    engine["backward"] = backward
    cases = value_sets()
    for case in cases:
        case["expected"] = engine["grads_of"](case["expr"], case["values"], [0.0] * len(case["values"]))
    return cases
