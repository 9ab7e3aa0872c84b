"""The report's shape: the one contract of a Check's result, for the page, course sites and tests.

Every object of a report, of a Run of the scratch pad and of /verify's answer is built here, by the
function named after it, with the fields FIELDS lists; nothing else builds one. The two kinds of error
only the page can see (the code ran past the time limit or was stopped; the runtime died) are made
there from shape(), which the page's config carries: no other code states a field or a kind.
"""

import math
import re

from engine.words import N_, _, ngettext

# Every error kind, with the heading the page shows above its message.
KINDS = {  # English here: the page says each in the learner's language (the catalogue has them)
    "syntax": N_("Syntax error"),
    "runtime": N_("Your code raised an error"),
    "timeout": N_("Stopped"),
    "crash": N_("The runtime crashed"),
    "output": N_("Printed too much"),
}
# A named mistake's key, and a diagnosis line's kind: an exercise's own (its mistakes; a plugin's kinds,
# the seed's in exercises/backward/plugin/kinds.py), never an error kind.
KEY = re.compile(r"[a-z][a-z0-9-]{0,39}")
# The fields of each object in a report (docs/page-contract.md lists the same, and server/contract/schema.py
# makes the JSON Schema that tests hold real reports to, from these and the kinds above).
FIELDS = {
    "report": ("exercise", "passed", "expressions", "error", "order", "rule", "output", "ms"),
    "expression": (
        "name",
        "formula",
        "about",
        "extra",
        "role",
        "passed",
        "leaves",
        "size",
        "cases",
        "mistake",
        "diagnosis",
        "graph",
        "error",
    ),
    "case": ("values", "expected", "got", "right", "passed", "example", "fresh"),
    "mistake": ("kind", "message", "node"),
    "diagnosis": ("kind", "message", "node"),
    "graph": ("case", "out", "nodes", "calls"),
    # A value of a graph's picture (the report's graph and a drawing's), and a _backward call.
    "node": (
        "id",
        "label",
        "formula",
        "op",
        "children",
        "data",
        "start",
        "grad",
        "expected",
        "wrong",
        "calls",
    ),
    "call": ("node", "changes"),
    "change": ("node", "before", "after"),
    "error": ("kind", "message", "line", "traceback", "file"),
    "output": ("text", "cut_chars"),
    # A Run of the scratch pad (engine/scratch.py): what it printed and drew, never a verdict.
    "run": ("output", "error", "drawings", "cut_drawings", "ms"),
    "drawing": ("line", "file", "label", "size", "out", "nodes", "calls"),
}
# Where a traceback's line is: the editor (backward's code) or the scratch pad.
FILES = ("editor", "scratch")

# The messages the page sends to a page that frames it (static/js/hosting/events.js), version 1: the
# fields of each beside "type" and "version". server/contract/schema.py makes their JSON Schema from these.
EVENTS = {
    "ready": ("exercise",),
    "checked": (
        "exercise",
        "passed",
        "attempt",
        "expressions",
        "error",
        "hintsShown",
        "order",
        "verified",
        "receipt",
    ),
    "resize": ("height",),
}
EVENT_EXPRESSION = ("name", "passed", "extra")  # each of a checked message's expressions


def number(x: object) -> float | str:
    """Give a grad as JSON can carry it: a finite float, or its text (nan, inf, or not a number at all)."""
    if type(x) in (int, float):  # exactly: a subclass of the learner's may do anything in float()
        try:
            x = float(x)
        except OverflowError:  # an int beyond any float
            return text(x)
        return x if math.isfinite(x) else str(x)
    return text(x)


MAX_TEXT = 2000  # characters of a message, and of a traceback's frames: the rest is cut, and the cut said


def cap(written: str, limit: int = MAX_TEXT) -> str:
    """Cut text to limit characters, saying how much was cut."""
    if len(written) <= limit:
        return written
    cut = len(written) - limit
    return written[:limit] + ngettext("… [{n} more character cut]", "… [{n} more characters cut]", cut)


def text(x: object, limit: int = 40) -> str:
    """Write any object briefly: its repr cut to limit, or its type where even repr() fails."""
    try:
        return cap(repr(x), limit)
    except Exception:  # noqa: BLE001 - a learner's __repr__ may raise anything
        return _("<a {type} that cannot be printed>", type=type(x).__name__)


def report(
    expressions: list[dict], err: dict | None, order: str | None, rule: str, passed: bool, exercise: str = ""
) -> dict:
    """Build a Check's report of an exercise (its id; its output and time are added once known)."""
    return {
        "exercise": exercise,
        "passed": passed,
        "expressions": expressions,
        "error": err,
        "order": order,
        "rule": rule,
        "output": no_output(),
        "ms": 0,
    }


