"""Grade a learner's backward(out): run it on every case and compare with the expected gradients."""

import time
from json import dumps, loads  # bound now: learner code that replaces json's functions cannot reach these

from engine.cases import role
from engine.compare import leaves_right
from engine.diagnose import MAX_PICTURE, diagnose, mistake, number, picture, too_deep
from engine.errors import (
    FILENAME,
    describe,
    fatal,
    learner_line,
    learner_traceback,
    runtime_error,
    text,
)
from engine.expressions import describe as formula_of
from engine.integrity import GraderChanged, Seal
from engine.learner_side import LearnerSide
from engine.namespace import new_engine
from engine.output import CappedOutput
from engine.report import error, failed
from engine.trace import Trace, watched_build

MAX_SOURCE = 100_000  # characters: more is refused before it runs
AFTER_BACKWARD = " (after your backward returned, reading the leaves' .grad)"
GRADER_CHANGED = "Your code changed the grader's own code, so this Check cannot be graded"
# The exception that ended the last Check, with the frames (and all the learner's code built) it holds:
# kept until the next Check, so its report is not held up by freeing millions of objects (seconds in
# the browser, whose runtime is thrown away after the Check anyway).
left_behind: list[BaseException] = []


def run_learner(source: str, side: LearnerSide) -> tuple[dict, dict | None]:
    """Run the learner's source beside a fresh engine; return the engine and any error."""
    engine = new_engine()
    try:
        code = compile(source, FILENAME, "exec")
    except (SyntaxError, ValueError) as exc:  # ValueError: a null byte in the source
        line = getattr(exc, "lineno", None)
        return engine, error("syntax", describe(exc), line)
    namespace = dict(engine, __name__="__main__")
    del namespace["backward"]  # the engine's placeholder: backward must be the learner's own
    try:
        with side.learner():
            exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 - learner code may raise anything; the fatal ones end the Check
        if fatal(exc):
            raise
        return engine, learner_error(exc, source, side)
    backward = namespace.get("backward")
    if not callable(backward):
        return engine, error("runtime", "Your code defines no function backward(out).", None)
    engine["backward"] = backward
    return engine, None


def learner_error(exc: BaseException, source: str, side: LearnerSide, note: str = "") -> dict:
    """Describe an exception of the learner's code, with what they should know of the recursion cap."""
    err = runtime_error(exc, source, note)
    if cap_note := side.note(err["message"]):
        err["message"] += cap_note
        err["traceback"] += cap_note
    return err


def watching(engine: dict, traces: list, graph: dict) -> None:
    """Make the engine's build() watch each graph it builds, out of the learner's sight.

    graph["rows"]: the rows of the graph the case under way gives as data (/verify's random ones).
    """
    build = engine["build"]

    def watched(expr, vals):
        leaves, out, made, named = watched_build(engine, build, expr, vals, graph["rows"])
        traces.append(Trace(made, out, named))
        return leaves, out

    engine["build"] = watched


def as_floats(grads: list, leaves: list[str], source: str) -> tuple[list[float], dict | None]:
    """Read each leaf's gradient as a float; or say which one is no number, and why."""
    got = []
    for name, grad in zip(leaves, grads, strict=True):
        try:
            got.append(float(grad))
        except Exception as exc:  # noqa: BLE001 - a learner's grad may be anything
            if fatal(exc):
                raise
            line = learner_line(exc)  # a __float__ of theirs
            message = f"The gradient of {name} is {text(grad)}, which is not a number: {describe(exc)}"
            return got, error("runtime", message, line, learner_traceback(exc, source) if line else "")
    return got, None


def grade_case(
    engine: dict, case: dict, source: str, traces: list, side: LearnerSide
) -> tuple[dict, dict | None, Trace | None]:
    """Grade one value set; return the case's result, any error it raised and the watched pass."""
    values = list(case["values"])
    result = {"values": values, "expected": list(case["expected"]), "got": None, "right": None}
    result["passed"] = False
    traces.clear()
    engine["graph"]["rows"] = case.get("graph")
    try:
        with side.learner():
            grads = engine["grads_of"](case["expr"], list(values), [0.0] * len(values))
    except Exception as exc:  # noqa: BLE001 - the fatal ones end the Check
        if fatal(exc):
            raise
        return result, learner_error(exc, source, side, AFTER_BACKWARD), traces[-1] if traces else None
    got, err = as_floats(grads, case["leaves"], source)
    if err is not None:
        return result, err, traces[-1]
    try:
        SEAL.check()  # the learner's code for this value set has run: the grader must be as it was
    except GraderChanged as exc:
        return result, error("runtime", f"{GRADER_CHANGED} ({exc}).", None), traces[-1]
    result["right"] = leaves_right(got, result["expected"])  # each leaf's mark, as the page shows it
    result["passed"] = all(result["right"])
    result["got"] = [number(g) for g in got]  # nan and inf as text: JSON has no word for them
    return result, None, traces[-1]


