"""Say in words why a backward pass went wrong: value by value (the diagnosis), and the mistake behind it."""

from engine import report
from engine.compare import same
from engine.report import text
from engine.words import _, fill, ngettext, number

from .kinds import FINDINGS, MISTAKES
from .trace import Trace


def finding(kind: str, node: int | None, message: str) -> dict:
    """One line of the diagnosis, of one of the seed's kinds (kinds.FINDINGS)."""
    if kind not in FINDINGS:
        raise ValueError(f"not a kind of finding: {kind!r}")
    return report.finding(kind, node, message)


def named(kind: str, node: int | None, message: str) -> dict:
    """The mistake the diagnosis comes down to, of one of the seed's kinds (kinds.MISTAKES)."""
    if kind not in MISTAKES:
        raise ValueError(f"not a kind of mistake: {kind!r}")
    return report.mistake(kind, node, message)


def fmt(x: object) -> str:
    """Write a grad briefly, whatever the learner's code put there."""
    if type(x) in (int, float):
        try:
            return number(x, "g")
        except OverflowError:
            pass
    return text(x)


def times(n: int) -> str:
    """Say how many times, in words for the small counts."""
    return ngettext("once", "{n} times", n) if n != 2 else _("twice")


def diagnose(trace: Trace, names: list[str]) -> list[dict]:
    """List each thing the learner's backward did against the rule, naming the value it concerns."""
    found: list[dict] = []

    def say(kind: str, node: int | None, message: str) -> None:
        found.append(finding(kind, node, message))

    out = trace.out
    first = {}  # each value's first _backward call
    for call in trace.calls:
        first.setdefault(call["node"], call)
    if out in first:  # out's gradient when it passed it on (had it never run, "never" says so below)
        seed = first[out]["grad"]
        if same(seed, 0.0):
            say("out-grad", out, _("out.grad was 0 when out passed its gradient on: set out.grad = 1 first."))
        elif not same(seed, 1.0):
            say(
                "out-grad",
                out,
                _("out.grad was {grad} when out passed its gradient on, not 1.", grad=fmt(seed)),
            )
    arriving = [0] * len(trace.values)  # contributions from the consumers that ran at all
    for node, kids in enumerate(trace.children):
        for k in kids if trace.runs[node] else ():
            arriving[k] += 1
    for node, call in first.items():
        uses, received = trace.uses[node], call["received"]
        if received < arriving[node]:  # a consumer ran after it: "never" speaks for those that did not
            if not received:
                message = _(
                    "{value} (used {times}) passed its gradient on before it had received any of it.",
                    value=names[node],
                    times=times(uses),
                )
            else:
                message = ngettext(
                    "{value} (used {times}) passed its gradient on after {received} of {n} contribution.",
                    "{value} (used {times}) passed its gradient on after {received} of {n} contributions.",
                    uses,
                    value=names[node],
                    times=times(uses),
                    received=number(received),
                )
            say("early", node, message)
    for node, runs in enumerate(trace.runs):
        if runs > 1:
            say(
                "repeated",
                node,
                _(
                    "{value}: its _backward ran {times}; each run passes its gradient on again.",
                    value=names[node],
                    times=times(runs),
                ),
            )
    for node, kids in enumerate(trace.children):
        if kids and not trace.runs[node]:
            inputs = ", ".join(names[k] for k in dict.fromkeys(kids))
            message = _("{value}: its _backward never ran, so {inputs} got nothing from it.")
            say("never", node, message.replace("{value}", names[node]).replace("{inputs}", inputs))
    for node, value in enumerate(trace.values):
        if node != out and not same(value.grad, trace.given[node]):
            message = (
                _(
                    "The gradient of the leaf {value} was changed directly (it is {grad}, the _backward "
                    "calls gave it {given})."
                )
                if not trace.children[node]
                else _(
                    "The gradient of {value} was changed directly (it is {grad}, the _backward calls gave it "
                    "{given})."
                )
            )
            params = {"value": names[node], "grad": fmt(value.grad), "given": fmt(trace.given[node])}
            say("direct", node, fill(message, params))
    return found


