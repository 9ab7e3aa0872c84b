"""Say in words why a backward pass went wrong: value by value (the diagnosis), and the mistake behind it."""

from engine import report
from engine.compare import same
from engine.report import text
from engine.trace import Trace


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
        found.append(report.finding(kind, node, message))

    out = trace.out
    first = {}  # each value's first _backward call
    for call in trace.calls:
        first.setdefault(call["node"], call)
    if out in first:  # out's gradient when it passed it on (had it never run, "never" says so below)
        seed = first[out]["grad"]
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


# The mistakes, the likeliest cause first: the one named is the first kind found in this order.
MISTAKES = ("out-grad", "reversed", "direct", "repeated", "early", "never")


def mistake(trace: Trace, names: list[str], found: list[dict]) -> dict:
    """Name the one mistake behind the findings, in the statement's words, at the value it shows best."""
    first = {kind: next((f for f in found if f["kind"] == kind), None) for kind in MISTAKES}
    for kind in ("repeated", "never"):  # the one nearest out: the others follow from it
        first[kind] = min(
            (f for f in found if f["kind"] == kind), key=lambda f: trace.steps[f["node"]], default=None
        )
    if not trace.calls and not first["direct"]:
        if same(trace.values[trace.out].grad, 0.0):
            return report.mistake(
                "nothing",
                None,
                "Your backward does nothing yet: no _backward() ran and out.grad is still 0. Set "
                "out.grad = 1, then call _backward() on every value, from out back to the leaves.",
            )
        return report.mistake(
            "never",
            trace.out,
            "No _backward() ran, so no gradient went further than out. After setting out.grad = 1, call "
            "_backward() on every value, starting with out.",
        )
    if first["out-grad"]:
        return report.mistake("out-grad", trace.out, first["out-grad"]["message"])
    if leaves_first(trace):
        return report.mistake(
            "reversed",
            trace.out,
            "Your backward calls _backward() from the leaves towards out: out passed its gradient on "
            "last, when every other value had already passed on what they had (nothing yet). A list "
            "with each value after its inputs is the right order gone through backwards: reverse it "
            "(for v in reversed(topo)), so out goes first.",
        )
    if found_ := first["direct"]:
        node = found_["node"]
        value = trace.values[node]
        return report.mistake(
            "direct",
            node,
            f"Your code changes .grad itself: {names[node]}.grad is {fmt(value.grad)}, but the _backward() "
            f"calls gave it {fmt(trace.given[node])}. Set out.grad = 1 and no other gradient by hand: each "
            "_backward() adds (+=) a share to its inputs' gradients, and a value used several times needs "
            "every share.",
        )
    if found_ := first["repeated"]:
        node = found_["node"]
        more = sum(runs > 1 for runs in trace.runs) - 1
        also = f" (and {more} more value{'s' if more > 1 else ''})" if more else ""
        return report.mistake(
            "repeated",
            node,
            f"The _backward() of {names[node]} ran {times(trace.runs[node])}{also}, and each run passes "
            "its gradient on again. Call _backward() once per value: remember the values you have "
            "visited, in a set.",
        )
    if found_ := first["early"]:
        node = found_["node"]
        call = next(c for c in trace.calls if c["node"] == node)
        near, far = trace.steps[node]
        paths = (
            f" Here {names[node]} reaches out by paths of {steps(near)} and of {steps(far)}: an order "
            "that takes values as it meets them from out (level by level, say) runs it after the short "
            "path only."
            if near < far
            else ""
        )
        return report.mistake(
            "early",
            node,
            f"{names[node]} passed its gradient on before it had all of it ({call['received']} of its "
            f"{trace.uses[node]} shares had come). Every value made from {names[node]} must run its "
            "_backward() first: a list with each value after its inputs (a depth-first search), gone "
            f"through backwards, does that.{paths}",
        )
    if found_ := first["never"]:
        node = found_["node"]
        twin = next((k for k in range(len(trace.values)) if k != node and twin_of(trace, k, node)), None)
        twice = next((u for u, kids in enumerate(trace.children) if kids.count(node) > 1), None)
        if twin is not None:
            why = (
                f" {names[node]} has the same data as {names[twin]}, which did run: remember the values "
                "you visited by the values themselves (a set of them), not by their data."
            )
        elif twice is not None:
            why = (
                f" {names[twice]} lists {names[node]} twice in its _prev: where you count what a value "
                "waits for, count its uses and take them off one use at a time, or count and take off "
                "its users."
            )
        else:
            why = " Does your walk reach every value, through every value's _prev?"
        return report.mistake("never", node, found_["message"] + why)
    return report.mistake(
        "wrong", None, "The gradients are wrong, though every _backward() ran once, in order."
    )


def steps(n: float) -> str:
    """Say a path's length."""
    return "one step" if n == 1 else f"{n:g} steps"


def twin_of(trace: Trace, k: int, node: int) -> bool:
    """Whether inner value k ran and holds the same data as node: remembered by data, they are one."""
    if not (trace.children[k] and trace.runs[k]):
        return False
    try:
        return bool(trace.values[k].data == trace.values[node].data)
    except Exception:  # noqa: BLE001 - whatever the learner made of data
        return False


def leaves_first(trace: Trace) -> bool:
    """Whether the _backward calls ran from the leaves towards out: each after its inputs', out last."""
    if len(trace.calls) < 2 or trace.calls[-1]["node"] != trace.out or trace.runs[trace.out] != 1:
        return False
    done: set[int] = set()
    for call in trace.calls:
        if any(trace.children[k] and trace.runs[k] and k not in done for k in trace.children[call["node"]]):
            return False
        done.add(call["node"])
    return True


def too_deep(trace: Trace, limit: int) -> dict:
    """Explain a RecursionError on a deep graph."""
    message = (
        f"This graph is {len(trace.values):,} values deep. A recursive search needs a frame per value, "
        f"more than Python allows ({limit:,}): keep a stack of your own in a loop instead."
    )
    return report.finding("recursion", None, message)
