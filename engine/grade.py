"""Grade a learner's code on an exercise: run it on every case, compare with the expected numbers, name
the mistakes, and let the exercise's plugin (if any) explain."""

from json import dumps, loads  # bound now: learner code that replaces json's functions cannot reach these

from engine import report
from engine.descriptor import Descriptor, read
from engine.errors import refusal
from engine.judge import Judging
from engine.learner_side import LearnerSide
from engine.outputs import Runner, within
from engine.words import N_, _

GRADER_CHANGED = N_("Your code changed the grader's own code, so this Check cannot be graded")


def grade(exercise: Descriptor, source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """Run the learner's source on every case and return its report (engine/report.py, docs/page-contract.md).

    sink, when given, receives what the code prints as it prints it (see CappedOutput).
    stopping, when given, is called once an exception that ends the Check has left the learner's
    code: the page then knows Python is writing the report, not running (or catching) the learner's.
    """
    rule = exercise.rule_of(cases)
    reason = refusal(source)
    if reason:
        return report.failed(report.error("syntax", reason), rule, exercise.id)
    graded, err, output, ms = within(
        {"editor": source}, lambda side: grade_cases(exercise, source, cases, side), sink, stopping
    )
    result = graded if err is None else report.failed(err, rule, exercise.id)
    result["output"], result["ms"] = output, ms
    return result


def grade_cases(exercise: Descriptor, source: str, cases: list[dict], side: LearnerSide) -> dict:
    """Run the learner's code on every case, judging each as it has run (judge.py); return the report
    without its output and time.

    An exception that ends the Check (fatal) propagates from here: no further case runs.
    """
    plugin = exercise.plugin
    runner = Runner(exercise, source, side, watch=plugin.watch)
    judging = Judging(exercise)
    for case in cases if runner.error is None else ():
        mark = plugin.prepare(runner, case)
        got, case_err = runner.outputs(case)
        if got is not None and (changed := exercise.seal.broken()) is not None:  # the learner's code has run
            got, case_err = None, report.error("runtime", _(GRADER_CHANGED) + f" ({changed}).")
        # nan and inf as text: JSON has no word for them
        expr = judging.add(case, None if got is None else [report.number(g) for g in got], case_err)
        plugin.ran(runner, case, mark, expr, case_err)
    if runner.error is None:
        plugin.explain(runner, judging.expressions, side)
    return judging.report(runner.error, exercise.rule_of(cases))


def grader(descriptor_json: str, cases_json: str):
    """Read the exercise and parse the cases once; return what the browser's worker calls:
    (source, sink, stopping) -> JSON."""
    exercise = read(descriptor_json)
    cases = loads(cases_json)
    for group in dict.fromkeys(case["group"] for case in cases):
        exercise.words(group)  # worked out now, before the browser's snapshot: not in every Check
    return lambda source, sink=None, stopping=None: dumps(grade(exercise, source, cases, sink, stopping))
