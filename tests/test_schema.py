"""The JSON Schemas of the page contract (server/contract/schema.py) follow engine/report.py, are published,
and every producer's real reports and Runs follow them (the page's grader, /verify, the scratch pad); a
report that strays from them is refused."""

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from engine import report as shape
from server import create_app
from server.contract import schema
from server.exercises.reference import graded_cases
from tests.support import solutions
from tests.support.events import assert_message, assert_valid, validator
from tests.support.report_sources import SOURCES
from tests.support.seed import grade, run_scratch

DRAWS = "a = Value(1.0)\nb = Value(-2.0)\nc = (a * b).tanh()\nbackward(c)\ndraw(c)\n" + "draw(a)\n" * 11
SOLUTIONS = {name.lower(): getattr(solutions, name) for name in dir(solutions) if name.isupper()}
# Beside a pass, a fail and each kind of error the grader makes: what only the server's sandbox sees.
AT_THE_SERVER = {
    "timeout": "while True:\n    pass\n",
    "crash": "import os\nos._exit(3)\n",
    "output": "while True:\n    print('x' * 10_000)\n",
    "nothing": "def backward(out):\n    pass\n",
}
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


@pytest.mark.parametrize("name", ["report", "run", "events", "exercise", "words", "course"])
def test_each_schema_is_a_valid_json_schema_and_is_published(client, name):
    Draft202012Validator.check_schema(schema.schemas()[name])
    response = client.get(f"/schema/{name}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.get_json() == json.loads(json.dumps(schema.schemas()[name]))
    assert client.get("/schema/nothing.json").status_code == 404


@pytest.mark.parametrize("verdict", ["seed", "strict"])
@pytest.mark.parametrize("name", [*SOURCES, *SOLUTIONS])
def test_every_report_the_grader_makes_follows_the_schema(name, verdict):
    """The page's grader is this code, run in Pyodide: each kind of report it makes, under each rule."""
    source = SOURCES.get(name) or SOLUTIONS[name]
    assert_valid("report", json.loads(json.dumps(grade(source, graded_cases(verdict)))))


@pytest.mark.slow  # the real sandbox
@pytest.mark.parametrize("verdict", ["seed", "strict"])
def test_every_report_verify_makes_follows_the_schema(tmp_path, verdict):
    settings = {"TESTING": True, "VERIFY": True, "VERDICT": verdict, "VERIFY_TIME_LIMIT_MS": 1000}
    client = create_app({**settings, "VERIFY_RATE_LIMIT": 1000, "SIGNING_KEY_FILE": str(tmp_path / "k")})
    kinds = set()
    for name, source in {**SOURCES, **AT_THE_SERVER, "pre-order": solutions.PRE_ORDER}.items():
        answer = client.test_client().post("/verify", json={"source": source})
        if name == "refused":
            assert answer.status_code == 413  # refused before any report is made
            continue
        report = answer.get_json()["report"]
        assert_valid("report", report)
        kinds.add((report["error"] or {}).get("kind"))
        assert all(e["size"] is None for e in report["expressions"])  # no graph built to explain
    assert kinds == {None, *shape.KINDS}  # a report of every kind of error, and without one


@pytest.mark.parametrize("name", RUNS)
def test_every_run_follows_the_schema(name):
    scratch, backward = RUNS[name]
    result = json.loads(json.dumps(run_scratch(scratch, backward)))
    assert_valid("run", result)
    if name == "drawn":
        assert result["cut_drawings"] == 2 and result["drawings"][0]["nodes"]


def test_an_error_of_every_kind_follows_it(cases):
    for kind in shape.KINDS:
        assert_valid("report", shape.failed(shape.error(kind, "message", 3, "trace"), exercise="backward"))
        assert_valid("run", shape.run_result(shape.error(kind, "message", file="scratch")))


def strays(report: dict) -> list[dict]:
    """Reports that differ from a real one in one way the schema forbids."""
    expr = report["expressions"][0]
    changes = [
        lambda r: r.pop("ms"),
        lambda r: r.update(extra_field=1),
        lambda r: r.update(passed="yes"),
        lambda r: r["expressions"][0].update(name=None),  # a group's name is any exercise's: text
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
                "exercise": "backward",
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
