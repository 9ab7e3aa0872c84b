"""The fresh cases /verify draws for one request show every named mistake its verdict counts: a Check of
a mistake the page names is never verified as a pass, whatever a request draws (issue 52's relu drew
six negative inputs once in 64 requests, and out-value passed them all)."""

import random

import pytest

from server.exercises import grading
from server.exercises.registry import Registry, served
from tests.support.exercise_folders import course

pytestmark = pytest.mark.slow  # hundreds of trusted runs per exercise (train's train networks)

REQUESTS = 100  # seeded requests per exercise and verdict (train's: 10, each trains five networks a case)


@pytest.fixture(scope="module")
def course_registry() -> Registry:
    return Registry(served(), ["en", "de"])


def counted_mistakes(registry: Registry, exercise, verdict: str) -> list[str]:
    """The mistakes a verdict's counted fixed cases show: those its fresh cases must show too (the seed's
    verdict counts no case `early` fails: it passes there on purpose)."""
    tolerance = exercise.data["grade"].get("tolerance", {})
    cases = [c for c in registry.cases(exercise.id, verdict) if not c["extra"]]
    return [
        k
        for k in exercise.keys
        if any(not grading.same(c["wrong"][k], c["expected"], tolerance) for c in cases)
    ]


@pytest.mark.parametrize("exercise_id", course())
def test_every_request_draws_fresh_cases_that_show_each_counted_mistake(course_registry, exercise_id):
    exercise = course_registry.exercise(exercise_id)
    tolerance = exercise.data["grade"].get("tolerance", {})
    requests = 10 if exercise_id == "train" else REQUESTS
    for verdict in exercise.verdicts():
        if not exercise.fresh_groups(verdict):
            continue
        counted = counted_mistakes(course_registry, exercise, verdict)
        for seed in range(requests):
            cases = course_registry.fresh(exercise_id, verdict, random.Random(seed))
            hidden = [
                key
                for key in counted
                if all(grading.same(c["wrong"][key], c["expected"], tolerance) for c in cases)
            ]
            assert not hidden, f"{verdict}: request {seed}'s fresh cases pass {hidden}: {cases}"
