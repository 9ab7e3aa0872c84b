"""The bridge (issue 51, until this folder holds its exercise.json): the seed's descriptor and cases, made
in Python from what engine/cases.py held: the graded expressions, their leaves' names, what each one is
for, and the value sets each is graded on. Server-side: the engine archive holds the descriptor made here.
"""

from functools import cache

LEAVES: dict[str, tuple[str, ...]] = {
    "neuron": ("x1", "w1", "x2", "w2", "b"),
    "reuse": ("a", "b"),
    "chain": ("x", "w"),
    "shared": ("x", "w"),
    "diamond": ("x", "w", "c"),
    "uneven": ("x", "w"),
    "twins": ("x", "w", "c"),
    "tangle": ("a", "b", "c", "d"),
    # /verify's graphs, drawn fresh for each request (server/exercises/graphs.py)
    "random": ("a", "b", "c", "d"),
    "deep": ("x", "w"),
}
# What each expression is for: the seed's three; graphs that tell a right order from the wrong ones
# people write (a value reached by paths of different lengths, used twice by one value, two values with
# the same data, a bigger tangle of them); and a lesson, the chain too deep for a recursive search.
SEED = ("neuron", "reuse", "chain")
ORDER = ("shared", "diamond", "uneven", "twins", "tangle")
LESSON = ("deep",)
EXTRAS = ORDER + LESSON  # graded and explained on the page beside the seed's three
# A teacher's choice of verdict (PLAYGROUND_VERDICT): the seed's three expressions, or with them every
# graph that tells orders apart, which only a topological order gets right (/verify adds random ones).
# The lesson never counts: a recursive search is a right answer.
VERDICTS: dict[str, tuple[str, ...]] = {"seed": (), "strict": ORDER}
ROLES = ("seed", "order", "lesson")  # what an expression is for, as role() says it


def role(expr: str) -> str:
    """Say what an expression is for: "seed", "order" (it tells orders apart) or "lesson"."""
    return "seed" if expr in SEED else "lesson" if expr in LESSON else "order"


def descriptor() -> dict:
    """The seed's descriptor (docs/architecture.md): its engine, call, groups, verdicts and plugin."""
    return {
        "format": 1,
        "id": "backward",
        "engine": "exercises/backward/engine.py",
        "learner_writes": ["backward"],
        "call": "grads_of(group, values, [0.0] * len(values))",
        "tolerance": {"digits": 9, "within": 1e-9, "relative_above": 1.0},
        "engine_hints": True,
        "plugin": "exercises.backward.plugin",
        "groups": [
            {"name": name, "leaves": list(leaves), "role": role(name)} for name, leaves in LEAVES.items()
        ],
        "verdicts": {
            name: {"counts": [*SEED, *extras, *(["random"] if extras else [])]}
            for name, extras in VERDICTS.items()
        },
        "mistakes": [],
    }


@cache
def exercise():
    """The seed's exercise, read (engine/descriptor.py): once per process."""
    from engine.descriptor import read

    return read(descriptor())


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
    "uneven": [
        (0.7, -0.9),
        (-1.3, 0.4),
    ],
    "twins": [
        (0.9, 0.6, -1.2),
        (-0.5, 1.4, 0.8),
    ],
    "tangle": [
        (0.538, -1.205, -0.706, 1.358),
        (0.8, -0.7, -0.4, 0.6),
    ],
    "deep": [
        (0.5, 1.05),
    ],
}


def value_sets(verdict: str = "seed") -> list[dict]:
    """List every graded value set as a case, the worked examples flagged, the extras outside the verdict
    flagged."""
    counted = VERDICTS[verdict]
    return [
        {
            "group": expr,
            "leaves": list(LEAVES[expr]),
            "inputs": {"values": list(values)},
            "example": i == 0 and expr in SEED,
            "extra": expr in EXTRAS and expr not in counted,
        }
        for expr, sets in VALUE_SETS.items()
        for i, values in enumerate(sets)
    ]
