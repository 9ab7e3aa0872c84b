"""Errors in the learner's terms: the line of their code, a traceback of their frames, sizes capped.

One formatter for a Check (the editor's code only) and a Run (the editor's and the scratch pad's).
"""

import traceback

from engine.output import PrintedTooMuch
from engine.report import MAX_TEXT, cap, error

FILENAME = "<editor>"  # the learner's backward, as tracebacks name it
SCRATCH_FILE = "<scratch>"  # the scratch pad's code
FILES = {FILENAME: "editor", SCRATCH_FILE: "scratch"}  # the report's name for each (report.FILES)
PLACES = {"editor": "your backward's editor", "scratch": "scratch pad"}  # where a Run's line is
MAX_SOURCE = 100_000  # characters: more is refused before it runs


def fatal(exc: BaseException) -> bool:
    """Whether an exception ends the whole Check: an interrupt, SystemExit, MemoryError..."""
    return not isinstance(exc, Exception) or isinstance(exc, MemoryError)


def refusal(source: object, what: str = "Your code") -> str | None:
    """Say why source is not run at all, or None when it may run; what names it ("The scratch pad")."""
    if not isinstance(source, str):
        return f"{what} must be text, not {type(source).__name__}."
    if len(source) > MAX_SOURCE:
        return f"{what} is {len(source):,} characters; the limit is {MAX_SOURCE:,}."
    return None


def describe(exc: BaseException) -> str:
    """Say what went wrong, the way Python's traceback ends, cut to a readable length."""
    name = type(exc).__name__
    try:
        detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    except Exception:  # noqa: BLE001 - a learner's __str__ may raise anything
        detail = "<the exception's message could not be printed>"
    return f"{name}: {cap(detail)}" if detail else name  # cut before joining: the message may be huge


def frames_of(exc: BaseException) -> list[tuple[str, int, str]]:
    """The learner's frames of exc, outermost first: (file, line, function), file "editor" or "scratch"."""
    if isinstance(exc, SyntaxError) and exc.filename in FILES:
        return [(FILES[exc.filename], exc.lineno or 0, "<module>")]
    return [  # walk_tb, not extract_tb: no source lookups, so a 1,000-frame recursion stays cheap
        (FILES[frame.f_code.co_filename], lineno, frame.f_code.co_name)
        for frame, lineno in traceback.walk_tb(exc.__traceback__)
        if frame.f_code.co_filename in FILES
    ]


def learner_traceback(frames: list[tuple[str, int, str]], sources: dict[str, str]) -> str:
    """Write the learner's frames, each with its line of their code; a frame repeated more than
    three times is said once, as Python does. With two sources, each line names its editor."""
    out = ["Traceback (your code only):"] if frames else []
    repeats = 0
    for i, (file, lineno, name) in enumerate(frames):
        repeats = repeats + 1 if i and frames[i] == frames[i - 1] else 0
        if repeats >= 3:
            if i + 1 == len(frames) or frames[i + 1] != frames[i]:
                out.append(f"  [Previous line repeated {repeats - 2} more times]")
            continue
        where = f"{PLACES[file]}, line {lineno}" if len(sources) > 1 else f"line {lineno}"
        out.append(f"  {where}" + ("" if name == "<module>" else f", in {name}"))
        lines = sources.get(file, "").splitlines()
        if 0 < lineno <= len(lines):
            out.append("    " + cap(lines[lineno - 1].strip(), 200))
    return cap("\n".join(out))


def learner_error(exc: BaseException, sources: dict[str, str], side=None, note: str = "") -> dict:
    """Describe an exception of the learner's code, in their terms: its kind, their line and file, a
    traceback of their frames. sources: "editor" (and "scratch", in a Run) -> the code. note explains
    an error raised outside their lines; side adds what they should know of the recursion cap."""
    frames = frames_of(exc)
    file, line = frames[-1][:2] if frames else (None, None)
    if isinstance(exc, PrintedTooMuch):  # not an error of theirs: their output, stopped
        kind, message = "output", str(exc)
    else:
        kind = "syntax" if isinstance(exc, SyntaxError) else "runtime"
        message = describe(exc) + (note if line is None else "")
        if side is not None:
            message += side.note(message)
    written = learner_traceback(frames, sources)
    return error(kind, message, line, f"{written}\n{message}" if written else message, file)


__all__ = ["MAX_TEXT", "cap"]  # kept importable from here: errors' sizes
