"""Grade a learner's backward(out): run it on every case and compare with the expected gradients."""

import builtins
import contextlib
import sys
import time
import traceback

from engine.compare import close
from engine.diagnose import diagnose, number, picture, too_deep
from engine.fresh import fresh_engine
from engine.output import CappedOutput
from engine.trace import Trace, watched_build

FILENAME = "<editor>"  # the learner's code, as tracebacks name it
MAX_SOURCE = 100_000  # characters: more is refused before it runs
RECURSION_LIMIT = 1000  # deep enough for the exercise, shallow enough to stay a RecursionError


def learner_line(exc: BaseException) -> int | None:
    """Return the line of the learner's code nearest to where exc was raised, if any."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        return exc.lineno
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == FILENAME:
            line = lineno
    return line


def error(kind: str, message: str, line: int | None = None, trace: str = "") -> dict:
    """Build the report's error object."""
    return {"kind": kind, "message": message, "line": line, "traceback": trace}


def learner_traceback(exc: BaseException, source: str) -> str:
    """Format the traceback with the learner's frames only, each with its line of their code."""
    lines = source.splitlines()
    frames = [  # walk_tb, not extract_tb: no source lookups, so a 1,000-frame recursion stays cheap
        (lineno, frame.f_code.co_name)
        for frame, lineno in traceback.walk_tb(exc.__traceback__)
        if frame.f_code.co_filename == FILENAME
    ]
    out = ["Traceback (your code only):"] if frames else []
    repeats = 0
    for i, (lineno, name) in enumerate(frames):  # (line, function name) pairs
        repeats = repeats + 1 if i and frames[i] == frames[i - 1] else 0
        if repeats >= 3:  # as Python does: say how often a frame repeats instead of listing it
            if i + 1 == len(frames) or frames[i + 1] != frames[i]:
                out.append(f"  [Previous line repeated {repeats - 2} more times]")
            continue
        where = "" if name == "<module>" else f", in {name}"
        out.append(f"  line {lineno}{where}")
        if lineno and lineno <= len(lines):
            out.append("    " + lines[lineno - 1].strip())
    return "\n".join([*out, describe(exc)])


def runtime_error(exc: BaseException, source: str, note: str = "") -> dict:
    """Describe an exception the learner's code raised, in their terms."""
    line = learner_line(exc)
    note = note if line is None else ""  # the note explains an error outside the learner's lines
    return error("runtime", describe(exc) + note, line, learner_traceback(exc, source) + note)


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
        return engine, runtime_error(exc, source)
    backward = namespace.get("backward")
    if not callable(backward):
        return engine, error("runtime", "Your code defines no function backward(out).", None)
    engine["backward"] = backward
    return engine, None


def watching(engine: dict, traces: list) -> None:
    """Make the engine's build() watch each graph it builds, out of the learner's sight."""
    build = engine["build"]

    def watched(expr, vals):
        leaves, out, made = watched_build(engine, build, expr, vals)
        traces.append(Trace(made, out))
        return leaves, out

    engine["build"] = watched


def grade_case(engine: dict, case: dict, source: str, traces: list) -> tuple[dict, dict | None, Trace | None]:
    """Grade one value set; return the case's result, any error it raised and the watched pass."""
    values = list(case["values"])
    result = {"values": values, "expected": list(case["expected"]), "got": None, "passed": False}
    traces.clear()
    try:
        got = [float(g) for g in engine["grads_of"](case["expr"], list(values), [0.0] * len(values))]
    except BaseException as exc:  # noqa: BLE001
        note = " (after your backward returned, reading the leaves' .grad)"
        return result, runtime_error(exc, source, note), traces[-1] if traces else None
    result["passed"] = all(close(g, e) for g, e in zip(got, result["expected"], strict=True))
    result["got"] = [number(g) for g in got]  # nan and inf as text: JSON has no word for them
    return result, None, traces[-1]


def explain(expr: dict, case: dict, index: int, err: dict | None, trace: Trace | None) -> None:
    """Add the diagnosis and the picture of one value set (the first wrong one) to the expression."""
    if trace is None:
        return
    labelled = trace.labelled(expr["leaves"])
    expr["size"] = len(trace.values)
    wrong = not expr["cases"][index]["passed"]
    if err is None and wrong:
        expr["diagnosis"] = diagnose(trace, [name for name, _ in labelled])
    elif err is not None and err["message"].startswith("RecursionError"):
        expr["diagnosis"] = [too_deep(trace, RECURSION_LIMIT)]
    graph = picture(trace, labelled, case.get("expected_nodes"))
    if graph is not None:
        expr["graph"] = {"case": index, **graph}


@contextlib.contextmanager
def guarded(output: CappedOutput):
    """Capture the learner's output; afterwards, undo what they did to builtins and sys."""
    saved_builtins = dict(builtins.__dict__)
    saved_limit = sys.getrecursionlimit()
    saved_streams = sys.stdout, sys.stderr
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            yield
    finally:
        sys.stdout, sys.stderr = saved_streams
        sys.setrecursionlimit(saved_limit)
        builtins.__dict__.clear()
        builtins.__dict__.update(saved_builtins)


def grade(source: str, cases: list[dict]) -> dict:
    """Run the learner's source on every case and return the report design.md describes."""
    start = time.perf_counter()
    output = CappedOutput()
    reason = refusal(source)
    if reason:
        report = {"passed": False, "expressions": [], "error": error("syntax", reason)}
    else:
        with guarded(output):
            report = run(source, cases)
    report["output"] = output.report()
    report["ms"] = round((time.perf_counter() - start) * 1000, 3)
    return report


def refusal(source: object) -> str | None:
    """Say why source is not run at all, or None when it may run."""
    if not isinstance(source, str):
        return f"The code must be text, not {type(source).__name__}."
    if len(source) > MAX_SOURCE:
        return f"Your code is {len(source):,} characters; the limit is {MAX_SOURCE:,}."
    return None


def run(source: str, cases: list[dict]) -> dict:
    """Run the learner's code on every case; return the report without timing and output."""
    engine, err = run_learner(source)
    expressions: list[dict] = []
    if err is None:
        traces: list[Trace] = []
        watching(engine, traces)
        by_name: dict[str, dict] = {}
        shown: dict[str, tuple] = {}  # the value set each expression is explained with
        for case in cases:
            name = case["expr"]
            if name not in by_name:
                by_name[name] = new_expression(case)
                expressions.append(by_name[name])
            expr = by_name[name]
            result, case_err, trace = grade_case(engine, case, source, traces)
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
            explain(by_name[name], case, index, case_err, trace)
    graded = [e for e in expressions if not e["extra"]]
    passed = err is None and bool(graded) and all(e["passed"] for e in graded)
    return {"passed": passed, "expressions": expressions, "error": err}


def new_expression(case: dict) -> dict:
    """Start an expression's part of the report."""
    return {
        "name": case["expr"],
        "leaves": list(case["leaves"]),
        "extra": bool(case.get("extra")),
        "passed": True,
        "cases": [],
        "diagnosis": [],
        "graph": None,
    }
