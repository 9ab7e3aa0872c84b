"""The graphs beside the seed's three: where orders that only work on some graphs go wrong, and a deep one.

Each is built the way the seed's engine's build() (../engine.py) builds its three, from the same
operations. A graph given as data (TANGLE below, and the ones /verify draws fresh for every request,
server/exercises/graphs.py) is a list of rows, one per value after the leaves: ("+", i, j), ("*", i, j) or
("tanh", i), where i and j index the values before it (the leaves first); the last row is out.
"""

DEPTH = 500  # the deep chain: a recursive search needs a frame per value, past Python's limit of 1000

# "tangle": a graph drawn once as /verify draws its own (server/exercises/graphs.py, seed 4), 34 values on 4
# leaves, with every feature that tells orders apart; tests/test_graphs.py checks it still has them.
TANGLE = (
    ("+", 3, 1), ("+", 3, 2), ("+", 5, 1), ("*", 4, 6), ("tanh", 3), ("+", 8, 5), ("+", 5, 8), ("+", 8, 4),
    ("+", 4, 8), ("tanh", 11), ("*", 12, 4), ("+", 13, 14), ("*", 9, 15), ("tanh", 16), ("tanh", 17),
    ("+", 16, 18), ("*", 6, 6), ("*", 20, 20), ("tanh", 20), ("tanh", 22), ("+", 21, 23), ("+", 6, 7),
    ("tanh", 25), ("*", 26, 26), ("+", 27, 26), ("+", 19, 28), ("*", 15, 24), ("+", 30, 29), ("*", 0, 31),
    ("*", 32, 10),
)  # fmt: skip


def from_rows(value_class, rows, vals: list) -> tuple[list, object]:
    """Build a graph given as data: the leaves from vals, then one value per row; the last is out."""
    values = [value_class(v) for v in vals]
    leaves = list(values)
    for op, a, *b in rows:
        x = values[a]
        values.append(x.tanh() if op == "tanh" else x + values[b[0]] if op == "+" else x * values[b[0]])
    return leaves, values[-1]


def build(value_class, expr: str, vals: list, rows=None) -> tuple[list, object, dict]:
    """Build an extra graph; return its leaves, out and the inner values the formula names (h, u)."""
    if rows is not None or expr == "tangle":
        return (*from_rows(value_class, TANGLE if rows is None else rows, vals), {})
    leaves = [value_class(v) for v in vals]
    if expr == "shared":  # an inner value used three times, twice by one value
        x, w = leaves
        h = (x * w).tanh()
        return leaves, h * h + h, {"h": h}
    if expr == "diamond":  # one value feeding two paths that meet again
        x, w, c = leaves
        u = x * w
        return leaves, u.tanh() + u * c, {"u": u}
    if expr == "uneven":  # u reaches out in two steps and in three, and u·u uses it twice
        x, w = leaves
        u = x * w
        return leaves, u * u + u.tanh().tanh(), {"u": u}
    if expr == "twins":  # two values with the same data: one order must still run both
        x, w, c = leaves
        return leaves, (x * w).tanh() + (w * x) * c, {}
    x, w = leaves  # deep
    out = x
    for _ in range(DEPTH):
        out = (out * w).tanh()
    return leaves, out, {}


GRAPHS = ("shared", "diamond", "uneven", "twins", "tangle", "deep")  # built here; any other from rows, or
# (the seed's three) with the engine's own build()


def build_graph(engine_build, value_class, expr: str, vals: list, rows=None) -> tuple[list, object, dict]:
    """Build any graph: the seed's three with the engine's own build(), the others here."""
    if rows is None and expr not in GRAPHS:
        leaves, out = engine_build(expr, vals)
        return leaves, out, {}
    return build(value_class, expr, vals, rows)
