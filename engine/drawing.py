"""draw(v) in the scratch pad: the graph that ends at v as it is when drawn, and the calls that reached it.

The scratch pad's engine is watched (watch.py) from its first value on, so a drawing can step through
the _backward calls in their order, as the report's pictures do, with the same picture (picture.py).
"""

from engine import report
from engine.errors import FILES
from engine.picture import MAX_PICTURE, picture
from engine.watch import Watcher, formula_of, indexed, op_of

MAX_CALLS = 2000  # _backward calls a drawing steps through: the last ones, when there were more
MAX_LABEL_CHARS = 40  # a value's label: a longer name or formula (x + x, doubled over and over) is v<i>


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


def drawing(out, frame, watcher: Watcher) -> dict:
    """Describe the graph that ends at out, as it is now, for the page's picture (report.drawing)."""
    line, file = frame.f_lineno, FILES.get(frame.f_code.co_filename, "scratch")
    values = graph_of(out)
    if len(values) > MAX_PICTURE:
        return report.drawing(line, file, None, len(values), None)
    index = {id(v): i for i, v in enumerate(values)}
    named = names_in(frame, type(out))
    labels, formulas, ops = [], [], []
    for i, v in enumerate(values):
        op = op_of(v._backward) if v._prev else None
        formula = formula_of(op, [labels[index[id(k)]] for k in v._prev])  # of labels: 2 * 40 + 3 at most
        label = named.get(id(v)) or formula or f"v{i}"
        labels.append(label if len(label) <= MAX_LABEL_CHARS else f"v{i}")
        formulas.append(formula)
        ops.append(op)
    children = [[index[id(k)] for k in v._prev] for v in values]
    calls = indexed(watcher.calls, values)[-MAX_CALLS:]
    drawn = picture(values, len(values) - 1, list(zip(labels, formulas, strict=True)), ops, children, calls)
    return report.drawing(line, file, labels[-1], len(values), drawn)
