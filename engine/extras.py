"""Extra graphs, outside the verdict: orders that only work on trees go wrong on these."""

DEPTH = 500  # the deep chain: a recursive search needs a frame per value, past Python's limit of 1000


def build(value_class, expr: str, vals: list) -> tuple[list, object]:
    """Build an extra graph the way the engine's build() builds the seed's three."""
    leaves = [value_class(v) for v in vals]
    if expr == "shared":  # an intermediate value used three times
        x, w = leaves
        h = (x * w).tanh()
        out = h * h + h
    elif expr == "diamond":  # one value feeding two paths that meet again
        x, w, c = leaves
        u = x * w
        out = u.tanh() + u * c
    else:  # deep
        x, w = leaves
        out = x
        for _ in range(DEPTH):
            out = (out * w).tanh()
    return leaves, out
