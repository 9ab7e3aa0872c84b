"""The seed's explanation of a group: its first wrong case's diagnosis, named mistake and picture."""

from engine.learner_side import LearnerSide
from engine.picture import MAX_PICTURE, picture

from .diagnose import diagnose, mistake, too_deep
from .trace import Trace


class Shown:
    """The value set an expression is explained with: its first wrong one (else its first), and its run."""

    __slots__ = ("case", "index", "result", "error", "trace")

    def __init__(self, case: dict, index: int, result: dict, error: dict | None, trace: Trace | None) -> None:
        self.case, self.index, self.result, self.error, self.trace = case, index, result, error, trace


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
        expected = (shown.case.get("data") or {}).get("nodes")
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
