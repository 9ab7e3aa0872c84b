"""Grade a learner's backward(out): run it on every case and compare with the expected gradients."""

import time
import traceback

from engine.fresh import fresh_engine

FILENAME = "<editor>"  # the learner's code, as tracebacks name it


def close(got: float, expected: float) -> bool:
    """Compare as design.md says: equal to 9 digits, or within 1e-9 (relative above 1)."""
    if round(got, 9) == round(expected, 9):
        return True
    return abs(got - expected) <= 1e-9 * max(1.0, abs(expected))


def learner_line(exc: BaseException) -> int | None:
    """Return the line of the learner's code nearest to where exc was raised, if any."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        return exc.lineno
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == FILENAME:
            line = lineno
    return line


def error(kind: str, message: str, line: int | None = None) -> dict:
    """Build the report's error object."""
    return {"kind": kind, "message": message, "line": line}


def describe(exc: BaseException) -> str:
    """Say what went wrong in one line, the way Python's traceback ends."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]


def run_learner(source: str) -> tuple[dict, dict | None]:
    """Run the learner's source beside a fresh engine; return the engine and any error."""
    engine = fresh_engine()
    try:
        code = compile(source, FILENAME, "exec")
    except (SyntaxError, ValueError) as exc:  # ValueError: a null byte in the source
        line = getattr(exc, "lineno", None)
        message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        return engine, error("syntax", f"{type(exc).__name__}: {message}", line)
    namespace = dict(engine, __name__="__main__")
    del namespace["backward"]  # the engine's placeholder: backward must be the learner's own
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - learner code may raise anything
        return engine, error("runtime", describe(exc), learner_line(exc))
    backward = namespace.get("backward")
    if not callable(backward):
        return engine, error("runtime", "Your code defines no function backward(out).", None)
    engine["backward"] = backward
    return engine, None


def grade_case(engine: dict, case: dict) -> tuple[dict, dict | None]:
    """Grade one value set; return the case's result and any error it raised."""
    values = list(case["values"])
    result = {"values": values, "expected": list(case["expected"]), "got": None, "passed": False}
    try:
        got = [float(g) for g in engine["grads_of"](case["expr"], list(values), [0.0] * len(values))]
    except BaseException as exc:  # noqa: BLE001
        line = learner_line(exc)
        where = "" if line else " (after your backward returned, reading the leaves' .grad)"
        return result, error("runtime", describe(exc) + where, line)
    result["got"] = got
    result["passed"] = all(close(g, e) for g, e in zip(got, result["expected"], strict=True))
    return result, None


def grade(source: str, cases: list[dict]) -> dict:
    """Run the learner's source on every case and return the report design.md describes."""
    start = time.perf_counter()
    engine, err = run_learner(source)
    expressions: list[dict] = []
    if err is None:
        by_name: dict[str, dict] = {}
        for case in cases:
            expr = by_name.get(case["expr"])
            if expr is None:
                expr = {"name": case["expr"], "leaves": list(case["leaves"]), "passed": True, "cases": []}
                by_name[case["expr"]] = expr
                expressions.append(expr)
            result, case_err = grade_case(engine, case)
            result["example"] = bool(case.get("example"))
            expr["cases"].append(result)
            expr["passed"] = expr["passed"] and result["passed"]
            if case_err is not None:
                expr["error"] = case_err
                err = err or case_err
    passed = err is None and bool(expressions) and all(e["passed"] for e in expressions)
    ms = (time.perf_counter() - start) * 1000
    return {"passed": passed, "expressions": expressions, "error": err, "ms": round(ms, 3)}
