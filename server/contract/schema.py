"""JSON Schemas of the page's contract, made from engine/report.py (FIELDS, the kinds, EVENTS) on request.

A Check's report, a scratch pad Run's result and the messages to an embedding page (and, from their
one home in server/exercises/schemas/, an exercise's data file and its words), each as a JSON Schema
(draft 2020-12) served at <prefix>/schema/<name>.json for test authors, and held to the real thing by the
tests. Every object lists exactly the fields engine/report.py names, all required but
those in OPTIONAL, none other; TYPES says what each field holds. A field engine/report.py gains before
TYPES knows it is required all the same and may hold anything, so a new field flows through at once.
"""

from functools import cache

from flask import Blueprint, abort, jsonify

from engine import report
from engine.report import EVENT_EXPRESSION, EVENTS, FIELDS, FILES, KINDS
from server.exercises import folder
from server.page.names import NAMES
from server.records import export

bp = Blueprint("schema", __name__)

DIALECT = "https://json-schema.org/draft/2020-12/schema"
NULL = {"type": "null"}
INT = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
NUMBER = {"type": "number"}
TEXT = {"type": "string"}
BOOL = {"type": "boolean"}
GRAD = {"type": ["number", "string"]}  # a grad that is not a finite number is given as its text
ORDER = {"enum": ["right", "wrong", "error"]}  # what the graphs that tell orders apart show
# An exercise's id, and a name it gives (a mistake's key, a diagnosis's kind): engine/report.py's KEY. The
# words of a report are any exercise's: its groups' names, roles and verdicts are strings.
KEY = {"type": "string", "pattern": f"^{report.KEY.pattern}$"}


def either(*schemas: dict) -> dict:
    return {"anyOf": list(schemas)}


def ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


def array(items: dict) -> dict:
    return {"type": "array", "items": items}


# What each field holds, by object (engine/report.py FIELDS names the objects and their fields).
TYPES = {
    "report": {
        "exercise": KEY,  # the exercise it grades (its id)
        "passed": BOOL,
        "expressions": array(ref("expression")),
        "error": either(NULL, ref("error")),
        "order": either(NULL, ORDER),
        "rule": TEXT,  # the verdict's name: the exercise's (the seed's: seed, strict)
        "output": ref("output"),
        "ms": NUMBER,
    },
    "expression": {
        "name": TEXT,  # the group's name
        "formula": TEXT,
        "about": TEXT,
        "extra": BOOL,
        "role": TEXT,  # graded, extra, or the plugin's (the seed's: seed, order, lesson)
        "passed": BOOL,
        "leaves": array(TEXT),
        "size": either(NULL, COUNT),  # null: no graph was built to explain it (always at /verify)
        "cases": array(ref("case")),
        "mistake": either(NULL, ref("mistake")),
        "diagnosis": array(ref("diagnosis")),
        "graph": either(NULL, ref("graph")),
        "error": ref("error"),
    },
    "case": {
        "values": array(NUMBER),
        "expected": array(NUMBER),
        "got": either(NULL, array(GRAD)),
        "right": either(NULL, array(BOOL)),
        "passed": BOOL,
        "example": BOOL,
        "fresh": BOOL,  # drawn for this request (only at /verify)
    },
    # a mistake's kind: one of the exercise's keys, a plugin's (the seed's: plugin/kinds.py), or wrong
    "mistake": {"kind": KEY, "message": TEXT, "node": either(NULL, COUNT)},
    "diagnosis": {"kind": KEY, "message": TEXT, "node": either(NULL, COUNT)},
    "graph": {"case": COUNT, "out": COUNT, "nodes": array(ref("node")), "calls": array(ref("call"))},
    "node": {
        "id": COUNT,
        "label": either(NULL, TEXT),
        "formula": either(NULL, TEXT),
        "op": either(NULL, TEXT),
        "children": array(COUNT),
        "data": GRAD,
        "start": GRAD,
        "grad": GRAD,
        "expected": either(NULL, NUMBER),
        "wrong": BOOL,
        "calls": array(COUNT),
    },
    "call": {"node": COUNT, "changes": array(ref("change"))},
    "change": {"node": COUNT, "before": GRAD, "after": GRAD},
    "error": {
        "kind": {"enum": list(KINDS)},
        "message": TEXT,
        "line": either(NULL, INT),
        "traceback": TEXT,
        "file": either(NULL, {"enum": list(FILES)}),  # which editor line is in: a Run's, else null
    },
    "output": {"text": TEXT, "cut_chars": COUNT},
    "run": {
        "output": ref("output"),
        "error": either(NULL, ref("error")),
        "drawings": array(ref("drawing")),
        "cut_drawings": COUNT,
        "ms": NUMBER,
    },
    "drawing": {
        "line": INT,
        "file": {"enum": list(FILES)},
        "label": either(NULL, TEXT),
        "size": COUNT,
        "out": either(NULL, COUNT),
        "nodes": either(NULL, array(ref("node"))),
        "calls": array(ref("call")),
    },
}
# Fields an object may leave out: an expression has an error only when its value set raised.
OPTIONAL = {"expression": {"error"}}


