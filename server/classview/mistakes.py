"""Each mistake in a teacher's words: a short name and what the learner's code did.

An attempt's `mistake` is a key of its exercise's named mistakes, whose words are in that exercise's folder
(words.<lang>.json's `mistakes.<key>.title` and `.about`, in the teacher's language, else English), or one
of the general keys here: engine/report.py's KINDS (an error) and `wrong` (numbers no named mistake
explains; a folder may word it its own way, as the seed's "Wrong gradients"). These are in the catalogue.
"""

from flask_babel import gettext

from engine import report
from engine.words import N_
from server.exercises.folder import WRONG, Exercise
from server.page import i18n

MISTAKES = {
    WRONG: (
        N_("No named mistake"),
        N_("The numbers were wrong, and none of the exercise's named mistakes gives them."),
    ),
    "syntax": (N_("Syntax error"), N_("The code could not be read as Python.")),
    "runtime": (N_("Raised an error"), N_("The code raised an exception (a name not defined, say).")),
    "timeout": (
        N_("Stopped at the time limit"),
        N_("The code ran until the time limit: often a loop that never ends."),
    ),
    "crash": (N_("The runtime crashed"), N_("Python itself stopped (a recursion far too deep, say).")),
    "output": (N_("Printed too much"), N_("The code printed more than the playground keeps.")),
}
assert set(MISTAKES) == {WRONG, *report.KINDS}


def worded(mistake: str | None, exercise: Exercise | None) -> dict:
    """The exercise's words of a mistake in the request's language (else English's); {} where it has none."""
    if exercise is None or not mistake:
        return {}
    said = (exercise.words.get(i18n.select_locale()) or {}).get("mistakes", {}).get(mistake)
    return said or exercise.words.get("en", {}).get("mistakes", {}).get(mistake) or {}


def title(mistake: str | None, exercise: Exercise | None = None) -> str:
    """The mistake's short name in the teacher's language (an unknown key as it is)."""
    if said := worded(mistake, exercise).get("title"):
        return said
    return gettext(MISTAKES[mistake][0]) if mistake in MISTAKES else str(mistake or "")


def about(mistake: str | None, exercise: Exercise | None = None) -> str:
    """What the learner's code did, in a sentence."""
    if said := worded(mistake, exercise).get("about"):
        return said
    return gettext(MISTAKES[mistake][1]) if mistake in MISTAKES else ""
