"""The JSON Schemas of the page contract (server/schema.py) follow engine/report.py, are published, and
real reports and Runs follow them; a report that strays from them is refused."""

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from engine import report as shape
from engine.grade import grade
from engine.scratch import run_scratch
from server import schema
from tests import solutions
from tests.events import assert_message, assert_valid, validator
from tests.report_sources import SOURCES

DRAWS = "a = Value(1.0)\nb = Value(-2.0)\nc = (a * b).tanh()\nbackward(c)\ndraw(c)\n" + "draw(a)\n" * 11
RUNS = {
    "drawn": (DRAWS, solutions.CORRECT),
    "no backward": ("v = Value(3.0)\nprint(v.data)\ndraw(v)\n", None),
    "raises": ("draw(Value(1.0))\n1 / 0\n", solutions.CORRECT),
    "in the editor": (
        "backward(Value(1.0) * Value(2.0))\n",
        "def backward(out):\n    raise ValueError('x')\n",
    ),
    "syntax": ("def (\n", None),
    "flood": ("while True:\n    print('x' * 1000)\n", None),
}


@pytest.fixture(autouse=True)
def fresh_schemas():
    schema.schemas.cache_clear()
    yield
    schema.schemas.cache_clear()


@pytest.mark.parametrize("name", ["report", "run", "events"])
def test_each_schema_is_a_valid_json_schema_and_is_published(client, name):
    Draft202012Validator.check_schema(schema.schemas()[name])
    response = client.get(f"/schema/{name}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.get_json() == json.loads(json.dumps(schema.schemas()[name]))
    assert client.get("/schema/nothing.json").status_code == 404


@pytest.mark.parametrize("name", SOURCES)
def test_every_report_the_grader_makes_follows_the_schema(name, cases):
    assert_valid("report", json.loads(json.dumps(grade(SOURCES[name], cases))))


@pytest.mark.parametrize("name", RUNS)
def test_every_run_follows_the_schema(name):
    scratch, backward = RUNS[name]
    result = json.loads(json.dumps(run_scratch(scratch, backward)))
    assert_valid("run", result)
    if name == "drawn":
        assert result["cut_drawings"] == 2 and result["drawings"][0]["nodes"]


def test_an_error_of_every_kind_follows_it(cases):
    for kind in shape.KINDS:
        assert_valid("report", shape.failed(shape.error(kind, "message", 3, "trace")))
        assert_valid("run", shape.run_result(shape.error(kind, "message", file="scratch")))


def strays(report: dict) -> list[dict]:
    """Reports that differ from a real one in one way the schema forbids."""
    expr = report["expressions"][0]
    changes = [
        lambda r: r.pop("ms"),
        lambda r: r.update(extra_field=1),
        lambda r: r.update(passed="yes"),
        lambda r: r["expressions"][0].update(name="not-an-expression"),
        lambda r: r["expressions"][0]["cases"][0].update(right=[1]),
        lambda r: r["expressions"][0]["cases"][0].pop("example"),
        lambda r: r.update(error={**shape.error("runtime", "m"), "kind": "made-up"}),
        lambda r: r["output"].update(cut_chars=-1),
    ]
    if expr["graph"]:
        changes.append(lambda r: r["expressions"][0]["graph"]["nodes"][0].pop("wrong"))
    out = []
    for change in changes:
        strayed = copy.deepcopy(report)
        change(strayed)
        out.append(strayed)
    return out


def test_a_report_that_strays_from_the_schema_is_refused(cases):
    report = json.loads(json.dumps(grade(solutions.NOT_REVERSED, cases)))
    assert report["expressions"][0]["graph"]
    for strayed in strays(report):
        assert list(validator("report").iter_errors(strayed)), strayed


def test_a_field_engine_report_gains_is_required_at_once(monkeypatch, cases):
    monkeypatch.setitem(shape.FIELDS, "report", (*shape.FIELDS["report"], "novelty"))
    monkeypatch.setitem(shape.EVENTS, "checked", (*shape.EVENTS["checked"], "novelty"))
    report = json.loads(json.dumps(grade(solutions.CORRECT, cases)))
    assert list(validator("report").iter_errors(report))  # no "novelty" yet: refused
    assert_valid("report", {**report, "novelty": ["anything"]})  # of a type the schema does not know yet
    assert "novelty" in schema.schemas()["events"]["$defs"]["checked"]["required"]


def test_every_error_kind_may_be_a_checked_message_s_error():
    for kind in [None, *shape.KINDS]:  # "output" too
        assert_message(
            {
                "type": "backprop-playground:checked",
                "version": 1,
                "passed": False,
                "attempt": 1,
                "expressions": [],
                "error": kind,
                "hintsShown": 0,
                "order": None,
                "verified": None,
                "receipt": None,
            }
        )
