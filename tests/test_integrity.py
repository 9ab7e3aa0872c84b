"""The grader's seal (engine/integrity.py): learner code that changes the grader in place gets no pass.

Each hostile line is placed before a backward that is wrong (it never reverses the order), which the
change would otherwise make pass. It runs in a Python of its own, as every Check does (a fresh runtime
in the browser, a fresh sandbox at the server); then a correct and a wrong Check come out right.
"""

import json
import subprocess
import sys

import pytest

from engine.grade import GRADER_CHANGED
from server import ROOT
from tests.support import solutions
from tests.support.seed import grade

GRADE = (
    "import json, sys\n"
    "from engine.grade import grade\n"
    "from exercises.backward.seed import exercise\n"
    "print(json.dumps(grade(exercise(), sys.stdin.read(), json.loads(sys.argv[1]))))"
)
ALL_RIGHT = "(lambda got, expected, tolerance=None: [True] * len(got))"
PATCHES = {
    "close-code": (
        "import engine.compare as c\n"
        "c.close.__code__ = (lambda got, expected, tolerance=None: True).__code__\n"
    ),
    "outputs-right-code": f"import engine.compare as c\nc.outputs_right.__code__ = {ALL_RIGHT}.__code__\n",
    "tolerance": "import engine.compare\nengine.compare.TOLERANCE = 1e300\n",
    "rebound-in-judge": f"import engine.judge\nengine.judge.outputs_right = {ALL_RIGHT}\n",
    "plugin-code": (  # the seed's plugin is sealed with the grader
        "import sys\no = sys.modules['exercises.backward.plugin.order']\n"
        "o.order.__code__ = (lambda expressions, err: 'right').__code__\n"
    ),
    "method-code": (
        "import engine.output\n"
        "engine.output.CappedOutput.report.__code__ = (lambda self: {'text': '', 'cut_chars': 0}).__code__\n"
    ),
}


@pytest.mark.parametrize("name", PATCHES)
def test_a_grader_changed_in_place_gets_no_pass_and_the_next_checks_come_out_right(cases, name):
    done = subprocess.run(
        [sys.executable, "-c", GRADE, json.dumps(cases)],
        input=PATCHES[name] + solutions.NOT_REVERSED,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    report = json.loads(done.stdout)
    assert report["passed"] is False
    assert report["error"]["message"].startswith(GRADER_CHANGED), report["error"]
    assert grade(solutions.CORRECT, cases)["passed"] is True, "the seal must not stay broken"
    assert grade(solutions.NOT_REVERSED, cases)["passed"] is False