def explain(
    expr: dict, case: dict, index: int, err: dict | None, trace: Trace | None, side: LearnerSide
) -> None:
    """Add the diagnosis and the picture of one value set (the first wrong one) to the expression."""
    if trace is None:
        return
    expr["size"] = len(trace.values)
    wrong = not expr["cases"][index]["passed"]
    drawn = len(trace.values) <= MAX_PICTURE
    labelled = trace.labelled(expr["leaves"]) if drawn or (err is None and wrong) else []  # names cost time
    if err is None and wrong:
        names = [name for name, _ in labelled]
        expr["diagnosis"] = diagnose(trace, names)
        expr["mistake"] = mistake(trace, names, expr["diagnosis"])
    elif err is not None and err["message"].startswith("RecursionError"):
        expr["diagnosis"] = [too_deep(trace, side.recursion_limit)]
    if drawn:  # a larger graph is explained in words only
        expr["graph"] = {"case": index, **picture(trace, labelled, case.get("expected_nodes"))}


def grade(source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """Run the learner's source on every case and return its report (engine/report.py, README).

    sink, when given, receives what the code prints as it prints it (see CappedOutput).
    stopping, when given, is called once an exception that ends the Check has left the learner's
    code: the page then knows Python is writing the report, not running (or catching) the learner's.
    """
    start = time.perf_counter()
    left_behind.clear()
    output = CappedOutput(sink)
    reason = refusal(source)
    if reason:
        report = failed(error("syntax", reason))
    else:
        side = LearnerSide(output)
        try:
            with side:
                report = run(source, cases, side)
        except BaseException as exc:  # noqa: BLE001 - an interrupt, SystemExit, MemoryError... ends the Check
            if stopping is not None:
                stopping()
            note = " (raised outside your code, while the grader read what it left behind)"
            report = failed(learner_error(exc, source, side, note))
            left_behind.append(exc)
    report["output"] = output.report()
    report["ms"] = round((time.perf_counter() - start) * 1000, 3)
    return report


def grader(cases_json: str):
    """Parse the cases once; return what the browser's worker calls: (source, sink, stopping) -> JSON."""
    cases = loads(cases_json)
    for case in cases:
        formula_of(case["expr"])  # worked out now, before the browser's snapshot: not in every Check
    return lambda source, sink=None, stopping=None: dumps(grade(source, cases, sink, stopping))


def refusal(source: object, what: str = "Your code") -> str | None:
    """Say why source is not run at all, or None when it may run; what names it ("The scratch pad")."""
    if not isinstance(source, str):
        return f"{what} must be text, not {type(source).__name__}."
    if len(source) > MAX_SOURCE:
        return f"{what} is {len(source):,} characters; the limit is {MAX_SOURCE:,}."
    return None


def run(source: str, cases: list[dict], side: LearnerSide) -> dict:
    """Run the learner's code on every case; return the report without timing and output.

    An exception that ends the Check (fatal) propagates from here: no further value set runs.
    """
    engine, err = run_learner(source, side)
    expressions: list[dict] = []
    if err is None:
        traces: list[Trace] = []
        engine["graph"] = {"rows": None}  # the engine's namespace, not the learner's: out of their sight
        watching(engine, traces, engine["graph"])
        by_name: dict[str, dict] = {}
        shown: dict[str, tuple] = {}  # the value set each expression is explained with
        for case in cases:
            name = case["expr"]
            if name not in by_name:
                by_name[name] = new_expression(case)
                expressions.append(by_name[name])
            expr = by_name[name]
            result, case_err, trace = grade_case(engine, case, source, traces, side)
            result["example"] = bool(case.get("example"))
            expr["cases"].append(result)
            expr["passed"] = expr["passed"] and result["passed"]
            if name not in shown or (shown[name][0]["passed"] and not result["passed"]):
                shown[name] = (result, case, len(expr["cases"]) - 1, case_err, trace)
            if case_err is not None:
                expr.setdefault("error", case_err)
                if not expr["extra"]:
                    err = err or case_err
        for name, (_, case, index, case_err, trace) in shown.items():
            explain(by_name[name], case, index, case_err, trace, side)
    graded = [e for e in expressions if not e["extra"]]
    passed = err is None and bool(graded) and all(e["passed"] for e in graded)
    return {"passed": passed, "expressions": expressions, "error": err, "order": order(expressions, err)}


def order(expressions: list[dict], err: dict | None) -> str | None:
    """Say what the graphs that tell orders apart show: "right", "wrong", "error" (the code raised on
    one, its gradients right on the others), or None where none was graded or the Check itself failed.

    The deep chain counts only when it is wrong for another reason than recursion depth: a recursive
    search is a right order.
    """
    if err is not None or not any(e["role"] == "order" for e in expressions):
        return None
    telling = [e for e in expressions if tells_order(e)]
    failing = [e for e in telling if not e["passed"]]
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


def new_expression(case: dict) -> dict:
    """Start an expression's part of the report."""
    return {
        "name": case["expr"],
        **formula_of(case["expr"]),  # "formula", "about": the expression in words
        "leaves": list(case["leaves"]),
        "extra": bool(case.get("extra")),
        "role": role(case["expr"]),
        "passed": True,
        "cases": [],
        "mistake": None,
        "diagnosis": [],
        "graph": None,
    }


SEAL = Seal()  # every engine module the grader uses is loaded by now, before any learner code
