"""One backward pass over one graph, read from what the watcher saw: what each value received and passed
on, and when. The diagnosis (diagnose.py) and the picture (engine/picture.py) are written from it.

/verify's sandbox hands a pass back as plain data (plain(): JSON, each number as report.number gives
it), and the server reads it again with from_plain(), which checks its shape first (the learner's code
may have written anything there), to diagnose it outside the sandbox.
"""

import functools
import math

from engine import report
from engine.watch import Built, Call, formula_of, indexed

SHORT = {"+": "s", "*": "p", "tanh": "t"}  # long formulas get a short name: s1, p2, t3...
MAX_LABEL = 6  # characters: "x1·w1" stays a formula, "tanh(x·w)" becomes t1


class Trace:
    """A graph as built and the calls its values' _backward made, in order."""

    def __init__(self, built: Built, calls: list[Call]) -> None:
        index = {id(v): i for i, v in enumerate(built.values)}
        named = {index[id(v)]: name for name, v in built.named.items()}  # h, u: as the formula says
        self.read(
            built.values, index[id(built.out)], built.ops, named, built.children, indexed(calls, built.values)
        )

    def read(self, values: list, out: int, ops: list, named: dict, children: list, calls: list[dict]) -> None:
        """Take in a graph's values (anything with data and grad), out, each value's operation, names and
        inputs, and its calls (watch.indexed's)."""
        self.values, self.out, self.ops, self.named, self.children = values, out, ops, named, children
        n = len(self.values)
        self.calls = calls  # each also with "received": what it had when it ran
        self.runs = [0] * n  # how many times each value's _backward ran
        self.given = [0.0] * n  # gradient the _backward calls added to each value
        received = [0] * n  # contributions passed on to each value so far
        for call in self.calls:
            i = call["node"]
            call["received"] = received[i]
            self.runs[i] += 1
            if self.runs[i] == 1:  # a value passes on its share once; more runs add it again
                for k in self.children[i]:
                    received[k] += 1
            for change in call["changes"]:
                try:
                    self.given[change["node"]] += change["after"] - change["before"]
                except Exception:  # noqa: BLE001 - not numbers: the engine's own error says what went wrong
                    pass

    @functools.cached_property
    def uses(self) -> list[int]:
        """How many times each value is an input (a·a counts twice): read only for a diagnosis."""
        uses = [0] * len(self.values)
        for kids in self.children:
            for k in kids:
                uses[k] += 1
        return uses

    @functools.cached_property
    def steps(self) -> list[tuple[float, float]]:
        """Each value's steps to out, by its shortest path and its longest (inf: it does not reach out)."""
        near = [math.inf] * len(self.values)
        far = [-math.inf] * len(self.values)
        near[self.out] = far[self.out] = 0
        for node in range(len(self.values) - 1, -1, -1):  # made after their inputs: users come later
            for k in self.children[node] if near[node] < math.inf else ():
                near[k] = min(near[k], near[node] + 1)
                far[k] = max(far[k], far[node] + 1)
        return list(zip(near, far, strict=True))

    def labelled(self, leaf_names: list[str]) -> list[tuple[str, str | None]]:
        """Name every value with its formula: leaves by name, short formulas as such, others s1, p1, t1..."""
        names: list[str] = []
        formulas: list[str | None] = []
        counts = dict.fromkeys(SHORT, 0)
        for i, op in enumerate(self.ops):
            if op is None:
                names.append(leaf_names[i] if i < len(leaf_names) else f"v{i}")
                formulas.append(None)
                continue
            formula = formula_of(op, [names[k] for k in self.children[i]])
            formulas.append(formula)
            if i == self.out:
                names.append("out")
            elif i in self.named:
                names.append(self.named[i])
            elif len(formula) <= MAX_LABEL or op not in SHORT:
                names.append(formula)
            else:
                counts[op] += 1
                names.append(f"{SHORT[op]}{counts[op]}")
        return list(zip(names, formulas, strict=True))


