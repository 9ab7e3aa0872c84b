"""draw(v) in the scratch pad: the graph that ends at v as it is when drawn, and the calls that reached it.

The scratch pad's engine is watched (watch.py) from its first value on, so a drawing can step through
the _backward calls in their order, as the report's pictures do, with the same picture (picture.py).
"""

import ast
from functools import lru_cache
from itertools import islice

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


@lru_cache(maxsize=4)
def calls_in(source: str) -> tuple[tuple[tuple, int, str | None, ast.expr], ...]:
    """Every call of one argument in source: (its span, its line, the name it calls, its argument)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    return tuple(
        (
            (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset),
            node.lineno,
            node.func.id if isinstance(node.func, ast.Name) else None,
            node.args[0],
        )
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
    )


def argument_text(frame, source: str) -> str | None:
    """The text of draw's argument at the call frame is making (draw(a + b): "a + b"), or None where
    it cannot be told: the call is found by its span (the frame's instruction's position), else as the
    one draw(...) on the frame's line."""
    span = next(islice(frame.f_code.co_positions(), frame.f_lasti // 2, None), None)
    calls = calls_in(source)
    found = [arg for at, _, _, arg in calls if at == span] or [
        arg for _, line, name, arg in calls if line == frame.f_lineno and name == "draw"
    ]
    text = ast.get_source_segment(source, found[0]) if len(found) == 1 else None
    text = " ".join(text.split()) if text else None  # an argument written over several lines, on one
    return text if text and len(text) <= MAX_LABEL_CHARS else None


def drawing(out, frame, watcher: Watcher, sources: dict[str, str]) -> dict:
    """Describe the graph that ends at out, as it is now, for the page's picture (report.drawing),
    titled by the text of draw's argument where it was called (sources: "scratch", "editor" -> code)."""
    line, file = frame.f_lineno, FILES.get(frame.f_code.co_filename, "scratch")
    known = frame.f_code.co_filename in FILES  # not code the learner's own exec() made
    title = argument_text(frame, sources.get(file, "")) if known else None
    values = graph_of(out)
    if len(values) > MAX_PICTURE:
        return report.drawing(line, file, title, len(values), None)
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
    return report.drawing(line, file, title or labels[-1], len(values), drawn)
