"""Run the learner's code and their backward on value sets, and read the leaves' gradients: nothing compared.

The grader (grade.py, which watches, compares and explains) and /verify's sandbox (compute(), which
hands back only the numbers) run the learner's code through here, so both run it the same way.
"""

import time

from engine import report
from engine.errors import FILENAME, describe, fatal, learner_error, refusal
from engine.extras import build_graph
from engine.learner_side import LearnerSide
from engine.namespace import new_engine
from engine.output import CappedOutput
from engine.report import text
from engine.trace import plain
from engine.watch import Built, Watcher
from engine.words import N_, _

AFTER_BACKWARD = N_(" (after your backward returned, reading the leaves' .grad)")
OUTSIDE = N_(" (raised outside your code, while the grader read what it left behind)")
# The exception that ended the last Check, with the frames (and all the learner's code built) it holds:
# kept until the next Check, so its report is not held up by freeing millions of objects (seconds in
# the browser, whose runtime is thrown away after the Check anyway).
left_behind: list[BaseException] = []


def within(sources: dict[str, str], work, sink=None, stopping=None, outside: str = OUTSIDE):
    """Run work(side) with the learner's output captured and their builtins apart from the grader's.

    Returns (what work returned, or None; the error that ended it, or None; the output, as the report
    gives it; the milliseconds it took). An exception that ends the whole run (an interrupt, SystemExit,
    MemoryError, a flood of output) becomes that error (outside: what it says when it was raised outside
    the learner's lines); stopping, when given, is called once it has left the learner's code. sink
    receives what is printed as it is printed (see CappedOutput).
    """
    start = time.perf_counter()
    left_behind.clear()
    output = CappedOutput(sink)
    side = LearnerSide(output)
    result, err = None, None
    try:
        with side:
            result = work(side)
    except BaseException as exc:  # noqa: BLE001 - an interrupt, SystemExit, MemoryError... ends the run
        if stopping is not None:
            stopping()
        err = learner_error(exc, sources, side, outside)
        left_behind.append(exc)
    return result, err, output.report(), round((time.perf_counter() - start) * 1000, 3)


def load(source: str, side: LearnerSide) -> tuple[dict, dict | None]:
    """Run the learner's source beside a fresh engine; return the engine with their backward, or an error."""
    engine = new_engine()
    namespace = dict(engine, __name__="__main__")
    del namespace["backward"]  # the engine's placeholder: backward must be the learner's own
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as exc:
        return engine, learner_error(exc, {"editor": source})
    except ValueError as exc:  # a null byte in the source (Python 3.11; later ones raise SyntaxError)
        return engine, report.error("syntax", describe(exc))
    try:
        with side.learner():
            exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 - learner code may raise anything; the fatal ones end the Check
        if fatal(exc):
            raise
        return engine, learner_error(exc, {"editor": source}, side)
    backward = namespace.get("backward")
    if not callable(backward):
        return engine, report.error("runtime", _("Your code defines no function backward(out)."))
    engine["backward"] = backward
    return engine, None


class Runner:
    """The learner's code, loaded once, run on one value set after another.

    With watch, every graph's values and _backward calls are recorded (watcher, built) for a picture and
    a diagnosis; without, the graphs are only built (the sandbox).
    """

    def __init__(self, source: str, side: LearnerSide, watch: bool = False) -> None:
        self.source, self.side = source, side
        self.engine, self.error = load(source, side)
        self.watcher = Watcher(self.engine) if watch and self.error is None else None
        self.rows = None  # the rows of the graph the value set under way gives as data (/verify's)
        self.built: Built | None = None  # the graph built for the value set under way
        build = self.engine["build"]

        def building(expr, vals):  # the engine's, not the learner's: they cannot reach or replace it
            if self.watcher is not None:
                self.built = self.watcher.build(build, expr, vals, self.rows)
                return self.built.leaves, self.built.out
            return build_graph(build, self.engine["Value"], expr, vals, self.rows)[:2]

        self.engine["build"] = building

    def gradients(self, case: dict) -> tuple[list[float] | None, dict | None]:
        """Run grads_of on one value set: the leaves' gradients as floats, or the error its run raised."""
        self.rows, self.built = case.get("graph"), None
        values = list(case["values"])
        try:
            with self.side.learner():
                grads = self.engine["grads_of"](case["expr"], values, [0.0] * len(values))
        except Exception as exc:  # noqa: BLE001 - the fatal ones end the Check
            if fatal(exc):
                raise
            return None, learner_error(exc, {"editor": self.source}, self.side, AFTER_BACKWARD)
        return as_floats(grads, case["leaves"], self.source)


def as_floats(grads: list, leaves: list[str], source: str) -> tuple[list[float] | None, dict | None]:
    """Read each leaf's gradient as a float; or say which one is no number, and why."""
    got = []
    for name, grad in zip(leaves, grads, strict=True):
        try:
            got.append(float(grad))
        except Exception as exc:  # noqa: BLE001 - a learner's grad may be anything
            if fatal(exc):
                raise
            err = learner_error(exc, {"editor": source})  # a __float__ of theirs, or no line at all
            err["message"] = _(
                "The gradient of {value} is {grad}, which is not a number: {error}",
                value=name,
                grad=text(grad),
                error=err["message"],
            )
            if err["line"] is None:
                err["traceback"] = ""
            return None, err
    return got, None


def compute(source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """What /verify's sandbox hands back: each value set's gradients as the report gives them (None where
    its run raised), each one's pass (trace.plain's, None where none was read), the first error, and the
    output. The server compares and diagnoses; nothing here decides."""
    got: list[list | None] = []
    traces: list[dict | None] = []
    reason = refusal(source)
    if reason:
        return {
            "got": got,
            "traces": traces,
            "error": report.error("syntax", reason),
            "output": report.no_output(),
        }

    def work(side: LearnerSide) -> dict | None:
        runner = Runner(source, side, watch=True)
        if runner.error is not None:
            return runner.error
        first = None
        for case in cases:
            mark = len(runner.watcher.calls)
            grads, err = runner.gradients(case)
            got.append(None if grads is None else [report.number(g) for g in grads])
            traces.append(passed_on(runner, mark))
            first = first or err
        return first

    err, fatal_err, output, _ms = within({"editor": source}, work, sink, stopping)
    return {"got": got, "traces": traces, "error": fatal_err or err, "output": output}


def passed_on(runner: Runner, mark: int) -> dict | None:
    """The pass the value set under way made, as plain data; None where none can be read whole (no graph
    built, calls past the watcher's limit) or reading it raised: it never changes the numbers."""
    if runner.built is None or runner.watcher is None or runner.watcher.dropped:
        return None
    try:
        return plain(runner.built, runner.watcher.calls[mark:])
    except Exception as exc:  # noqa: BLE001 - the fatal ones end the Check
        if fatal(exc):
            raise
        return None