MAX_VALUES = 256  # values of a graph the sandbox hands back a pass of (the graded ones have at most 40)
MAX_CALLS = 2000  # _backward calls of one graph it hands back (more: that value set's pass is not sent)
OPERATIONS = ("+", "*", "tanh", "?")


def plain(built: Built, calls: list[Call]) -> dict | None:
    """One graph's pass as JSON: out, each value's operation, inputs, data and grad, the names its formula
    gives, and each _backward call; None for a graph too big to send."""
    found = indexed(calls, built.values)
    if len(built.values) > MAX_VALUES or len(found) > MAX_CALLS:
        return None
    index = {id(v): i for i, v in enumerate(built.values)}
    number = report.number
    return {
        "out": index[id(built.out)],
        "ops": built.ops,
        "children": built.children,
        "named": {name: index[id(v)] for name, v in built.named.items()},
        "data": [number(getattr(v, "data", None)) for v in built.values],
        "grads": [number(getattr(v, "grad", None)) for v in built.values],
        "calls": [
            {
                "node": c["node"],
                "grad": number(c["grad"]),
                "changes": [[m["node"], number(m["before"]), number(m["after"])] for m in c["changes"]],
            }
            for c in found
        ],
    }


class Seen:
    """A value as a plain pass gives it: its data and grad (numbers, or text for what was not one)."""

    __slots__ = ("data", "grad")

    def __init__(self, data: float | str, grad: float | str) -> None:
        self.data, self.grad = data, grad


def from_plain(data: object) -> Trace:
    """The Trace of a plain pass (plain()'s), its shape checked first: ValueError when it is not one."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    ops, children, named = data.get("ops"), data.get("children"), data.get("named")
    datas, grads, calls, out = data.get("data"), data.get("grads"), data.get("calls"), data.get("out")
    if not (isinstance(ops, list) and 0 < len(ops) <= MAX_VALUES):
        raise ValueError("no list of values' operations")
    n = len(ops)
    if not all(lists(x, n) for x in (children, datas, grads)) or not isinstance(named, dict):
        raise ValueError("no list of each value's inputs, data and grad")
    if not all(op is None or op in OPERATIONS for op in ops) or not index(out, n):
        raise ValueError("an operation or out that is none")
    for node, kids in enumerate(children):  # made after their inputs, as the watcher lists them
        if (
            not isinstance(kids, list)
            or not all(index(k, node) for k in kids)
            or (ops[node] is None) != (not kids)
        ):
            raise ValueError(f"value {node}'s inputs are not values made before it")
    if not all(isinstance(k, str) and index(v, n) for k, v in named.items()):
        raise ValueError("a name that names no value")
    if not all(plain_number(x) for x in (*datas, *grads)):
        raise ValueError("a value's data or grad that is neither a number nor a short text")
    if not (isinstance(calls, list) and len(calls) <= MAX_CALLS):
        raise ValueError("no list of calls")
    read = []
    for call in calls:
        if not (isinstance(call, dict) and index(call.get("node"), n) and plain_number(call.get("grad"))):
            raise ValueError("a call of no value")
        changes = call.get("changes")
        if not (isinstance(changes, list) and all(change(m, n) for m in changes)):
            raise ValueError("a call's changes are not (value, before, after)")
        moved = [{"node": k, "before": before, "after": after} for k, before, after in changes]
        read.append({"node": call["node"], "grad": call["grad"], "changes": moved})
    trace = Trace.__new__(Trace)
    values = [Seen(d, g) for d, g in zip(datas, grads, strict=True)]
    trace.read(values, out, ops, {v: k for k, v in named.items()}, children, read)
    return trace


def lists(value: object, n: int) -> bool:
    return isinstance(value, list) and len(value) == n


def index(value: object, n: int) -> bool:
    """Whether value indexes one of n values."""
    return type(value) is int and 0 <= value < n


def plain_number(value: object) -> bool:
    """A number as report.number gives it: a finite float (or an int), or a short text."""
    if type(value) is str:
        return len(value) <= 128
    return type(value) in (int, float) and math.isfinite(value)


def change(value: object, n: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and index(value[0], n)
        and all(map(plain_number, value[1:]))
    )