def closed(fields: tuple[str, ...], types: dict, optional: set[str] = frozenset()) -> dict:
    """An object with exactly these fields, each as types says (where silent: anything)."""
    properties = {name: types.get(name, {}) for name in fields}
    required = [name for name in properties if name not in optional]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def definitions() -> dict:
    """Every object of FIELDS as a schema."""
    defs = {
        kind: closed(fields, TYPES.get(kind, {}), OPTIONAL.get(kind, set()))
        for kind, fields in FIELDS.items()
    }
    return defs


def document(title: str, root: str, defs: dict) -> dict:
    return {"$schema": DIALECT, "title": title, **ref(root), "$defs": defs}


def event_types() -> dict:
    """What each field of the messages to an embedding page holds."""
    expression = closed(EVENT_EXPRESSION, {"name": TEXT, "passed": BOOL, "extra": BOOL})
    return {
        "exercise": KEY,  # the page's exercise
        "passed": BOOL,
        "attempt": {"type": "integer", "minimum": 1},
        "expressions": array(expression),
        "error": {"enum": [None, *KINDS]},
        "hintsShown": COUNT,
        "order": either(NULL, ORDER),  # what the graphs that tell orders apart show (the report's order)
        "verified": {"enum": [None, True, False]},  # None: verification off, not a pass, or no answer
        "receipt": either(NULL, {"type": "string", "pattern": r"^[\w-]+\.[\w-]+\.[\w-]+$"}),  # a compact JWT
        "height": {"type": "integer", "minimum": 1},
    }


@cache
def schemas() -> dict[str, dict]:
    """The published schemas, by name."""
    prefix = NAMES["events"]
    defs = definitions()
    types = event_types()
    messages = {
        kind: closed(
            ("type", "version", *fields),
            {"type": {"const": f"{prefix}{kind}"}, "version": {"const": 1}, **types},
        )
        for kind, fields in EVENTS.items()
    }
    return {
        "report": document("The report of a Check: window.playground.check()", "report", defs),
        "run": document("The result of a scratch pad Run: window.playground.run()", "run", defs),
        "attempt": export.schema(),  # a line of the records' export (server/records/export.py)
        "exercise": folder.schema("exercise"),  # an exercise's exercise.json (server/exercises/schemas/)
        "words": folder.schema("words"),  # an exercise's words.<lang>.json
        "course": folder.schema("course"),  # a folder's course.json: its exercises in order, its title
        "events": {
            "$schema": DIALECT,
            "title": "A message to the page that embeds the playground, version 1",
            "oneOf": [ref(kind) for kind in messages],
            "$defs": messages,
        },
    }


@bp.get("/schema/<name>.json")
def schema(name: str):
    """Serve the JSON Schema of a report, a Run's result or the embedding page's messages."""
    if name not in schemas():
        abort(404)
    response = jsonify(schemas()[name])
    response.headers["Cache-Control"] = "no-cache"
    return response
