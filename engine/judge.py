"""Judge a learner's numbers: each case's against the expected ones, each group's and the Check's pass,
and, for a group that fails, the named mistake its numbers show (named.py).

The one place a verdict is decided from the numbers. The page's grader (grade.py) judges each case as
soon as it has run; /verify's server process judges the numbers its sandbox returned, outside the
sandbox (server/sandbox/judging.py), so nothing the learner's code does there decides.
"""

from engine import report
from engine.compare import outputs_right
from engine.named import named


class Judging:
    """A report being judged, one case after another, in the cases' order, for one exercise."""

    def __init__(self, exercise) -> None:
        self.exercise = exercise
        self.expressions: dict[str, dict] = {}
        self.error: dict | None = None  # the first error of a counted group's case
        self.numbers: dict[str, list[tuple[list | None, list, dict]]] = {}  # per group: got, expected, wrong

    def add(self, case: dict, got: list | None, err: dict | None = None) -> dict:
        """Judge one case: got is its numbers as the report gives them (report.number's), or None where
        its run raised err. Return its group's part of the report, the result last of its cases."""
        name = case["group"]
        if name not in self.expressions:
            words = self.exercise.words(name)
            role = self.exercise.role(name)
            self.expressions[name] = report.expression(
                name, words, list(case["leaves"]), bool(case.get("extra")), role
            )
        expr = self.expressions[name]
        result = report.case(
            list(case["inputs"]["values"]),
            list(case["expected"]),
            bool(case.get("example")),
            bool(case.get("fresh")),
        )
        if got is not None:
            result["got"] = got
            result["right"] = outputs_right(
                got, result["expected"], self.exercise.tolerance
            )  # as the page shows
            result["passed"] = all(result["right"])
        expr["cases"].append(result)
        expr["passed"] = expr["passed"] and result["passed"]
        self.numbers.setdefault(name, []).append((got, result["expected"], case.get("wrong") or {}))
        if err is not None:
            expr.setdefault("error", err)
            if not expr["extra"]:
                self.error = self.error or err
        return expr

    def name_mistakes(self) -> None:
        """Name each failing group's mistake by its numbers (named.py), where nothing named it before (a
        plugin's diagnosis) or named only that it is wrong."""
        keys = self.exercise.keys
        for name, expr in self.expressions.items():
            if not keys or expr["passed"] or (expr["mistake"] and expr["mistake"]["kind"] != "wrong"):
                continue
            rows = self.numbers[name]
            wrong = {key: [w.get(key) for _, _, w in rows] for key in keys}
            found = named(
                [g for g, _, _ in rows], [e for _, e, _ in rows], wrong, keys, self.exercise.tolerance
            )
            if found is not None:
                expr["mistake"] = report.mistake(found, None, self.exercise.mistake_words(found)["says"])

    def report(self, err: dict | None, rule: str) -> dict:
        """The report (its output and time added once known): err, when given, is the error that came
        before any case (the code did not load, the sandbox failed); a pass needs every counted group's
        every case right and no error."""
        err = err or self.error
        self.name_mistakes()
        expressions = list(self.expressions.values())
        graded = [e for e in expressions if not e["extra"]]
        passed = err is None and bool(graded) and all(e["passed"] for e in graded)
        order = self.exercise.plugin.verdict(expressions, err)
        return report.report(expressions, err, order, rule, passed, self.exercise.id)
