"""An exercise as /verify and the records' judge grade a Check of it: which one a request names, the
verdict's rule it is judged by, the cases (its counted fixed ones, and fresh ones drawn for each run with
their right and wrong numbers), the files its sandbox gets, and its receipt's version.

The seed's exercise (LEGACY, `backward`) is graded as it was before there were several: its value sets
(server/exercises/value_sets.py, VERIFY_FRESH_SETS and, under strict, VERIFY_FRESH_GRAPHS random graphs),
its archive (server/page/assets.py) and its plugin's diagnosis of the pass the sandbox hands back. Any
other served exercise is graded from its folder (server/exercises/registry.py): its cases under the rule,
fresh ones drawn by its cases.py, its archive (server/exercises/archive.py); its mistakes are named by
their numbers (engine/named.py), in this process, from the numbers the sandbox returned.
"""

import hashlib
import json
import random
from functools import cache, cached_property

from flask import current_app
from flask_babel import gettext

from exercises.backward.plugin.diagnose import diagnose, mistake
from exercises.backward.plugin.trace import from_plain
from exercises.backward.seed import exercise as seed_exercise
from server.exercises import archive, grading
from server.exercises.registry import LEGACY
from server.exercises.value_sets import graded_cases, value_sets
from server.page.assets import archived_files, engine_archive
from server.sandbox.sandbox_io import engine_files, with_bytecode


class NotServed(Exception):
    """A Check names an exercise this server does not serve (the message says which, to the learner)."""


class Graded:
    """One served exercise, as a Check of it is graded here (the general case: an exercise's folder)."""

    def __init__(self, registry, id_: str) -> None:
        self.registry, self.id = registry, id_
        self.folder = registry.exercise(id_)
        self.versions: dict[str, str] = {}  # by rule: made once, not zipped again at each request

    @cached_property
    def exercise(self):
        """The exercise as the general grader reads it (engine/descriptor.py), to judge the numbers."""
        return grading.read(self.folder)

    def rule(self, asked: str) -> str:
        """The verdict a Check is judged by: the one asked (an activity's, PLAYGROUND_VERDICT) where the
        exercise has it, else the exercise's first (its default)."""
        verdicts = self.folder.verdicts()
        return asked if asked in verdicts else next(iter(verdicts))

    def cases(self, rule: str, rng: random.Random) -> list[dict]:
        """The counted fixed cases (the page's, with their numbers), then fresh ones drawn now."""
        fixed = [c for c in self.registry.cases(self.id, rule) if not c["extra"]]
        return fixed + self.registry.fresh(self.id, rule, rng)

    @cached_property
    def files(self) -> dict[str, bytes]:
        """The exercise's archive, as the browser's worker gets it (the sandbox adds the bytecode)."""
        return archive.files(self.folder)

    @cached_property
    def sandbox(self) -> dict[str, bytes]:
        """What the sandbox gets beside the source: the archive, its bytecode, the driver."""
        return with_bytecode(self.files)

    def version(self, rule: str) -> str:
        """A hash of the archive and the page's cases under the rule: the exercise's exact version."""
        if rule not in self.versions:
            cases = json.dumps(self.registry.cases(self.id, rule), sort_keys=True).encode()
            self.versions[rule] = hashlib.sha256(archive.zipped(self.files) + cases).hexdigest()[:16]
        return self.versions[rule]

    def diagnosed(self, plain: object, leaves: list[str]) -> str | None:
        """The mistake a plugin names from what the sandbox handed back for one case (none here)."""
        return None


class Seed(Graded):
    """The seed's exercise, graded as before exercises: every number and claim as it was."""

    @property
    def exercise(self):
        return seed_exercise()

    def rule(self, asked: str) -> str:
        return asked  # seed or strict: PLAYGROUND_VERDICT and an activity's are checked where they are set

    def cases(self, rule: str, rng: random.Random) -> list[dict]:
        config = current_app.config
        return value_sets(rule, config["VERIFY_FRESH_SETS"], rng, config["VERIFY_FRESH_GRAPHS"])

    @property
    def files(self) -> dict[str, bytes]:
        return archived_files()

    @property
    def sandbox(self) -> dict[str, bytes]:
        return engine_files()

    def version(self, rule: str) -> str:
        return seed_version(rule)

    def diagnosed(self, plain: object, leaves: list[str]) -> str | None:
        return diagnosed(plain, leaves)


@cache
def seed_version(verdict: str) -> str:
    """A hash of the seed's engine archive and its page's cases under a rule."""
    cases = json.dumps(graded_cases(verdict), sort_keys=True).encode()
    return hashlib.sha256(engine_archive() + cases).hexdigest()[:16]


def diagnosed(plain: object, leaves: list[str]) -> str | None:
    """The mistake one value set's pass shows (the seed's diagnosis's), or None when it is no pass."""
    try:
        trace = from_plain(plain)
    except ValueError:  # not a pass's shape: the learner's code wrote it, or it was not sent
        return None
    try:
        names = [name for name, _ in trace.labelled(leaves)]
        return mistake(trace, names, diagnose(trace, names))["kind"]
    except Exception:  # noqa: BLE001 - a pass of the right shape the diagnosis cannot read: said, not fatal
        current_app.logger.exception("a pass the sandbox sent could not be diagnosed")
        return None


def graded(id_: str | None) -> Graded:
    """The served exercise a Check names (None: LEGACY, the seed's, as every Check before exercises);
    NotServed when this server serves no such exercise."""
    id_ = LEGACY if id_ is None else id_
    registry = current_app.extensions.get("exercises")
    if not isinstance(id_, str) or registry is None or registry.exercise(id_) is None:
        raise NotServed(not_served(id_))
    known = current_app.extensions.setdefault("graded", {})  # per app: its registry's exercises
    if id_ not in known:
        known[id_] = (Seed if id_ == LEGACY else Graded)(registry, id_)
    return known[id_]


def exercise_of(payload: dict, launch: dict | None) -> Graded:
    """The exercise a posted Check (/verify's, POST /record's) is of: its `exercise` (absent: LEGACY),
    or its launch's; a launch's wins, and a Check that names another is refused (NotServed)."""
    asked = payload.get("exercise")
    launched = launch.get("exercise") if launch is not None else None
    if launched is not None and asked is not None and asked != launched:
        raise NotServed(
            gettext(
                "This page's launch opened the exercise %(launched)s, not %(exercise)s.",
                launched=launched,
                exercise=json.dumps(asked)[:60],
            )
        )
    return graded(launched if launched is not None else asked)


def not_served(id_: object) -> str:
    """What a Check of an exercise not served here is told."""
    if not isinstance(id_, str):
        return gettext("The exercise must be named by its id, as text.")
    return gettext("No exercise %(exercise)s is served here.", exercise=json.dumps(id_)[:60])
