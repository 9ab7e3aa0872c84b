"""The report's shape: the one contract of a Check's result, for the page, course sites and tests.

The grader (grade.py, errors.py) and /verify make their reports with these functions. The two kinds of
error only the page can see (the code ran past the time limit or was stopped; the runtime died) are made
there from shape(), which the page's config carries: no other code states a field or a kind.
"""

# Every error kind, with the heading the page shows above its message.
KINDS = {
    "syntax": "Syntax error",
    "runtime": "Your code raised an error",
    "timeout": "Stopped",
    "crash": "The runtime crashed",
    "output": "Printed too much",
}
# The fields of each object in a report (docs/page-contract.md lists the same, and server/schema.py
# makes the JSON Schema that tests hold real reports to, from these).
FIELDS = {
    "report": ("passed", "expressions", "error", "order", "output", "ms"),
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
    "case": ("values", "expected", "got", "right", "passed", "example"),
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
    "error": ("kind", "message", "line", "traceback"),
    "output": ("text", "cut_chars"),
    # A Run of the scratch pad (engine/scratch.py): what it printed and drew, never a verdict.
    "run": ("output", "error", "drawings", "cut_drawings", "ms"),
    "drawing": ("line", "file", "label", "size", "out", "nodes", "calls"),
}

# The messages the page sends to a page that frames it (static/js/hosting/events.js), version 1: the
# fields of each beside "type" and "version". server/schema.py makes their JSON Schema from these.
EVENTS = {
    "ready": ("exercise",),
    "checked": ("passed", "attempt", "expressions", "error", "hintsShown", "order", "verified", "receipt"),
    "resize": ("height",),
}
EVENT_EXPRESSION = ("name", "passed", "extra")  # each of a checked message's expressions


def error(kind: str, message: str, line: int | None = None, trace: str = "") -> dict:
    """Build the report's error object."""
    if kind not in KINDS:
        raise ValueError(f"not an error kind: {kind!r}")
    return {"kind": kind, "message": message, "line": line, "traceback": trace}


def no_output() -> dict:
    """The output of code that printed nothing."""
    return {"text": "", "cut_chars": 0}


def failed(err: dict | None) -> dict:
    """The report of a Check that graded nothing (its code did not run, or ended the Check)."""
    return {"passed": False, "expressions": [], "error": err, "order": None, "output": no_output(), "ms": 0}


def failed_run(err: dict | None) -> dict:
    """The result of a Run that drew nothing (its code did not run, or ended early)."""
    return {"output": no_output(), "error": err, "drawings": [], "cut_drawings": 0, "ms": 0}


def shape() -> dict:
    """What the page needs to make and read reports: the kinds, a failed report and Run to fill in."""
    return {
        "kinds": KINDS,
        "failed": failed(None),
        "failedRun": failed_run(None),
        "error": error("crash", ""),
        "fields": FIELDS,
    }
