"""Say in words why a backward pass went wrong, value by value, and describe its graph for the picture."""

import math

from engine.compare import close
from engine.errors import text
from engine.trace import Trace

MAX_PICTURE = 200  # values: a larger graph is explained in words only


def number(x: object) -> float | str:
    """Give a grad as JSON can carry it: a finite float, or its text (nan, inf, or not a number at all)."""
    if type(x) in (int, float):  # exactly: a subclass of the learner's may do anything in float()
        try:
            x = float(x)
        except OverflowError:  # an int beyond any float
            return text(x)
        return x if math.isfinite(x) else str(x)
    return text(x)


def same(got: object, expected: object) -> bool:
    """Compare by the grader's rule, treating anything that is not a number as different."""
    try:
        return close(got, expected)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - a learner's grad may raise anything when compared
        return False


def fmt(x: object) -> str:
    """Write a grad briefly, whatever the learner's code put there."""
    if type(x) in (int, float):
        try:
            return f"{x:g}"
        except OverflowError:
            pass
    return text(x)


def times(n: int) -> str:
    """Say how many times, in words for the small counts."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def diagnose(trace: Trace, names: list[str]) -> list[dict]:
    """List each thing the learner's backward did against the rule, naming the value it concerns."""
    found: list[dict] = []

    def say(kind: str, node: int | None, message: str) -> None:
        found.append({"kind": kind, "message": message, "node": node})

    out = trace.out
    first = {}  # each value's first _backward call
    for call in trace.calls:
        first.setdefault(call["node"], call)
    seed = first[out]["grad"] if out in first else trace.values[out].grad
    if same(seed, 0.0):
        say("out-grad", out, "out.grad was 0 when out passed its gradient on: set out.grad = 1 first.")
    elif not same(seed, 1.0):
        say("out-grad", out, f"out.grad was {fmt(seed)} when out passed its gradient on, not 1.")
    arriving = [0] * len(trace.values)  # contributions from the consumers that ran at all
    for node, kids in enumerate(trace.children):
        for k in kids if trace.runs[node] else ():
            arriving[k] += 1
    for node, call in first.items():
        uses, received = trace.uses[node], call["received"]
        if received < arriving[node]:  # a consumer ran after it: "never" speaks for those that did not
            got = (
                "before it had received any of it"
                if not received
                else f"after {received} of {uses} contributions"
            )
            say("early", node, f"{names[node]} (used {times(uses)}) passed its gradient on {got}.")
    for node, runs in enumerate(trace.runs):
        if runs > 1:
            say(
                "repeated",
                node,
                f"{names[node]}: its _backward ran {times(runs)}; each run passes its gradient on again.",
            )
    for node, kids in enumerate(trace.children):
        if kids and not trace.runs[node]:
            inputs = ", ".join(names[k] for k in dict.fromkeys(kids))
            say("never", node, f"{names[node]}: its _backward never ran, so {inputs} got nothing from it.")
    for node, value in enumerate(trace.values):
        if node != out and not same(value.grad, trace.given[node]):
            what = "the leaf " if not trace.children[node] else ""
            say(
                "direct",
                node,
                f"The gradient of {what}{names[node]} was changed directly (it is {fmt(value.grad)}, "
                f"the _backward calls gave it {fmt(trace.given[node])}).",
            )
    return found


def too_deep(trace: Trace, limit: int) -> dict:
    """Explain a RecursionError on a deep graph."""
    message = (
        f"This graph is {len(trace.values):,} values deep. A recursive search needs a frame per value, "
        f"more than Python allows ({limit:,}): keep a stack of your own in a loop instead."
    )
    return {"kind": "recursion", "message": message, "node": None}


def change(d: dict) -> dict:
    """Give one recorded change as JSON can carry it."""
    return {"node": d["node"], "before": number(d["before"]), "after": number(d["after"])}


def picture(trace: Trace, labelled: list[tuple[str, str | None]], expected: list | None) -> dict:
    """Describe the graph and the calls for the page's picture (one of at most MAX_PICTURE values)."""
    numbers = trace.call_numbers()
    start = trace.start or [v.grad for v in trace.values]  # no call ran: the grads as they are
    nodes = []
    for i, value in enumerate(trace.values):
        right = expected[i] if expected else None
        label, formula = labelled[i]
        nodes.append(
            {
                "id": i,
                "label": label,
                "formula": formula,
                "op": trace.ops[i],
                "children": trace.children[i],
                "data": number(value.data),
                "start": number(start[i]),
                "grad": number(value.grad),
                "expected": right,
                "wrong": right is not None and not same(value.grad, right),
                "calls": numbers[i],
            }
        )
    calls = [{"node": c["node"], "changes": [change(d) for d in c["changes"]]} for c in trace.calls]
    return {"out": trace.out, "nodes": nodes, "calls": calls}
