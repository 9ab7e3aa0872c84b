"""The teacher's choice for one activity: its exercise, verdict and language, from Deep Linking to each
launch.

The Deep Linking page (server/lti/deep_linking.py) offers each served exercise (the registry's,
server/exercises/registry.py), then that exercise's verdicts (its words, from its folder) and the server's
languages (server/page/i18n.py), or the learner's own; the teacher's choice goes into the Deep Linking
item's custom parameters (`exercise`, `verdict`, `language`), which the LMS sends back in every launch of
the activity (the custom claim). A launch keeps them (launches.exercise, launches.rule,
launches.language): the page, /verify's receipt, the grade and the recorded Checks follow them, and so do
the teacher's class view and the exercise it opens (server/classview/). An activity added before there
were several exercises has no `exercise`: it is the seed's (LEGACY). Without a verdict, the server's
PLAYGROUND_VERDICT where the exercise has it (else the exercise's first); without a language, the
learner's own.

A custom value the server does not know (a teacher's typo in the LMS's activity settings, an exercise no
longer served, a verdict the activity's exercise does not have, a language this server no longer
speaks) is refused with a page that names it, rather than ignored: ignored, the activity would grade
another exercise, or by another rule, than the one its teacher chose, and no one would know.
"""

from typing import NamedTuple

import jwt
from flask import current_app
from flask_babel import gettext

from engine.words import N_
from server.exercises.folder import Exercise
from server.exercises.registry import LEGACY
from server.lti.claims import CUSTOM
from server.lti.tool import ToolKeys
from server.page import i18n

EXERCISE = "exercise"  # the custom parameters' names
VERDICT = "verdict"
LANGUAGE = "language"
LEARNERS_OWN = ""  # the language choice that sets no language: the learner's own (server/page/i18n.py)
OFFER_AUDIENCE = "backprop-playground:deep-link"
OFFER_S = 3600  # how long a teacher has to choose, between the LMS's Deep Linking launch and the click
# The one verdict of an exercise whose folder names none (`all`, server/exercises/folder.py), in words.
ALL_GROUPS = N_("Every group of the exercise right")


class Choice(NamedTuple):
    """An activity's exercise (its id), its verdict and its language (None: not chosen)."""

    exercise: str
    rule: str | None
    language: str | None


class UnknownChoice(ValueError):
    """A custom parameter of the launch names an exercise, verdict or language the server does not have."""

    def __init__(self, name: str, value: object, known: list[str], named: bool = True) -> None:
        super().__init__(name, value)
        self.name, self.value, self.known = name, str(value)[:100], known
        self.named = named  # False: the activity names no exercise (added before exercises): the seed's


def served() -> list[Exercise]:
    """The exercises this server serves, in the course's order."""
    return current_app.extensions["exercises"].exercises()


def exercise(id_: object) -> Exercise | None:
    """A served exercise by its id (None: not served, or not an id)."""
    return current_app.extensions["exercises"].exercise(id_) if isinstance(id_, str) else None


def default_verdict(of: Exercise) -> str:
    """The verdict of an activity of this exercise whose teacher chose none: the server's
    PLAYGROUND_VERDICT where the exercise has it, else the exercise's first."""
    verdicts = of.verdicts()
    setting = current_app.config["VERDICT"]
    return setting if setting in verdicts else next(iter(verdicts))


def verdict_words(of: Exercise, rule: str) -> str:
    """A verdict of an exercise in words, in the request's language (its folder's words, else English's;
    the one verdict of an exercise that names none: the catalogue's)."""
    words = of.words.get(i18n.select_locale()) or of.words["en"]
    said = words.get("verdicts", {}).get(rule) or of.words["en"].get("verdicts", {}).get(rule)
    if said:
        return said
    return gettext(ALL_GROUPS) if rule == "all" else rule


def chosen(data: dict) -> Choice:
    """The launch's activity's exercise, verdict and language; UnknownChoice for one not known here."""
    custom = data.get(CUSTOM)
    custom = custom if isinstance(custom, dict) else {}
    asked = custom.get(EXERCISE, LEGACY)  # an activity added before exercises: the seed's
    found = exercise(asked)
    if found is None:
        raise UnknownChoice(EXERCISE, asked, [e.id for e in served()], named=EXERCISE in custom)
    rule = custom.get(VERDICT)
    if rule is not None and (not isinstance(rule, str) or rule not in found.verdicts()):
        raise UnknownChoice(VERDICT, rule, list(found.verdicts()))
    language = custom.get(LANGUAGE)
    if language is not None and language != LEARNERS_OWN:
        if i18n.known(language) != language:
            raise UnknownChoice(LANGUAGE, language, i18n.languages())
    return Choice(found.id, rule, language or None)


def custom_params(exercise_id: str, rule: str, language: str) -> dict[str, str]:
    """The Deep Linking item's custom parameters for a teacher's choice (the learner's own language: none)."""
    chosen_ = {EXERCISE: exercise_id, VERDICT: rule}
    return chosen_ | ({LANGUAGE: language} if language != LEARNERS_OWN else {})


def offer(keys: ToolKeys, deep_link: dict, lifetime_s: int = OFFER_S) -> str:
    """A signed token for the Deep Linking page's form: the platform, client, deployment, its settings and
    the teacher's language, so the tool can sign the response once the teacher has chosen."""
    return keys.signed({"dl": deep_link}, OFFER_AUDIENCE, lifetime_s)


def offered(keys: ToolKeys, token: str) -> dict | None:
    """What an offer token carries, once its signature, expiry, issuer and audience hold; else None."""
    try:
        claims = keys.checked(token, OFFER_AUDIENCE, ["dl"])
    except jwt.PyJWTError:
        return None
    return claims["dl"] if isinstance(claims["dl"], dict) else None
