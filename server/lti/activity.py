"""The teacher's choice for one activity: its verdict and language, from Deep Linking to each launch.

The Deep Linking page (server/lti/deep_linking.py's deep_link) offers the server's verdicts
(exercises/backward/seed.py's VERDICTS) and its languages (server/page/i18n.py), or the learner's own; the
teacher's choice goes into the Deep Linking item's custom parameters (`verdict`, `language`), which
the LMS sends back in every launch of the activity (the custom claim). A launch keeps them
(launches.rule, launches.language): the page, /verify's receipt, the grade and the recorded Checks
follow them, and so does the exercise a teacher's class view opens (server/classview/exercise.py).
Without them, the server's PLAYGROUND_VERDICT and the learner's own language hold.

A custom value the server does not know (a teacher's typo in the LMS's activity settings, a language
this server no longer speaks) is refused with a page that names it, rather than ignored: ignored, the
activity would grade by another rule than the one its teacher chose, and no one would know.
"""

import jwt

from engine.words import N_
from exercises.backward.seed import VERDICTS
from server.lti.claims import CUSTOM
from server.lti.tool import ToolKeys
from server.page import i18n

VERDICT = "verdict"  # the custom parameters' names
LANGUAGE = "language"
LEARNERS_OWN = ""  # the language choice that sets no language: the learner's own (server/page/i18n.py)
OFFER_AUDIENCE = "backprop-playground:deep-link"
OFFER_S = 3600  # how long a teacher has to choose, between the LMS's Deep Linking launch and the click
# Each verdict as the Deep Linking page and the class view say it (docs/verdict.md's words).
VERDICT_WORDS = {
    "seed": N_("The seed's three expressions right (neuron, reuse, chain), whatever the order"),
    "strict": N_(
        "The right order on every graph: the seed's three, the graphs that tell orders apart, "
        "and fresh random graphs at each verification"
    ),
}
if VERDICT_WORDS.keys() != VERDICTS.keys():
    raise RuntimeError("each verdict of exercises/backward/seed.py's VERDICTS needs its words here")


class UnknownChoice(ValueError):
    """A custom parameter of the launch names a verdict or language the server does not have."""

    def __init__(self, name: str, value: object, known: list[str]) -> None:
        super().__init__(name, value)
        self.name, self.value, self.known = name, str(value)[:100], known


def chosen(data: dict) -> tuple[str | None, str | None]:
    """The launch's activity's verdict and language (None: not chosen); UnknownChoice for one not known."""
    custom = data.get(CUSTOM)
    if not isinstance(custom, dict):
        return None, None
    rule = custom.get(VERDICT)
    if rule is not None and (not isinstance(rule, str) or rule not in VERDICTS):
        raise UnknownChoice(VERDICT, rule, list(VERDICTS))
    language = custom.get(LANGUAGE)
    if language is not None and language != LEARNERS_OWN:
        if i18n.known(language) != language:
            raise UnknownChoice(LANGUAGE, language, i18n.languages())
    return rule, language or None


def custom_params(rule: str, language: str) -> dict[str, str]:
    """The Deep Linking item's custom parameters for a teacher's choice (the learner's own language: none)."""
    return {VERDICT: rule} | ({LANGUAGE: language} if language != LEARNERS_OWN else {})


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
