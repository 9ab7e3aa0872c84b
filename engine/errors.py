"""Errors in the learner's terms: the line of their code, a traceback of their frames, sizes capped."""

import traceback

from engine.output import PrintedTooMuch
from engine.report import error

FILENAME = "<editor>"  # the learner's code, as tracebacks name it
MAX_TEXT = 2000  # characters of a message, and of a traceback's frames: the rest is cut, and the cut said


def cap(text: str, limit: int = MAX_TEXT) -> str:
    """Cut text to limit characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit:,} more characters cut]"


def text(x: object, limit: int = 40) -> str:
    """Write any object briefly: its repr cut to limit, or its type where even repr() fails."""
    try:
        return cap(repr(x), limit)
    except Exception:  # noqa: BLE001 - a learner's __repr__ may raise anything
        return f"<a {type(x).__name__} that cannot be printed>"


def fatal(exc: BaseException) -> bool:
    """Whether an exception ends the whole Check: an interrupt, SystemExit, MemoryError..."""
    return not isinstance(exc, Exception) or isinstance(exc, MemoryError)


def describe(exc: BaseException) -> str:
    """Say what went wrong, the way Python's traceback ends, cut to a readable length."""
    name = type(exc).__name__
    try:
        detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    except Exception:  # noqa: BLE001 - a learner's __str__ may raise anything
        detail = "<the exception's message could not be printed>"
    return f"{name}: {cap(detail)}" if detail else name  # cut before joining: the message may be huge


def learner_line(exc: BaseException) -> int | None:
    """Return the line of the learner's code nearest to where exc was raised, if any."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        return exc.lineno
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == FILENAME:
            line = lineno
    return line


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
            out.append("    " + cap(lines[lineno - 1].strip(), 200))
    frames_text = cap("\n".join(out))
    return f"{frames_text}\n{describe(exc)}" if frames_text else describe(exc)


def runtime_error(exc: BaseException, source: str, note: str = "") -> dict:
    """Describe an exception the learner's code raised, in their terms."""
    line = learner_line(exc)
    if isinstance(exc, PrintedTooMuch):  # not an error of theirs: their output, stopped
        return error("output", str(exc), line, learner_traceback(exc, source))
    note = note if line is None else ""  # the note explains an error outside the learner's lines
    return error("runtime", describe(exc) + note, line, learner_traceback(exc, source) + note)
