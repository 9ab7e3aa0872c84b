"""The value sets a Check is judged on: the page's, with the reference's gradients (once per verdict rule),
and fresh ones drawn for each request, with random graphs under strict (server/exercises/graphs.py).

/verify and the records' judge run a Check on them (server/sandbox/judging.py); the page shows the
page's (server/page/page.py), and a receipt's version hashes them (server/verify/receipt.py).
"""

import random
from functools import cache

from exercises.backward.seed import LEAVES, SEED, VERDICTS
from server.exercises import graphs, reference


@cache
def graded_cases(verdict: str = "seed") -> list[dict]:
    """Compute the expected gradients once per verdict rule, with the reference backward."""
    return reference.graded_cases(verdict)


def counted(verdict: str) -> tuple[str, ...]:
    """The expressions a verdict counts: the seed's three, and the teacher's choice of extras."""
    return (*SEED, *VERDICTS[verdict])


def fresh_values(rng: random.Random, expr: str) -> tuple[list[float], list[float]]:
    """One value set no page has shown, and its expected gradients: each leaf uniform in [-2, 2], to
    three decimals, not 0, drawn again until every leaf's gradient is at least graphs.SHARE (a long
    chain with a small w has gradients that round to 0: code that does nothing would pass it)."""
    for _ in range(graphs.ATTEMPTS):
        values = [graphs.leaf_value(rng) for _ in LEAVES[expr]]
        grads = reference.expected(expr, values)
        if min(abs(g) for g in grads) >= graphs.SHARE:
            break
    return values, grads


def value_sets(verdict: str, fresh: int, rng: random.Random, graphs_drawn: int = 0) -> list[dict]:
    """The counted expressions' value sets: the page's, then `fresh` new ones each, with expected grads.

    Under strict, `graphs_drawn` random graphs too, each with a value set of its own
    (server/exercises/graphs.py).
    """
    cases = []
    for name in counted(verdict):
        page = [dict(c, fresh=False) for c in graded_cases(verdict) if c["group"] == name]
        cases += [{k: v for k, v in c.items() if k != "data"} for c in page]
        for _ in range(fresh):
            values, grads = fresh_values(rng, name)
            cases.append(
                {
                    "group": name,
                    "leaves": list(LEAVES[name]),
                    "inputs": {"values": values},
                    "expected": grads,
                    "example": False,
                    "extra": False,
                    "fresh": True,
                }
            )
    for _ in range(graphs_drawn if VERDICTS[verdict] else 0):
        rows, values = graphs.draw(rng)
        cases.append(
            {
                "group": "random",
                "leaves": list(LEAVES["random"]),
                "inputs": {"values": values, "graph": rows},
                "expected": reference.expected("random", values, rows),
                "example": False,
                "extra": False,
                "fresh": True,
            }
        )
    return cases
