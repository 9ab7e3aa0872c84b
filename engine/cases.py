"""The graded expressions: their leaves' names and the value sets each is graded on."""

LEAVES: dict[str, tuple[str, ...]] = {
    "neuron": ("x1", "w1", "x2", "w2", "b"),
    "reuse": ("a", "b"),
    "chain": ("x", "w"),
    "shared": ("x", "w"),
    "diamond": ("x", "w", "c"),
    "deep": ("x", "w"),
}
EXTRAS = ("shared", "diamond", "deep")  # graded and explained, but outside the verdict
# A teacher's choice of verdict (PLAYGROUND_VERDICT): the seed's three expressions, or with them the
# extras whose interior values are shared, which wrong orders fail (not deep: only recursion fails it).
VERDICTS: dict[str, tuple[str, ...]] = {"seed": (), "strict": ("shared", "diamond")}

# The worked example shown on the page, first, then value sets the page does not show.
VALUE_SETS: dict[str, list[tuple[float, ...]]] = {
    "neuron": [
        (2.0, -3.0, 0.0, 1.0, 6.8813735870195432),
        (0.5, 0.8, -1.5, 0.3, 0.1),
        (-1.2, 0.7, 2.5, -0.4, 0.9),
        (0.3, -2.2, 1.1, 1.7, -0.6),
    ],
    "reuse": [
        (3.0, -2.0),
        (-1.5, 4.0),
        (0.7, 0.25),
        (2.5, -3.5),
    ],
    "chain": [
        (0.5, 0.9),
        (-0.8, 1.3),
        (1.7, -0.6),
        (0.2, 2.1),
    ],
    "shared": [
        (0.8, -0.6),
        (-1.1, 0.45),
    ],
    "diamond": [
        (0.6, -1.4, 2.0),
        (-0.9, 0.5, -1.5),
    ],
    "deep": [
        (0.5, 1.05),
    ],
}


def value_sets(verdict: str = "seed") -> list[dict]:
    """List every graded value set, the worked examples flagged, the extras outside the verdict flagged."""
    counted = VERDICTS[verdict]
    return [
        {
            "expr": expr,
            "leaves": list(LEAVES[expr]),
            "values": list(values),
            "example": i == 0 and expr not in EXTRAS,
            "extra": expr in EXTRAS and expr not in counted,
        }
        for expr, sets in VALUE_SETS.items()
        for i, values in enumerate(sets)
    ]
