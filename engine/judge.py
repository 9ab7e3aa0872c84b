"""Judge a learner's gradients: each value set's against the expected ones, each expression's and the
Check's pass, and what the graphs that tell orders apart show.

The one place a verdict is decided from the numbers. The page's grader (grade.py) judges each value set
as soon as it has run; /verify's server process judges the numbers its sandbox returned, outside the
sandbox (server/sandbox/judging.py), so nothing the learner's code does there decides.
"""

from engine import report
from engine.cases import role
from engine.compare import leaves_right
from engine.expressions import words


class Judging:
    """A report being judged, one value set after another, in the cases' order."""

    def __init__(self) -> None:
        self.expressions: dict[str, dict] = {}
        self.error: dict | None = None  # the first error of a counted expression's value set

    def add(self, case: dict, got: list | None, err: dict | None = None) -> dict:
        """Judge one value set: got is its gradients as the report gives them (report.number's), or None
        where its run raised err. Return its expression's part of the report, the result last of its cases.
        """
        name = case["expr"]
        if name not in self.expressions:
            self.expressions[name] = report.expression(
                name, words(name), list(case["leaves"]), bool(case.get("extra")), role(name)
            )
        expr = self.expressions[name]
        result = report.case(
            list(case["values"]), list(case["expected"]), bool(case.get("example")), bool(case.get("fresh"))
        )
        if got is not None:
            result["got"] = got
            result["right"] = leaves_right(got, result["expected"])  # each leaf's mark, as the page shows it
            result["passed"] = all(result["right"])
        expr["cases"].append(result)
        expr["passed"] = expr["passed"] and result["passed"]
        if err is not None:
            expr.setdefault("error", err)
            if not expr["extra"]:
                self.error = self.error or err
        return expr

    def report(self, err: dict | None, rule: str) -> dict:
        """The report (its output and time added once known): err, when given, is the error that came
        before any value set (the code did not load, the sandbox failed); a pass needs every counted
        expression's every value set right and no error."""
        err = err or self.error
        expressions = list(self.expressions.values())
        graded = [e for e in expressions if not e["extra"]]
        passed = err is None and bool(graded) and all(e["passed"] for e in graded)
        return report.report(expressions, err, order(expressions, err), rule, passed)


def order(expressions: list[dict], err: dict | None) -> str | None:
    """Say what the graphs that tell orders apart show: "right", "wrong", "error" (the code raised on
    one, its gradients right on the others), or None where none was graded or the Check itself failed.

    The deep chain counts only when it is wrong for another reason than recursion depth: a recursive
    search is a right order.
    """
    if err is not None or not any(e["role"] == "order" for e in expressions):
        return None
    failing = [e for e in expressions if tells_order(e) and not e["passed"]]
    if not failing:
        return "right"
    return "wrong" if any(e.get("error") is None for e in failing) else "error"


def tells_order(expr: dict) -> bool:
    """Whether an expression's result says something of the order: the order graphs, and the lesson
    when a recursive search did not stop at Python's recursion limit on it."""
    return expr["role"] == "order" or (expr["role"] == "lesson" and not too_deep_for(expr))


def too_deep_for(expr: dict) -> bool:
    """Whether an expression failed only because a recursive search met Python's recursion limit."""
    return any(d["kind"] == "recursion" for d in expr["diagnosis"])
