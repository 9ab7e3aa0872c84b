"""Run the learner's code on an exercise's cases and read the numbers its call gives: nothing compared.

The grader (grade.py, which compares and explains) and /verify's sandbox (compute(), which hands back
only the numbers) run the learner's code through here, so both run it the same way: the exercise's
engine, fresh (namespace.py), with the names the learner writes (its learner_writes) taken from their
code, and its call (engine/descriptor.py) evaluated on each case's inputs.
"""

import time

from engine import report
from engine.errors import FILENAME, describe, fatal, learner_error, refusal
from engine.learner_side import LearnerSide
from engine.namespace import new_engine
from engine.output import CappedOutput
from engine.plugin import NOT_A_NUMBER
from engine.report import text
from engine.watch import Watcher
from engine.words import N_, _

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


def load(exercise, source: str, side: LearnerSide) -> tuple[dict, dict | None]:
    """Run the learner's source beside a fresh engine; return the engine with the names the learner's
    code defines (the exercise's learner_writes) put in place of its own, or an error."""
    engine = new_engine(exercise)
    namespace = dict(engine, __name__="__main__")
    for name in exercise.learner_writes:  # the engine's placeholders: these must be the learner's own
        namespace.pop(name, None)
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
    for name in exercise.learner_writes:
        if not callable(namespace.get(name)):
            return engine, report.error("runtime", missing(name, engine.get(name)))
        engine[name] = namespace[name]
    return engine, None


def missing(name: str, placeholder: object) -> str:
    """Say that the learner's code does not define name: as a function with its parameters where the
    engine's placeholder is one (backward(out)), else by its name."""
    code = getattr(placeholder, "__code__", None)
    if code is None:
        return _("Your code defines no {name}.", name=name)
    called = name + "(" + ", ".join(code.co_varnames[: code.co_argcount]) + ")"
    return _("Your code defines no function {name}.", name=called)


class Runner:
    """The learner's code, loaded once, run on one case after another: the exercise's call, read as
    numbers.

    With watch, the engine's Values are watched (watcher: every _backward call, every build the plugin
    records) for its picture and diagnosis; the plugin's load() and prepare() hooks run here too.
    """

    def __init__(self, exercise, source: str, side: LearnerSide, watch: bool = False) -> None:
        self.exercise, self.source, self.side = exercise, source, side
        self.engine, self.error = load(exercise, source, side)
        self.watcher = Watcher(self.engine) if watch and self.error is None else None
        if self.error is None:
            exercise.plugin.load(self)

    def outputs(self, case: dict) -> tuple[list[float] | None, dict | None]:
        """Evaluate the exercise's call on one case: its numbers as floats, or the error its run raised."""
        local = dict(case["inputs"], group=case["group"])
        try:
            with self.side.learner():
                got = eval(self.exercise.call_code, self.engine, local)  # noqa: S307 - the exercise's own call
        except Exception as exc:  # noqa: BLE001 - the fatal ones end the Check
            if fatal(exc):
                raise
            note = self.exercise.plugin.after_call
            return None, learner_error(exc, {"editor": self.source}, self.side, note)
        return as_floats(got, case["leaves"], self.source, self.exercise.plugin.not_a_number)


def as_floats(
    numbers: object, leaves: list[str], source: str, not_a_number: str = NOT_A_NUMBER
) -> tuple[list[float] | None, dict | None]:
    """Read the call's numbers as floats, one per leaf; or say which one is no number, and why (in
    not_a_number's words, with {value}, {grad} and {error})."""
    if not isinstance(numbers, list | tuple) or len(numbers) != len(leaves):
        message = _(
            "The grader's call gave {got}, not one number for each of {names}.",
            got=text(numbers),
            names=", ".join(leaves),
        )
        return None, report.error("runtime", message)
    got = []
    for name, number in zip(leaves, numbers, strict=True):
        try:
            got.append(float(number))
        except Exception as exc:  # noqa: BLE001 - a learner's number may be anything
            if fatal(exc):
                raise
            err = learner_error(exc, {"editor": source})  # a __float__ of theirs, or no line at all
            err["message"] = _(not_a_number, value=name, grad=text(number), error=err["message"])
            if err["line"] is None:
                err["traceback"] = ""
            return None, err
    return got, None


def compute(exercise, source: str, cases: list[dict], sink=None, stopping=None) -> dict:
    """What /verify's sandbox hands back: each case's numbers as the report gives them (None where its run
    raised), the plugin's data of each (the seed's: its pass as plain data; None without), the first
    error, and the output. The server compares and names; nothing here decides."""
    got: list[list | None] = []
    data: list[object] = []
    reason = refusal(source)
    if reason:
        return {
            "got": got,
            "data": data,
            "error": report.error("syntax", reason),
            "output": report.no_output(),
        }
    plugin = exercise.plugin

    def work(side: LearnerSide) -> dict | None:
        runner = Runner(exercise, source, side, watch=plugin.watch)
        if runner.error is not None:
            return runner.error
        first = None
        for case in cases:
            mark = plugin.prepare(runner, case)
            numbers, err = runner.outputs(case)
            got.append(None if numbers is None else [report.number(g) for g in numbers])
            data.append(plugin.sandbox_data(runner, case, mark))
            first = first or err
        return first

    err, fatal_err, output, _ms = within({"editor": source}, work, sink, stopping)
    return {"got": got, "data": data, "error": fatal_err or err, "output": output}
