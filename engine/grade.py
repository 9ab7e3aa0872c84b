"""Grade a learner's backward(out): run it on every case, compare with the expected gradients, explain."""

from json import dumps, loads  # bound now: learner code that replaces json's functions cannot reach these

from engine import report
from engine.cases import role
from engine.diagnose import diagnose, mistake, too_deep
from engine.errors import refusal
from engine.expressions import words
from engine.gradients import Runner, within
from engine.integrity import Seal
from engine.judge import Judging
from engine.learner_side import LearnerSide
from engine.picture import MAX_PICTURE, picture
from engine.trace import Trace
from engine.words import N_, _

GRADER_CHANGED = N_("Your code changed the grader's own code, so this Check cannot be graded")


class Shown:
    """The value set an expression is explained with: its first wrong one (else its first), and its run."""

    __slots__ = ("case", "index", "result", "error", "trace")

    def __init__(self, case: dict, index: int, result: dict, error: dict | None, trace: Trace | None) -> None:
        self.case, self.index, self.result, self.error, self.trace = case, index, result, error, trace


def grade(source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """Run the learner's source on every case and return its report (engine/report.py, docs/page-contract.md).

    sink, when given, receives what the code prints as it prints it (see CappedOutput).
    stopping, when given, is called once an exception that ends the Check has left the learner's
    code: the page then knows Python is writing the report, not running (or catching) the learner's.
    """
    rule = rule_of(cases)
    reason = refusal(source)
    if reason:
        return report.failed(report.error("syntax", reason), rule)
    graded, err, output, ms = within(
        {"editor": source}, lambda side: grade_cases(source, cases, side), sink, stopping
    )
    result = graded if err is None else report.failed(err, rule)
    result["output"], result["ms"] = output, ms
    return result


def grade_cases(source: str, cases: list[dict], side: LearnerSide) -> dict:
    """Run the learner's code on every case, judging each as it has run (judge.py); return the report
    without its output and time.

    An exception that ends the Check (fatal) propagates from here: no further value set runs.
    """
    runner = Runner(source, side, watch=True)
    judging = Judging()
    shown: dict[str, Shown] = {}
    for case in cases if runner.error is None else ():
        mark = len(runner.watcher.calls)
        got, case_err = runner.gradients(case)
        if got is not None and (changed := SEAL.broken()) is not None:  # the learner's code for it has run
            got, case_err = None, report.error("runtime", _(GRADER_CHANGED) + f" ({changed}).")
        # nan and inf as text: JSON has no word for them
        expr = judging.add(case, None if got is None else [report.number(g) for g in got], case_err)
        result, name = expr["cases"][-1], case["expr"]
        if name not in shown or (shown[name].result["passed"] and not result["passed"]):
            built = runner.built
            trace = Trace(built, runner.watcher.calls[mark:]) if built is not None else None
            shown[name] = Shown(case, len(expr["cases"]) - 1, result, case_err, trace)
    for name, explained in shown.items():
        explain(judging.expressions[name], explained, side)
    return judging.report(runner.error, rule_of(cases))


def explain(expr: dict, shown: Shown, side: LearnerSide) -> None:
    """Add the mistake, diagnosis and picture of one value set (the first wrong one) to the expression."""
    trace = shown.trace
    if trace is None:
        return
    expr["size"] = len(trace.values)
    wrong = not shown.result["passed"]
    drawn = len(trace.values) <= MAX_PICTURE
    labelled = (
        trace.labelled(expr["leaves"]) if drawn or (shown.error is None and wrong) else []
    )  # names cost time
    if shown.error is None and wrong:
        names = [name for name, _ in labelled]
        expr["diagnosis"] = diagnose(trace, names)
        expr["mistake"] = mistake(trace, names, expr["diagnosis"])
    elif shown.error is not None and shown.error["message"].startswith("RecursionError"):
        expr["diagnosis"] = [too_deep(trace, side.recursion_limit)]
    if drawn:  # a larger graph is explained in words only
        expected = shown.case.get("expected_nodes")
        expr["graph"] = picture(
            trace.values,
            trace.out,
            labelled,
            trace.ops,
            trace.children,
            trace.calls,
            case=shown.index,
            expected=expected,
        )


def rule_of(cases: list[dict]) -> str:
    """The verdict's rule the cases follow: "strict" where a graph that tells orders apart counts."""
    return "strict" if any(role(c["expr"]) == "order" and not c.get("extra") for c in cases) else "seed"


def grader(cases_json: str):
    """Parse the cases once; return what the browser's worker calls: (source, sink, stopping) -> JSON."""
    cases = loads(cases_json)
    for case in cases:
        words(case["expr"])  # worked out now, before the browser's snapshot: not in every Check
    return lambda source, sink=None, stopping=None: dumps(grade(source, cases, sink, stopping))


SEAL = Seal()  # every engine module the grader uses is loaded by now, before any learner code
