"""draw(v) in the scratch pad: the graph that ends at v as it is when drawn, and the calls that reached it.

A Recorder watches every _backward call of one engine's Values as it happens (which value, what it
changed), so a drawing can step through the calls in their order, as the report's pictures do.
"""

from engine.diagnose import MAX_PICTURE, number
from engine.errors import FILENAME
from engine.trace import formula_of, op_of

SCRATCH_FILE = "<scratch>"  # the scratch pad's code, as tracebacks name it (the editor's: FILENAME)
FILES = {SCRATCH_FILE: "scratch", FILENAME: "editor"}  # the two sources, by the names tracebacks give them
MAX_CALLS = 2000  # _backward calls a drawing steps through: the last ones, when there were more
MAX_RECORDED = 100_000  # _backward calls recorded in one Run: past it, later drawings show none
MAX_LABEL_CHARS = 40  # a value's label: a longer name or formula (x + x, doubled over and over) is v<i>


class Recorder:
    """Record every _backward call of one engine's Values: which value, what each call changed."""

    def __init__(self, value_class) -> None:
        self.calls: list[tuple[object, list[tuple[object, object, object]]]] = []
        self.dropped = 0
        recorder = self
        setattr_ = value_class.__setattr__

        def recording_setattr(value, name, new):
            if name == "_backward" and callable(new):
                new = recorder.watch(value, new)
            setattr_(value, name, new)

        value_class.__setattr__ = recording_setattr

    def watch(self, value, backward):
        """Wrap one value's _backward, keeping its name (the picture reads the operation from it)."""

        def watched():
            kids = list(dict.fromkeys(value._prev))
            before = [k.grad for k in kids]
            try:
                return backward()
            finally:
                if kids:  # a leaf's _backward passes nothing on: the report's pictures leave it out too
                    self.record(value, kids, before)

        watched.__qualname__ = getattr(backward, "__qualname__", "")
        watched.original = backward
        return watched

    def record(self, value, kids: list, before: list) -> None:
        """Keep one call: the value and each input grad it changed (before, after), up to MAX_RECORDED."""
        if len(self.calls) >= MAX_RECORDED:
            self.dropped += 1
            return
        after = [(k, old, k.grad) for k, old in zip(kids, before, strict=True)]
        self.calls.append((value, [c for c in after if changed(c[1], c[2])]))


def changed(old: object, new: object) -> bool:
    """Whether a grad changed, whatever the learner's code made it."""
    try:
        return bool(new != old)
    except Exception:  # noqa: BLE001 - a learner's grad may compare any way it likes
        return True


def graph_of(out) -> list:
    """The values of the graph that ends at out, inputs before the values made from them."""
    order, seen, stack = [], {id(out)}, [(out, iter(out._prev))]
    while stack:
        node, kids = stack[-1]
        for kid in kids:
            if id(kid) not in seen:
                seen.add(id(kid))
                stack.append((kid, iter(kid._prev)))
                break
        else:
            order.append(node)
            stack.pop()
    return order


def names_in(frame, value_class) -> dict[int, str]:
    """Name values by the variables that hold them in a frame, where exactly one variable does."""
    found: dict[int, list[str]] = {}
    for name, value in frame.f_locals.items():
        if not name.startswith("_") and isinstance(value, value_class):
            found.setdefault(id(value), []).append(name)
    return {key: names[0] for key, names in found.items() if len(names) == 1}


def drawing(out, frame, recorder: Recorder) -> dict:
    """Describe the graph that ends at out, as it is now, for the page's picture."""
    where = {"line": frame.f_lineno, "file": FILES.get(frame.f_code.co_filename, "scratch")}
    values = graph_of(out)
    if len(values) > MAX_PICTURE:
        return {**where, "label": None, "size": len(values), "out": None, "nodes": None, "calls": []}
    index = {id(v): i for i, v in enumerate(values)}
    named = names_in(frame, type(out))
    labels, formulas, ops = [], [], []
    for i, v in enumerate(values):
        backward = getattr(v._backward, "original", v._backward)
        op = op_of(backward) if v._prev else None
        formula = formula_of(op, [labels[index[id(k)]] for k in v._prev])  # of labels: 2 * 40 + 3 at most
        label = named.get(id(v)) or formula or f"v{i}"
        labels.append(label if len(label) <= MAX_LABEL_CHARS else f"v{i}")
        formulas.append(formula)
        ops.append(op)
    calls = [(index[id(v)], changes) for v, changes in recorder.calls if id(v) in index][-MAX_CALLS:]
    start = [v.grad for v in values]  # each grad before the first call drawn: the first change's "before"
    first_seen: set[int] = set()
    for _, changes in calls:
        for kid, before, _after in changes:
            if index[id(kid)] not in first_seen:
                first_seen.add(index[id(kid)])
                start[index[id(kid)]] = before
    numbers: list[list[int]] = [[] for _ in values]
    for n, (node, _) in enumerate(calls, 1):
        numbers[node].append(n)
    nodes = [
        {
            "id": i,
            "label": labels[i],
            "formula": formulas[i],
            "op": ops[i],
            "children": [index[id(k)] for k in v._prev],
            "data": number(v.data),
            "start": number(start[i]),
            "grad": number(v.grad),
            "expected": None,
            "wrong": False,
            "calls": numbers[i],
        }
        for i, v in enumerate(values)
    ]
    moves = [
        {
            "node": node,
            "changes": [{"node": index[id(k)], "before": number(b), "after": number(a)} for k, b, a in ch],
        }
        for node, ch in calls
    ]
    return {
        **where,
        "label": labels[-1],
        "size": len(values),
        "out": len(values) - 1,
        "nodes": nodes,
        "calls": moves,
    }
