"""What the graphs that tell orders apart show of a learner's order: the report's `order`."""


def order(expressions: list[dict], err: dict | None) -> str | None:
    """Say what the graphs that tell orders apart show: "right", "wrong", "error" (the code raised on
    one, its gradients right on the others), or None where none was graded or the Check itself failed.

    The deep chain counts only when it is wrong for another reason than recursion depth: a recursive
    search is a right order.
    """
    if err is not None or not any(e["role"] == "order" for e in expressions):
        return None
    failing = [e for e in expressions if tells_order(e) and not e["passed"]]
    if not failing:
        return "right"
    return "wrong" if any(e.get("error") is None for e in failing) else "error"


def tells_order(expr: dict) -> bool:
    """Whether an expression's result says something of the order: the order graphs, and the lesson
    when a recursive search did not stop at Python's recursion limit on it."""
    return expr["role"] == "order" or (expr["role"] == "lesson" and not too_deep_for(expr))


def too_deep_for(expr: dict) -> bool:
    """Whether an expression failed only because a recursive search met Python's recursion limit."""
    return any(d["kind"] == "recursion" for d in expr["diagnosis"])
