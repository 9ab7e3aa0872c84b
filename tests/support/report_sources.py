"""One learner source for each kind of report the grader makes: a pass, a fail and each kind of error."""

from tests.support import solutions

SOURCES = {
    "right": solutions.CORRECT,
    "wrong": solutions.NOT_REVERSED,
    "syntax": "def backward(out)\n",
    "runtime": "def backward(out):\n    raise ValueError('no')\n",
    "refused": "#" * 100_001,
}