def mistake(trace: Trace, names: list[str], found: list[dict]) -> dict:
    """Name the one mistake behind the findings, in the statement's words, at the value it shows best:
    the likeliest cause first (kinds.MISTAKES lists them in that order)."""
    first = {kind: next((f for f in found if f["kind"] == kind), None) for kind in FINDINGS}
    for kind in ("repeated", "never"):  # the one nearest out: the others follow from it
        first[kind] = min(
            (f for f in found if f["kind"] == kind), key=lambda f: trace.steps[f["node"]], default=None
        )
    if not trace.calls and not first["direct"]:
        if same(trace.values[trace.out].grad, 0.0):
            return named(
                "nothing",
                None,
                _(
                    "Your backward does nothing yet: no _backward() ran and out.grad is still 0. Set "
                    "out.grad = 1, then call _backward() on every value, from out back to the leaves."
                ),
            )
        return named(
            "never",
            trace.out,
            _(
                "No _backward() ran, so no gradient went further than out. After setting out.grad = 1, call "
                "_backward() on every value, starting with out."
            ),
        )
    if first["out-grad"]:
        return named("out-grad", trace.out, first["out-grad"]["message"])
    if leaves_first(trace):
        return named(
            "reversed",
            trace.out,
            _(
                "Your backward calls _backward() from the leaves towards out: out passed its gradient on "
                "last, when every other value had already passed on what they had (nothing yet). A list "
                "with each value after its inputs is the right order gone through backwards: reverse it "
                "(for v in reversed(topo)), so out goes first."
            ),
        )
    if found_ := first["direct"]:
        node = found_["node"]
        value = trace.values[node]
        return named(
            "direct",
            node,
            fill(
                _(
                    "Your code changes .grad itself: {value}.grad is {grad}, but the _backward() calls gave "
                    "it {given}. Set out.grad = 1 and no other gradient by hand: each _backward() adds (+=) "
                    "a share to its inputs' gradients, and a value used several times needs every share."
                ),
                {"value": names[node], "grad": fmt(value.grad), "given": fmt(trace.given[node])},
            ),
        )
    if found_ := first["repeated"]:
        node = found_["node"]
        more = sum(runs > 1 for runs in trace.runs) - 1
        also = ngettext(" (and {n} more value)", " (and {n} more values)", more) if more else ""
        said = _(
            "The _backward() of {value} ran {times}{also}, and each run passes its gradient on again. Call "
            "_backward() once per value: remember the values you have visited, in a set."
        )
        return named(
            "repeated",
            node,
            fill(said, {"value": names[node], "times": times(trace.runs[node]), "also": also}),
        )
    if found_ := first["early"]:
        node = found_["node"]
        call = next(c for c in trace.calls if c["node"] == node)
        near, far = trace.steps[node]
        paths = (
            fill(
                _(
                    " Here {value} reaches out by paths of {near} and of {far}: an order that takes values "
                    "as it meets them from out (level by level, say) runs it after the short path only."
                ),
                {"value": names[node], "near": steps(near), "far": steps(far)},
            )
            if near < far
            else ""
        )
        said = ngettext(
            "{value} passed its gradient on before it had all of it ({received} of its {n} share had "
            "come). Every value made from {value} must run its _backward() first: a list with each value "
            "after its inputs (a depth-first search), gone through backwards, does that.{paths}",
            "{value} passed its gradient on before it had all of it ({received} of its {n} shares had "
            "come). Every value made from {value} must run its _backward() first: a list with each value "
            "after its inputs (a depth-first search), gone through backwards, does that.{paths}",
            trace.uses[node],
            received=number(call["received"]),
        )
        return named("early", node, fill(said, {"value": names[node], "paths": paths}))
    if found_ := first["never"]:
        node = found_["node"]
        twin = next((k for k in range(len(trace.values)) if k != node and twin_of(trace, k, node)), None)
        twice = next((u for u, kids in enumerate(trace.children) if kids.count(node) > 1), None)
        if twin is not None:
            why = fill(
                _(
                    " {value} has the same data as {twin}, which did run: remember the values you visited by "
                    "the values themselves (a set of them), not by their data."
                ),
                {"value": names[node], "twin": names[twin]},
            )
        elif twice is not None:
            why = fill(
                _(
                    " {user} lists {value} twice in its _prev: where you count what a value waits for, count "
                    "its uses and take them off one use at a time, or count and take off its users."
                ),
                {"user": names[twice], "value": names[node]},
            )
        else:
            why = _(" Does your walk reach every value, through every value's _prev?")
        return named("never", node, found_["message"] + why)
    return named("wrong", None, _("The gradients are wrong, though every _backward() ran once, in order."))


def steps(n: float) -> str:
    """Say a path's length."""
    return ngettext("one step", "{n} steps", n) if n == int(n) else _("{n} steps", n=number(n, "g"))


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
    message = _(
        "This graph is {size} values deep. A recursive search needs a frame per value, more than Python "
        "allows ({limit}): keep a stack of your own in a loop instead.",
        size=number(len(trace.values)),
        limit=number(limit),
    )
    return finding("recursion", None, message)