def failed(err: dict | None, rule: str = "seed", exercise: str = "") -> dict:
    """The report of a Check that graded nothing (its code did not run, or ended the Check)."""
    return report([], err, None, rule, False, exercise)


def expression(name: str, words: dict, leaves: list[str], extra: bool, role: str) -> dict:
    """Start an expression's part of a report: words is its {"formula", "about"} (expressions.py).

    Its size (the number of values of the graph it is explained with) stays None where no graph was
    built to explain it: at /verify, or where the learner's code broke the build."""
    return {
        "name": name,
        "formula": words["formula"],
        "about": words["about"],
        "extra": extra,
        "role": role,
        "passed": True,
        "leaves": leaves,
        "size": None,
        "cases": [],
        "mistake": None,
        "diagnosis": [],
        "graph": None,
    }


def case(values: list, expected: list, example: bool, fresh: bool = False) -> dict:
    """Start one value set's result: no gradients yet (got and right stay None if its run raised)."""
    return {
        "values": values,
        "expected": expected,
        "got": None,
        "right": None,
        "passed": False,
        "example": example,
        "fresh": fresh,
    }


def finding(kind: str, node: int | None, message: str) -> dict:
    """One line of an expression's diagnosis (a plugin's): what happened at one value (node)."""
    if not KEY.fullmatch(kind) or kind in KINDS:
        raise ValueError(f"not a kind of finding: {kind!r}")
    return {"kind": kind, "message": message, "node": node}


def mistake(kind: str, node: int | None, message: str) -> dict:
    """The one mistake an expression comes down to (an exercise's key, or a plugin's kind), in its words."""
    if not KEY.fullmatch(kind) or kind in KINDS:
        raise ValueError(f"not a kind of mistake: {kind!r}")
    return {"kind": kind, "message": message, "node": node}


def graph(case_index: int | None, out: int, nodes: list[dict], calls: list[dict]) -> dict:
    """A picture's graph: the value set it shows (None for a drawing), out, every value, every call."""
    return {"case": case_index, "out": out, "nodes": nodes, "calls": calls}


def node(
    i: int, label: str, formula, op, children: list[int], data, start, grad, expected, wrong: bool, calls
):
    """One value of a picture."""
    return {
        "id": i,
        "label": label,
        "formula": formula,
        "op": op,
        "children": children,
        "data": number(data),
        "start": number(start),
        "grad": number(grad),
        "expected": expected,
        "wrong": wrong,
        "calls": calls,
    }


def call(node_index: int, changes: list[dict]) -> dict:
    """One _backward call of a picture, with what it changed."""
    return {"node": node_index, "changes": changes}


def change(node_index: int, before, after) -> dict:
    """What one call did to one input's grad."""
    return {"node": node_index, "before": number(before), "after": number(after)}


def error(kind: str, message: str, line: int | None = None, trace: str = "", file: str | None = None) -> dict:
    """Build the report's error object; file says which editor line is in (a Run's two), else None."""
    if kind not in KINDS:
        raise ValueError(f"not an error kind: {kind!r}")
    if file is not None and file not in FILES:
        raise ValueError(f"not a file: {file!r}")
    return {"kind": kind, "message": message, "line": line, "traceback": trace, "file": file}


def output(kept: str, cut_chars: int) -> dict:
    """What the code printed: the text kept, and how many characters past it were cut."""
    return {"text": kept, "cut_chars": cut_chars}


def no_output() -> dict:
    """The output of code that printed nothing."""
    return output("", 0)


def run_result(err: dict | None = None) -> dict:
    """Start a Run's result: nothing printed or drawn yet."""
    return {"output": no_output(), "error": err, "drawings": [], "cut_drawings": 0, "ms": 0}


def drawing(line: int, file: str, label: str | None, size: int, drawn: dict | None) -> dict:
    """One draw(v) of a Run: where it was called, what v is; drawn is its graph() (None: too big)."""
    return {
        "line": line,
        "file": file,
        "label": label,
        "size": size,
        "out": drawn["out"] if drawn else None,
        "nodes": drawn["nodes"] if drawn else None,
        "calls": drawn["calls"] if drawn else [],
    }


def shape(exercise: str = "") -> dict:
    """What the page needs to make and read reports (of an exercise): the kinds, a failed report and Run to
    fill in."""
    return {
        "kinds": KINDS,
        "failed": failed(None, exercise=exercise),
        "failedRun": run_result(),
        "error": error("crash", ""),
        "fields": FIELDS,
    }
