"""Watch a backward pass: every value of the graph, every _backward call, what each value received."""

import functools
import math

from engine import extras
from engine.cases import role

OPS = {"__add__": "+", "__mul__": "*", "tanh": "tanh"}  # the engine method each _backward comes from
SHORT = {"+": "s", "*": "p", "tanh": "t"}  # long formulas get a short name: s1, p2, t3...
MAX_LABEL = 6  # characters: "x1·w1" stays a formula, "tanh(x·w)" becomes t1


def formula_of(op: str | None, inputs: list[str]) -> str | None:
    """Write the formula that made a value from its inputs' labels (None for a leaf)."""
    if op is None:
        return None
    return f"tanh({inputs[0]})" if op == "tanh" else (" + " if op == "+" else "·").join(inputs)


def op_of(backward) -> str:
    """Name the operation a value's own _backward comes from, by its qualified name."""
    parts = getattr(backward, "__qualname__", "").split(".")  # "Value.__add__.<locals>._backward"
    return OPS.get(parts[-3], "?") if len(parts) >= 3 else "?"


def watched_build(engine: dict, build, expr: str, vals: list, rows=None) -> tuple[list, object, list, dict]:
    """Build the graph, recording each value as it is made: inputs always come before their outputs.

    Returns the leaves, out, every value made, and the inner values the expression's formula names.
    rows: a graph given as data (engine/extras.py), for the graphs /verify draws.
    """
    value_class = engine["Value"]
    made: list = []
    init = value_class.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    value_class.__init__ = recording_init
    try:
        if role(expr) == "seed":
            leaves, out = build(expr, vals)
            named = {}
        else:
            leaves, out, named = extras.build(value_class, expr, vals, rows)
    finally:
        value_class.__init__ = init
    return leaves, out, made, named


class Trace:
    """One backward pass over a graph, watched through each value's _backward."""

    def __init__(self, values: list, out, named: dict | None = None) -> None:
        self.values = values
        index = {id(v): i for i, v in enumerate(values)}
        self.out = index[id(out)]
        self.named = {index[id(v)]: name for name, v in (named or {}).items()}  # h, u: as the formula says
        self.children = [[index[id(c)] for c in v._prev] for v in values]
        self.received = [0] * len(values)  # contributions passed on to each value so far
        self.given = [0.0] * len(values)  # gradient the _backward calls added to each value
        self.runs = [0] * len(values)  # how many times each value's _backward ran
        self.calls: list[dict] = []
        self.start: list[float] = []  # every grad just before the first call
        self.backwards = [v._backward for v in values]  # the engine's own, before they are watched
        for i, v in enumerate(values):
            if self.children[i]:
                v._backward = self.watch(i, v._backward)

    @functools.cached_property
    def ops(self) -> list[str | None]:
        """The operation that made each value (None for a leaf), as the graph was built: read only for a
        picture or labels, so learner code may have changed the values since."""
        return [op_of(b) if kids else None for b, kids in zip(self.backwards, self.children, strict=True)]

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

    def watch(self, i: int, backward):
        """Wrap one value's _backward so each call is recorded with what it changed."""
        values, kids = self.values, self.children[i]
        targets = list(dict.fromkeys(kids))

        def watched():
            if not self.calls:  # the grads as the learner's code left them before the first call
                self.start = [v.grad for v in values]
            call = {"node": i, "received": self.received[i], "grad": values[i].grad, "changes": []}
            self.calls.append(call)
            self.runs[i] += 1
            before = [values[k].grad for k in targets]
            try:
                backward()
            finally:
                if self.runs[i] == 1:  # a value passes on its share once; more runs add it again
                    for k in kids:
                        self.received[k] += 1
                for k, old in zip(targets, before, strict=True):
                    self.note(call, k, old, values[k].grad)

        return watched

    def note(self, call: dict, k: int, old, new) -> None:
        """Record what a call changed in one input's grad (whatever the learner made that grad)."""
        try:
            if new != old:
                self.given[k] += new - old
                call["changes"].append({"node": k, "before": old, "after": new})
        except Exception:  # noqa: BLE001 - not numbers: the engine's own error says what went wrong
            pass

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
            inputs = [names[k] for k in self.children[i]]
            formula = formula_of(op, inputs)
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

    def call_numbers(self) -> list[list[int]]:
        """For each value, the 1-based numbers of its _backward calls."""
        numbers: list[list[int]] = [[] for _ in self.values]
        for n, call in enumerate(self.calls, 1):
            numbers[call["node"]].append(n)
        return numbers
