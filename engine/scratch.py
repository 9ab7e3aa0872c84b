"""Run the scratch pad: the learner's own Values through their code, with draw(v) to picture them.

A Run is never a Check: nothing here compares with a reference. The learner's code (the main editor's:
the names the exercise has them write) runs first in the same namespace, beside a fresh copy of the
exercise's engine, unless they turned that off; then the scratch pad's code, at module level. Every
_backward call on every Value is recorded as it happens (watch.py), so draw(v) can show the graph that
ends at v as it is then, and step through the calls that reached it.
"""

import sys
from json import dumps

from engine import report
from engine.drawing import drawing
from engine.errors import FILENAME, SCRATCH_FILE, fatal, learner_error, refusal
from engine.learner_side import LearnerSide
from engine.namespace import new_engine
from engine.outputs import within
from engine.watch import Watcher
from engine.words import N_, _, ngettext

MAX_DRAWINGS = 10  # draw() calls drawn in one Run; more are counted


def value_repr(value) -> str:
    """micrograd's own repr of a Value, which a Run's print(x) shows: Value(data=2.0, grad=0.0)."""
    return f"Value(data={value.data}, grad={value.grad})"


def run_scratch(exercise, scratch: str, backward: str | None, sink=None, stopping=None) -> dict:
    """Run the scratch pad (after the editor's code, backward, unless None) beside the exercise's engine
    (engine/descriptor.py's); return what it printed and drew.

    sink and stopping as for grade(): what is printed goes to sink as it is printed; stopping is
    called once an exception that ends the Run has left the learner's code.
    """
    result = report.run_result()
    reason = refusal(scratch, N_("The scratch pad")) or (
        backward is not None and refusal(backward, N_("The code in the editor"))
    )
    if reason:
        result["error"] = report.error("syntax", reason)
        return result
    sources = {"scratch": scratch, "editor": backward or ""}

    def work(side: LearnerSide) -> None:
        engine = new_engine(exercise)  # this Run's own copy: what is set on its Value here reaches no Check
        if "Value" in engine:  # the one Value class, as the learner's backward sees it
            engine["Value"].__repr__ = value_repr
        # None until there is a Value to watch: an engine whose Value the learner writes (learner_writes)
        watcher = Watcher(engine) if "Value" in engine else None

        def draw(v) -> None:
            """Draw the graph that ends at v, as it is now (the picture appears below the scratch pad)."""
            if watcher is None or not isinstance(v, watcher.value_class):
                raise TypeError(_("draw() takes a Value, not {type}", type=type(v).__name__))
            if len(result["drawings"]) >= MAX_DRAWINGS:
                result["cut_drawings"] += 1
                return
            result["drawings"].append(drawing(v, sys._getframe(1), watcher, sources))

        namespace = dict(engine, __name__="__main__", draw=draw)
        for name in exercise.learner_writes:  # the engine's placeholders: the learner's, or not there
            namespace.pop(name, None)
        try:
            with side.learner():
                if backward is not None:
                    exec(compile(backward, FILENAME, "exec"), namespace)
                placeholder = engine.get("Value")
                for name in exercise.learner_writes:  # the engine's own code calls the learner's, as in a
                    if name in namespace:  # Check (outputs.load): 2 * a, made by an engine's BaseValue
                        engine[name] = namespace[name]
                if "Value" in namespace and namespace["Value"] is not placeholder:
                    # the learner wrote Value (an exercise's learner_writes): watch theirs, which the
                    # scratch pad's code makes its values from
                    watcher = Watcher(engine)
                exec(compile(scratch, SCRATCH_FILE, "exec"), namespace)
        except Exception as exc:  # noqa: BLE001 - learner code may raise anything; the fatal ones end the Run
            if fatal(exc):
                raise
            hints = engine.get("Value") if exercise.engine_hints else None  # for the seed's Value only
            result["error"] = learner_error(exc, sources, side, value_class=hints)
        finally:
            if watcher is not None and watcher.dropped:
                side.output.write(
                    "\n"
                    + ngettext(
                        "[{n} more _backward call was not recorded for the pictures]",
                        "[{n} more _backward calls were not recorded for the pictures]",
                        watcher.dropped,
                    )
                    + "\n"
                )

    _grades, err, result["output"], result["ms"] = within(sources, work, sink, stopping, outside="")
    result["error"] = err or result["error"]
    return result


def runner(exercise):
    """What the browser's worker calls for the exercise: (scratch, backward, sink, stopping) -> JSON."""
    return lambda scratch, backward=None, sink=None, stopping=None: dumps(
        run_scratch(exercise, scratch, backward, sink, stopping)
    )
