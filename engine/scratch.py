"""Run the scratch pad: the learner's own Values through their backward, with draw(v) to picture them.

A Run is never a Check: nothing here compares with a reference. The learner's backward (the main
editor's code) runs first in the same namespace, unless they turned that off; then the scratch pad's
code, at module level. Every _backward call on every Value is recorded as it happens, so draw(v) can
show the graph that ends at v as it is then, and step through the calls that reached it.
"""

import sys
import time
import traceback
from json import dumps

from engine.drawing import FILES, SCRATCH_FILE, Recorder, drawing
from engine.errors import FILENAME, cap, describe, fatal
from engine.grade import refusal
from engine.learner_side import LearnerSide
from engine.namespace import new_engine
from engine.output import CappedOutput, PrintedTooMuch
from engine.report import error, failed_run

MAX_DRAWINGS = 10  # draw() calls drawn in one Run; more are counted


def learner_error(exc: BaseException, sources: dict[str, str], side: LearnerSide) -> dict:
    """Describe an exception of the learner's code: its file and line, a traceback of their frames."""
    if isinstance(exc, SyntaxError) and exc.filename in FILES:
        frames = [(exc.filename, exc.lineno or 0, "<module>")]
    else:
        frames = [
            (frame.f_code.co_filename, lineno, frame.f_code.co_name)
            for frame, lineno in traceback.walk_tb(exc.__traceback__)
            if frame.f_code.co_filename in FILES
        ]
    lines = ["Traceback (your code only):"] if frames else []
    for filename, lineno, name in frames[-20:]:  # the innermost: a recursion names the same lines
        where = "scratch pad" if FILES[filename] == "scratch" else "your backward's editor"
        lines.append(f"  {where}, line {lineno}" + ("" if name == "<module>" else f", in {name}"))
        text = sources[FILES[filename]].splitlines()
        if 0 < lineno <= len(text):
            lines.append("    " + cap(text[lineno - 1].strip(), 200))
    flood = isinstance(exc, PrintedTooMuch)
    message = str(exc) if flood else describe(exc) + side.note(describe(exc))
    kind = "syntax" if isinstance(exc, SyntaxError) else "output" if flood else "runtime"
    last = frames[-1] if frames else None
    err = error(
        kind, message, last[1] if last else None, cap("\n".join(lines)) + ("\n" if lines else "") + message
    )
    err["file"] = FILES[last[0]] if last else None
    return err


def run(scratch: str, backward: str | None, sink=None, stopping=None) -> dict:
    """Run the scratch pad (after the learner's backward, unless None); return what it printed and drew.

    sink and stopping as for grade(): what is printed goes to sink as it is printed; stopping is
    called once an exception that ends the Run has left the learner's code.
    """
    start = time.perf_counter()
    output = CappedOutput(sink)
    result = failed_run(None)
    reason = refusal(scratch, "The scratch pad") or (
        backward is not None and refusal(backward, "The code in the editor")
    )
    if reason:
        result["error"] = error("syntax", reason) | {"file": None}
        return result
    sources = {"scratch": scratch, "editor": backward or ""}
    side = LearnerSide(output)
    engine = new_engine()
    recorder = Recorder(engine["Value"])

    def draw(v) -> None:
        """Draw the graph that ends at v, as it is now (the picture appears below the scratch pad)."""
        if not isinstance(v, engine["Value"]):
            raise TypeError(f"draw() takes a Value, not {type(v).__name__}")
        if len(result["drawings"]) >= MAX_DRAWINGS:
            result["cut_drawings"] += 1
            return
        result["drawings"].append(drawing(v, sys._getframe(1), recorder))

    namespace = dict(engine, __name__="__main__", draw=draw)
    del namespace["backward"]  # the engine's placeholder: backward is the learner's, or not there
    try:
        with side:
            try:
                with side.learner():
                    if backward is not None:
                        exec(compile(backward, FILENAME, "exec"), namespace)
                    exec(compile(scratch, SCRATCH_FILE, "exec"), namespace)
            except Exception as exc:  # noqa: BLE001 - learner code may raise anything; the fatal ones end the Run
                if fatal(exc):
                    raise
                result["error"] = learner_error(exc, sources, side)
    except BaseException as exc:  # noqa: BLE001 - an interrupt, SystemExit, MemoryError, a flood... ends the Run
        if stopping is not None:
            stopping()
        result["error"] = learner_error(exc, sources, side)
    if recorder.dropped:
        output.write(f"\n[{recorder.dropped:,} more _backward calls were not recorded for the pictures]\n")
    result["output"] = output.report()
    result["ms"] = round((time.perf_counter() - start) * 1000, 3)
    return result


def runner():
    """Return what the browser's worker calls: (scratch, backward, sink, stopping) -> JSON."""
    return lambda scratch, backward=None, sink=None, stopping=None: dumps(
        run(scratch, backward, sink, stopping)
    )
