"""Each named mistake and error kind in a teacher's words: a short name and what the learner's code did.

The keys are the seed's MISTAKES (exercises/backward/plugin/kinds.py) and engine/report.py's KINDS (an
attempt's `mistake`); English here, the class view says them in the teacher's language (the catalogue
has them).
"""

from flask_babel import gettext

from engine import report
from engine.words import N_
from exercises.backward.plugin import kinds

MISTAKES = {
    "nothing": (N_("Does nothing yet"), N_("No _backward() ran and out.grad stayed 0.")),
    "out-grad": (N_("out.grad not 1"), N_("out.grad was not set to 1 before out passed its gradient on.")),
    "reversed": (
        N_("Order not reversed"),
        N_("_backward() ran from the leaves towards out: the topological order, not reversed."),
    ),
    "direct": (
        N_("Sets .grad by hand"),
        N_("The code changed a .grad itself instead of letting _backward() add to it."),
    ),
    "repeated": (
        N_("A _backward() ran twice"),
        N_("A value's _backward() ran more than once, passing its gradient on again."),
    ),
    "early": (
        N_("Passed on too early"),
        N_("A value passed its gradient on before it had all of it (a breadth-first order, say)."),
    ),
    "never": (N_("A _backward() never ran"), N_("Some value's _backward() was never called.")),
    "wrong": (N_("Wrong gradients"), N_("Gradients wrong, with none of the named causes found.")),
    "syntax": (N_("Syntax error"), N_("The code could not be read as Python.")),
    "runtime": (N_("Raised an error"), N_("The code raised an exception (a name not defined, say).")),
    "timeout": (
        N_("Stopped at the time limit"),
        N_("The code ran until the time limit: often a loop that never ends."),
    ),
    "crash": (N_("The runtime crashed"), N_("Python itself stopped (a recursion far too deep, say).")),
    "output": (N_("Printed too much"), N_("The code printed more than the playground keeps.")),
}
assert set(MISTAKES) == set(kinds.MISTAKES) | set(report.KINDS)


def title(mistake: str | None) -> str:
    """The mistake's short name in the teacher's language (an unknown key as it is)."""
    return gettext(MISTAKES[mistake][0]) if mistake in MISTAKES else str(mistake or "")


def about(mistake: str | None) -> str:
    """What the learner's code did, in a sentence."""
    return gettext(MISTAKES[mistake][1]) if mistake in MISTAKES else ""
