"""Checks back to back (a script grading many submissions, a learner pressing twice): each in a new runtime.

Runtimes prepared beside the next one when Checks come quickly (runtime/page/pool.js, prepare) are
restored from the same snapshot as every other, and each is used once: a counter that learner code keeps
at module level, in the runtime's own modules and globals, is 1 in every Check.
"""

from tests.browser.pages import open_playground
from tests.support.solutions import CORRECT

COUNTED = (
    CORRECT
    + """
import builtins, sys
import js

sys.checks_here = getattr(sys, "checks_here", 0) + 1
builtins.checks_here = getattr(builtins, "checks_here", 0) + 1
js.checksHere = (getattr(js, "checksHere", None) or 0) + 1
print("checks in this runtime:", sys.checks_here, builtins.checks_here, js.checksHere)
"""
)

# each started when the last resolved
TEN_IN_A_ROW = """async (source) => {
  const reports = [];
  for (let i = 0; i < 10; i++) reports.push(await window.playground.check(source));
  return reports.map((r) => ({ passed: r.passed, error: r.error, output: r.output.text }));
}"""


def test_ten_checks_back_to_back_each_run_in_a_new_runtime(page, base_url):
    open_playground(page, base_url)
    for _ in range(2):  # the second ten start with runtimes the first ten left prepared
        for report in page.evaluate(TEN_IN_A_ROW, COUNTED):
            assert report["passed"], report["error"]
            assert report["output"] == "checks in this runtime: 1 1 1\n"
