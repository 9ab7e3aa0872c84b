"""The reference backward and the expected gradients: server-only, outside engine/ (the browser's)."""

from engine.cases import value_sets
from engine.diagnose import MAX_PICTURE
from engine.fresh import fresh_engine
from engine.trace import watched_build


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
    """Return every value set with the gradients the reference gives its leaves and all its values."""
    engine = fresh_engine()
    engine["backward"] = backward
    cases = value_sets()
    for case in cases:
        leaves, out, made = watched_build(engine, engine["build"], case["expr"], case["values"])
        backward(out)
        case["expected"] = [round(v.grad, 9) for v in leaves]  # as grads_of rounds them
        if len(made) <= MAX_PICTURE:  # for the picture: every value's right gradient
            case["expected_nodes"] = [round(v.grad, 9) for v in made]
    return cases
