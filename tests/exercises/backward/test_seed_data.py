"""The seed's data has one home, its exercise.json: what the server's callers read (seed.py), what its
plugin builds, and how many fresh cases /verify draws, all agree with it."""

import random
from collections import Counter

import pytest

from exercises.backward import seed
from exercises.backward.plugin.extras import GRAPHS
from server.exercises.registry import LEGACY, Registry, served
from server.exercises.value_sets import value_sets


@pytest.fixture(scope="module")
def registry():
    return Registry([f for f in served() if f[0].name == LEGACY], ["en", "de"])


def test_the_plugin_builds_every_page_group_the_engine_does_not():
    engines = {"neuron", "reuse", "chain"}  # the seed's engine's build() (exercises/backward/engine.py)
    assert set(seed.SEED) == engines
    assert set(GRAPHS) == set(seed.VALUE_SETS) - engines == set(seed.EXTRAS)


def test_what_seed_py_serves_is_its_exercise_json(registry):
    exercise = registry.exercise(LEGACY)
    assert seed.LEAVES == {name: tuple(g["leaves"]) for name, g in exercise.groups.items()}
    assert [c["inputs"]["values"] for c in seed.value_sets("strict")] == [
        c["inputs"]["values"] for c in exercise.data["cases"]
    ]
    for name, counts in exercise.verdicts().items():
        assert [*seed.SEED, *seed.VERDICTS[name]] == [g for g in counts if g in seed.VALUE_SETS]
    assert [c["example"] for c in seed.value_sets()] == [
        bool(c.get("example")) for c in exercise.data["cases"]
    ]


@pytest.mark.parametrize("verdict", ["seed", "strict"])
def test_its_fresh_cases_are_as_many_per_group_as_verify_draws(registry, app_config, verdict):
    today = value_sets(
        verdict, app_config["VERIFY_FRESH_SETS"], random.Random(1), app_config["VERIFY_FRESH_GRAPHS"]
    )
    drawn = registry.fresh(LEGACY, verdict, random.Random(1))
    assert Counter(c["group"] for c in drawn) == Counter(c["group"] for c in today if c["fresh"])
    assert all(c["expected"] is not None and len(c["wrong"]) == 7 for c in drawn)


@pytest.fixture(scope="module")
def app_config():
    from server import create_app

    return create_app({"TESTING": True}).config
