"""Errors in the learner's terms: the line of their code, a traceback of their frames, sizes capped.

One formatter for a Check (the editor's code only) and a Run (the editor's and the scratch pad's).
"""

import re
import traceback

from engine.output import PrintedTooMuch
from engine.report import cap, error
from engine.words import N_, _, ngettext, number

FILENAME = "<editor>"  # the learner's backward, as tracebacks name it
SCRATCH_FILE = "<scratch>"  # the scratch pad's code
FILES = {FILENAME: "editor", SCRATCH_FILE: "scratch"}  # the report's name for each (report.FILES)
PLACES = {"editor": N_("editor"), "scratch": N_("scratch pad")}  # where a Run's line is (any exercise's)
MAX_SOURCE = 100_000  # characters: more is refused before it runs
ENGINE_FILE = "<engine>"  # an exercise's engine code, as tracebacks name it (engine/descriptor.py)

# What a Run says beside Python's own message when the code asks the seed's engine for what it does not
# have: each one sentence, in the learner's terms, with what to write instead (engine_hint picks one and
# says it in the learner's language).
ENGINE_HINTS = {
    "number": N_(
        "This engine's Value has only +, * and tanh, and both sides of + and * must be Values: "
        "write Value(2.0) * x instead of 2 * x, and x + Value(1.0) instead of x + 1."
    ),
    "-": N_(
        "This engine's Value has no subtraction: write x + Value(-1.0) instead of x - 1, "
        "and x + Value(-1.0) * y instead of x - y."
    ),
    "negation": N_("This engine's Value has no negation: write Value(-1.0) * x instead of -x."),
    "/": N_(
        "This engine's Value has no division: multiply by the inverse instead (x * Value(0.5), not x / 2); "
        "dividing by a Value is not in this exercise's engine."
    ),
    "**": N_("This engine's Value has no powers: write x * x instead of x**2."),
    "operator": N_("This engine's Value has only +, * and tanh(), and both sides of + and * must be Values."),
    "compare": N_("A Value is not a number: compare its data (x.data > 0), not the Value (x > 0)."),
    "number wanted": N_("A Value is not a number: use x.tanh() on a Value, or math on its number, x.data."),
    "backward": N_(
        "Here backward is your own function, not a method of Value: "
        "write backward(x) instead of x.backward()."
    ),
    "attribute": N_(
        "This engine's Value has only data, grad, _prev, _backward and tanh(), with + and * between "
        "Values: {name} is not in this exercise's engine."
    ),
}
OPERATOR = re.compile(  # Python's words for 2 * x, x - 1, x **= 2...
    r"unsupported operand type\(s\) for ([^:]+?)=?(?: or pow\(\))?: '([\w.]+)' and '([\w.]+)'"
)
COMPARISON = re.compile(r"'[<>=!]+' not supported between instances of '([\w.]+)' and '([\w.]+)'")
NUMBERS = ("int", "float", "bool")


def fatal(exc: BaseException) -> bool:
    """Whether an exception ends the whole Check: an interrupt, SystemExit, MemoryError..."""
    return not isinstance(exc, Exception) or isinstance(exc, MemoryError)


def refusal(source: object, what: str = N_("Your code")) -> str | None:
    """Say why source is not run at all, or None when it may run; what names it (N_("The scratch pad"))."""
    if not isinstance(source, str):
        return _("{what} must be text, not {type}.", what=_(what), type=type(source).__name__)
    if len(source) > MAX_SOURCE:
        return _(
            "{what} is {size} characters; the limit is {limit}.",
            what=_(what),
            size=number(len(source)),
            limit=number(MAX_SOURCE),
        )
    return None


def describe(exc: BaseException) -> str:
    """Say what went wrong, the way Python's traceback ends, cut to a readable length."""
    name = type(exc).__name__
    try:
        detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    except Exception:  # noqa: BLE001 - a learner's __str__ may raise anything
        detail = _("<the exception's message could not be printed>")
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


def engine_hint(exc: BaseException, value_class: type) -> str | None:
    """What to write instead, when exc says the code asked a Value of the seed's engine for an operation
    it does not have (2 * x, x - 1, x**2, x.relu()...); None for any other error."""
    try:
        hint = hint_for(exc, value_class)
        return None if hint is None else _(hint, name=exc.name if type(exc) is AttributeError else "")
    except Exception:  # noqa: BLE001 - the learner's own exception may break anything asked of it
        return None


