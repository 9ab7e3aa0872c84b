"""Watch an engine's Values: the values each graph is built from, and every _backward call.

One Watcher per engine (a Check's or a Run's), out of the learner's sight. It wraps each value's
_backward as it is set (by the engine's operations, or by the learner's code), so every call is
recorded as it happens: which value, its grad when it ran, and each input grad the call changed
(before, after). A plugin reads one graph's calls from it (the seed's trace), draw(v) all of them
(drawing.py).
"""

MAX_CALLS = 100_000  # calls kept in one Check or Run: past it, later ones are counted, not kept
# The engine method each _backward comes from, and its operation's name (the course's ops: + * tanh exp
# ** relu; ** is named with its power, read from the _backward's closure: "**3", "**-1").
OPS = {"__add__": "+", "__mul__": "*", "tanh": "tanh", "exp": "exp", "__pow__": "**", "relu": "relu"}
CALLED = ("tanh", "exp", "relu")  # written as a call: tanh(a)


class Call:
    """One _backward call: the value, its grad when it ran, and (kid, before, after) for each change."""

    __slots__ = ("value", "grad", "changes")

    def __init__(self, value, grad, changes: list) -> None:
        self.value, self.grad, self.changes = value, grad, changes


class Built:
    """What one build of a graph made: its leaves and out, every value in the order made (inputs
    first), the inner values its formula names (h, u), and each value's inputs and operation as built
    (read now: the learner's code may change them)."""

    __slots__ = ("leaves", "out", "values", "named", "children", "ops")

    def __init__(self, leaves: list, out, values: list, named: dict) -> None:
        self.leaves, self.out, self.values, self.named = leaves, out, values, named
        index = {id(v): i for i, v in enumerate(values)}
        self.children = [[index[id(c)] for c in v._prev] for v in values]
        self.ops = [op_of(v._backward) if v._prev else None for v in values]


class Watcher:
    """Record every _backward call of one engine's Values, and the values each build makes."""

    def __init__(self, engine: dict) -> None:
        self.engine = engine
        self.value_class = engine["Value"]
        self.calls: list[Call] = []
        self.dropped = 0  # calls past MAX_CALLS: counted, not kept
        set_attribute = self.value_class.__setattr__
        watcher = self

        def __setattr__(value, name, new):
            if name == "_backward" and callable(new):
                new = watcher.wrap(value, new)
            set_attribute(value, name, new)

        self.value_class.__setattr__ = __setattr__

    def wrap(self, value, backward):
        """Wrap one value's _backward, keeping its name (the operation is read from it)."""

        def _backward():
            try:
                kids = list(dict.fromkeys(value._prev))
                before = [kid.grad for kid in kids]
                grad = value.grad
            except Exception:  # noqa: BLE001 - whatever the learner made of _prev: their call, unrecorded
                return backward()
            call = self.record(value, grad) if kids else None  # a leaf's passes nothing on: not drawn
            try:
                return backward()
            finally:
                if call is not None:
                    call.changes = changes(kids, before)

        _backward.__qualname__ = getattr(backward, "__qualname__", "")
        _backward.original = backward
        return _backward

    def record(self, value, grad) -> Call | None:
        """Keep a call as it starts (so calls nested in it come after it), up to MAX_CALLS."""
        if len(self.calls) >= MAX_CALLS:
            self.dropped += 1
            return None
        call = Call(value, grad, [])
        self.calls.append(call)
        return call

    def build(self, builder, *args) -> Built:
        """Build a graph with builder(*args) (it returns its leaves, out and the inner values its formula
        names), recording each value made."""
        made: list = []
        init = self.value_class.__init__

        def __init__(value, *args, **kwargs):
            init(value, *args, **kwargs)
            made.append(value)

        self.value_class.__init__ = __init__
        try:
            leaves, out, named = builder(*args)
        finally:
            self.value_class.__init__ = init
        return Built(leaves, out, made, named)


def indexed(calls: list[Call], values: list) -> list[dict]:
    """The calls of these values, in order, as {"node", "grad", "changes": [{"node", "before", "after"}]}
    with nodes indexed in values; calls of other values, and changes to them, are left out."""
    index = {id(v): i for i, v in enumerate(values)}
    found = []
    for call in calls:
        i = index.get(id(call.value))
        if i is None or values[i] is not call.value:
            continue
        moved = [
            {"node": index[id(kid)], "before": before, "after": after}
            for kid, before, after in call.changes
            if id(kid) in index
        ]
        found.append({"node": i, "grad": call.grad, "changes": moved})
    return found


def changes(kids: list, before: list) -> list[tuple]:
    """Each input grad a call changed: (kid, before, after)."""
    found = []
    for kid, old in zip(kids, before, strict=True):
        new = getattr(kid, "grad", None)
        if differs(old, new):
            found.append((kid, old, new))
    return found


def differs(old: object, new: object) -> bool:
    """Whether a grad changed, whatever the learner's code made it."""
    try:
        return bool(new != old)
    except Exception:  # noqa: BLE001 - a learner's grad may compare any way it likes
        return True


def op_of(backward) -> str:
    """Name the operation a value's own _backward comes from, by its qualified name."""
    backward = getattr(backward, "original", backward)
    parts = getattr(backward, "__qualname__", "").split(".")  # "Value.__add__.<locals>._backward"
    op = OPS.get(parts[-3], "?") if len(parts) >= 3 else "?"
    return op + power_of(backward) if op == "**" else op


def power_of(backward) -> str:
    """The number a ** _backward raises to (its closure's `other`), as written: "" when it is not a number."""
    try:
        cells = dict(zip(backward.__code__.co_freevars, backward.__closure__ or (), strict=False))
        power = cells["other"].cell_contents
    except (AttributeError, KeyError, ValueError):
        return ""
    if type(power) is float and power.is_integer() and abs(power) < 1e6:
        power = int(power)
    return str(power)[:8] if type(power) in (int, float) else ""


def formula_of(op: str | None, inputs: list[str]) -> str | None:
    """Write the formula that made a value from its inputs' labels (None for a leaf)."""
    if op is None:
        return None
    if op in CALLED and len(inputs) == 1:
        return f"{op}({inputs[0]})"
    if op.startswith("**") and len(inputs) == 1:
        return f"{inputs[0]}{op}"
    return (" + " if op == "+" else "·").join(inputs)
