"""The data of a graph's picture: every value with its grads, and the _backward calls step by step.

One builder for both pictures the page draws: an expression's value set (each value's right gradient
beside its own) and a scratch pad's draw(v) (no right gradients).
"""

from engine import report
from engine.compare import same

MAX_PICTURE = 200  # values: a larger graph is explained in words only


def picture(values: list, out: int, labelled: list, ops: list, children: list, calls: list, **graded) -> dict:
    """Describe a graph as report.graph(): its values (labelled: (label, formula) each), their inputs
    (children) and operations, and its calls ({"node", "grad", "changes": [{"node", "before", "after"}]}).

    graded: case (the value set's index) and expected (each value's right gradient), for a report's.
    """
    expected = graded.get("expected")
    numbers: list[list[int]] = [[] for _ in values]  # the 1-based numbers of each value's calls
    for n, call in enumerate(calls, 1):
        numbers[call["node"]].append(n)
    start = starts([v.grad for v in values], calls)
    nodes = []
    for i, value in enumerate(values):
        right = expected[i] if expected else None
        label, formula = labelled[i]
        wrong = right is not None and not same(value.grad, right)
        nodes.append(
            report.node(
                i,
                label,
                formula,
                ops[i],
                children[i],
                value.data,
                start[i],
                value.grad,
                right,
                wrong,
                numbers[i],
            )
        )
    moves = [
        report.call(c["node"], [report.change(d["node"], d["before"], d["after"]) for d in c["changes"]])
        for c in calls
    ]
    return report.graph(graded.get("case"), out, nodes, moves)


def starts(grads: list, calls: list[dict]) -> list:
    """Each value's grad before the calls first touched it (as the learner's code left it): the grad it
    had when it first ran, or an input's grad before the first call that changed it; a value no call
    touched keeps the grad it has now."""
    start = list(grads)
    touched: set[int] = set()
    for call in calls:
        if call["node"] not in touched:
            touched.add(call["node"])
            start[call["node"]] = call["grad"]
        for change in call["changes"]:
            if change["node"] not in touched:
                touched.add(change["node"])
                start[change["node"]] = change["before"]
    return start