def hint_for(exc: BaseException, value_class: type) -> str | None:
    """engine_hint's choice, read from what Python says (its words are the same from 3.11 to 3.14)."""
    name = value_class.__name__
    if type(exc) is AttributeError:
        if isinstance(exc.obj, value_class):
            if exc.name == "backward":  # x.backward(), as in micrograd: here backward(x)
                return ENGINE_HINTS["backward"]
            return ENGINE_HINTS["attribute"]  # x.relu(), x.exp(): {name} filled as it is said
        innermost = list(traceback.walk_tb(exc.__traceback__))[-1][0].f_code
        in_op = innermost.co_filename == ENGINE_FILE and innermost.co_name in ("__add__", "__mul__")
        if not in_op or exc.name != "data":
            return None
        return ENGINE_HINTS["number" if type(exc.obj).__name__ in NUMBERS else "operator"]  # x * 2, x + 1
    if type(exc) is not TypeError:
        return None
    text = str(exc)
    operator, compared = OPERATOR.fullmatch(text), COMPARISON.fullmatch(text)
    if operator and name in operator.groups()[1:]:
        op, left, right = operator.groups()
        if op in ("+", "*"):  # 2 * x, 1 + x: a number (or anything but a Value) on the left
            return ENGINE_HINTS["number" if {left, right} & set(NUMBERS) else "operator"]
        return ENGINE_HINTS.get(op, ENGINE_HINTS["operator"])
    if text == f"bad operand type for unary -: '{name}'":
        return ENGINE_HINTS["negation"]
    if text.startswith("bad operand type for ") and text.endswith(f": '{name}'"):  # +x, abs(x)
        return ENGINE_HINTS["operator"]
    if compared and name in compared.groups():
        return ENGINE_HINTS["compare"]
    if re.search(rf"real number, not '?{name}'?$", text):  # math.tanh(x), float(x)
        return ENGINE_HINTS["number wanted"]
    return None


def learner_traceback(frames: list[tuple[str, int, str]], sources: dict[str, str]) -> str:
    """Write the learner's frames, each with its line of their code; a frame repeated more than
    three times is said once, as Python does. With two sources, each line names its editor."""
    out = [_("Traceback (your code only):")] if frames else []
    repeats = 0
    for i, (file, lineno, name) in enumerate(frames):
        repeats = repeats + 1 if i and frames[i] == frames[i - 1] else 0
        if repeats >= 3:
            if i + 1 == len(frames) or frames[i + 1] != frames[i]:
                out.append(
                    "  "
                    + ngettext(
                        "[Previous line repeated {n} more time]",
                        "[Previous line repeated {n} more times]",
                        repeats - 2,
                    )
                )
            continue
        line = number(lineno, "d")
        where = (
            _("{place}, line {line}", place=_(PLACES[file]), line=line)
            if len(sources) > 1
            else _("line {line}", line=line)
        )
        out.append(f"  {where}" + ("" if name == "<module>" else _(", in {function}", function=name)))
        lines = sources.get(file, "").splitlines()
        if 0 < lineno <= len(lines):
            out.append("    " + cap(lines[lineno - 1].strip(), 200))
    return cap("\n".join(out))


def learner_error(
    exc: BaseException, sources: dict[str, str], side=None, note: str = "", value_class: type | None = None
) -> dict:
    """Describe an exception of the learner's code, in their terms: its kind, their line and file, a
    traceback of their frames. sources: "editor" (and "scratch", in a Run) -> the code. note explains
    an error raised outside their lines; side adds what they should know of the recursion cap;
    value_class (a Run's engine's Value) adds what to write instead of an operation it does not have."""
    frames = frames_of(exc)
    file, line = frames[-1][:2] if frames else (None, None)
    if isinstance(exc, PrintedTooMuch):  # not an error of theirs: their output, stopped
        kind, message = "output", str(exc)
    else:
        kind = "syntax" if isinstance(exc, SyntaxError) else "runtime"
        message = describe(exc) + (_(note) if line is None and note else "")
        if side is not None:
            message += side.note(message)
        hint = value_class is not None and engine_hint(exc, value_class)
        if hint:
            message += "\n" + hint  # below Python's own words, which stay as Python says them
    written = learner_traceback(frames, sources)
    return error(kind, message, line, f"{written}\n{message}" if written else message, file)
