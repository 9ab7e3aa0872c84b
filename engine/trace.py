"""One backward pass over one graph, read from what the watcher saw: what each value received and passed
on, and when. The diagnosis (diagnose.py) and the picture (picture.py) are written from it."""

import functools
import math

from engine.watch import Built, Call, formula_of, indexed

SHORT = {"+": "s", "*": "p", "tanh": "t"}  # long formulas get a short name: s1, p2, t3...
MAX_LABEL = 6  # characters: "x1·w1" stays a formula, "tanh(x·w)" becomes t1


class Trace:
    """A graph as built and the calls its values' _backward made, in order."""

    def __init__(self, built: Built, calls: list[Call]) -> None:
        self.values = built.values
        index = {id(v): i for i, v in enumerate(self.values)}
        self.out = index[id(built.out)]
        self.ops = built.ops
        self.named = {index[id(v)]: name for name, v in built.named.items()}  # h, u: as the formula says
        self.children = built.children
        n = len(self.values)
        self.calls = indexed(calls, self.values)  # each also with "received": what it had when it ran
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
