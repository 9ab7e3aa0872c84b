"""The seed's exercise as the server's callers read it, from its one home: this folder's exercise.json
(its groups, their leaves and roles, its cases, its verdicts). Nothing here states a fact of its own:
each name below is read or derived from that file, for the callers that still serve the seed alone (the
page, /verify, records, the class view, the export, the JSON Schemas). Server-side: the engine archive
holds the descriptor made here.

What only the seed's plugin needs (its order graphs, the deep chain, its roles' meaning) lives in
plugin/; /verify's fresh draws in cases.py.
"""

import json
from functools import cache
from pathlib import Path

DATA: dict = json.loads(Path(__file__).with_name("exercise.json").read_text(encoding="utf-8"))

# Each group's leaves, in the file's order: the page's expressions and graphs, and /verify's drawn ones.
LEAVES: dict[str, tuple[str, ...]] = {g["name"]: tuple(g["leaves"]) for g in DATA["groups"]}
# The worked example shown on the page first (its case marked `example`), then value sets it does not show.
VALUE_SETS: dict[str, list[tuple[float, ...]]] = {}
for _case in DATA["cases"]:
    VALUE_SETS.setdefault(_case["group"], []).append(tuple(_case["inputs"]["values"]))
del _case
ROLES: tuple[str, ...] = tuple(dict.fromkeys(g["role"] for g in DATA["groups"]))  # seed, order, lesson


def role(expr: str) -> str:
    """Say what an expression is for: "seed", "order" (it tells orders apart) or "lesson"."""
    return next(g["role"] for g in DATA["groups"] if g["name"] == expr)


def named(kind: str) -> tuple[str, ...]:
    """The groups of a role that have fixed cases (the page's), in the file's order."""
    return tuple(name for name in LEAVES if name in VALUE_SETS and role(name) == kind)


# What each expression is for: the seed's three; graphs that tell a right order from the wrong ones
# people write; and a lesson, the chain too deep for a recursive search. A group with no fixed case
# (random) is drawn by /verify only.
SEED = named("seed")
ORDER = named("order")
LESSON = named("lesson")
EXTRAS = ORDER + LESSON  # graded and explained on the page beside the seed's three
# A teacher's choice of verdict (PLAYGROUND_VERDICT): the page's groups each counts beside the seed's
# three (strict: every graph that tells orders apart; /verify adds its drawn ones).
VERDICTS: dict[str, tuple[str, ...]] = {
    name: tuple(g for g in verdict["counts"] if g in EXTRAS) for name, verdict in DATA["verdicts"].items()
}


def descriptor() -> dict:
    """The seed's descriptor (docs/architecture.md): its engine, call, groups, verdicts and plugin. Its
    mistakes are left out while the page's cases carry no mistakes' numbers (the plugin names the seed's)."""
    return {
        "format": 1,
        "id": DATA["id"],
        "engine": f"exercises/{DATA['id']}/engine.py",
        "learner_writes": list(DATA["learner_writes"]),
        "call": DATA["grade"]["call"],
        "tolerance": DATA["grade"]["tolerance"],
        "engine_hints": bool(DATA.get("engine_hints")),
        "plugin": DATA["plugin"],
        "groups": [
            {"name": g["name"], "leaves": list(g["leaves"]), "role": g["role"]} for g in DATA["groups"]
        ],
        "verdicts": DATA["verdicts"],
        "mistakes": [],
    }


@cache
def exercise():
    """The seed's exercise, read (engine/descriptor.py): once per process."""
    from engine.descriptor import read

    return read(descriptor())


def value_sets(verdict: str = "seed") -> list[dict]:
    """List every graded value set as a case, the worked examples flagged, the extras outside the verdict
    flagged."""
    counted = VERDICTS[verdict]
    return [
        {
            "group": case["group"],
            "leaves": list(LEAVES[case["group"]]),
            "inputs": {"values": list(case["inputs"]["values"])},
            "example": bool(case.get("example")),
            "extra": case["group"] in EXTRAS and case["group"] not in counted,
        }
        for case in DATA["cases"]
    ]
