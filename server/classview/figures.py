"""The class view's overview figures, made in Python from the grouped rows server/classview/in_order.py
counted: each mistake's row, each expression's, the distribution of the Checks to the first pass (its
median and buckets).
"""

from functools import cache

from server.exercises.folder import Exercise, load
from server.exercises.registry import LEGACY, SHIPPED

# The distribution of attempts to the first pass: one bar per count up to 5, then ranges.
BUCKETS = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 10), (11, 20), (21, None))


def mistakes(rows: list, shown: dict[str, list[dict]]) -> list[dict]:
    """Each mistake made, the most met first: learners who met it, still on it, the Checks it took to get
    past it (median, and how many got past), examples. rows: windowed's part "mistake"."""
    met: dict[str, int] = {}
    still: dict[str, int] = {}
    past: dict[str, dict[int, int]] = {}
    for row in rows:
        met[row.key] = met.get(row.key, 0) + row.b
        still[row.key] = still.get(row.key, 0) + row.c
        if row.a is not None:
            past.setdefault(row.key, {})[row.a] = row.b
    return [
        {
            "mistake": mistake,
            "met": met[mistake],
            "still": still[mistake],
            "past": sum(past.get(mistake, {}).values()),
            "median": median(past.get(mistake, {})),
            "examples": shown.get(mistake, []),
        }
        for mistake in sorted(met, key=lambda mistake: (-met[mistake], mistake))
    ]


def order_of(exercise: Exercise) -> list[tuple[str, str]]:
    """Each group of an exercise in its order (its exercise.json's), with its role: "drawn" for one with no
    fixed case, whose cases /verify draws at each verification (the seed's random graphs under strict)."""
    fixed = {case["group"] for case in exercise.data["cases"]}
    return [
        (name, group.get("role", "graded") if name in fixed else "drawn")
        for name, group in exercise.groups.items()
    ]


@cache
def seed_order() -> list[tuple[str, str]]:
    """The seed's groups' order (LEGACY's folder, read as files): the rows of a view that names none."""
    return order_of(load(SHIPPED / LEGACY, own=True))


def expression_rows(rows: list, order: list[tuple[str, str]] | None = None) -> list[dict]:
    """Each group's row, in the exercise's order (order_of; None: the seed's), each with its role; a
    group the exercise no longer has, last, by name."""
    roles = dict(order if order is not None else seed_order())
    place = {name: k for k, name in enumerate(roles)}
    found = [{"expr": row.key, "role": roles.get(row.key, ""), "right": row.a, "of": row.b} for row in rows]
    return sorted(found, key=lambda row: (place.get(row["expr"], len(place)), row["expr"]))


def distribution(histogram: dict[int, int]) -> dict:
    """Checks to the first pass: the median, each count's learners, the buckets."""
    return {"median": median(histogram), "histogram": histogram, "buckets": buckets(histogram)}


def median(histogram: dict[int, int]) -> float | None:
    """The median of values given as value -> how many times (None for none)."""
    total = sum(histogram.values())
    if not total:
        return None
    middle, seen, found = ((total - 1) // 2, total // 2), 0, []
    for value in sorted(histogram):
        for index in middle:
            if seen <= index < seen + histogram[value]:
                found.append(value)
        seen += histogram[value]
    return sum(found) / 2


def buckets(histogram: dict[int, int]) -> list[dict]:
    """The distribution in BUCKETS: each with its lowest and highest value (None: no limit) and count."""
    return [
        {
            "low": low,
            "high": high,
            "learners": sum(n for v, n in histogram.items() if v >= low and (high is None or v <= high)),
        }
        for low, high in BUCKETS
    ]
