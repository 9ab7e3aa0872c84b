"""The report's shape has one owner (engine/report.py); the page follows it (docs/page-contract.md and
the JSON Schemas too: tests/test_docs.py, tests/test_schema.py), and each expression's text follows the
code that builds it."""

import json
import re

import pytest

from engine.report import FIELDS, KINDS, shape
from exercises.backward.plugin import expressions, extras
from tests.support import solutions
from tests.support.report_sources import SOURCES
from tests.support.seed import grade
from tests.support.served_page import SEED, page_config


@pytest.mark.parametrize("name", SOURCES)
def test_every_report_the_grader_makes_has_the_published_shape(name, cases):
    report = json.loads(json.dumps(grade(SOURCES[name], cases)))
    assert list(report) == list(FIELDS["report"])
    assert set(report["output"]) == set(FIELDS["output"])
    if report["error"] is not None:
        assert set(report["error"]) == set(FIELDS["error"]) and report["error"]["kind"] in KINDS
    for expr in report["expressions"]:
        assert set(expr) <= set(FIELDS["expression"]), expr["name"]
        assert {"name", "formula", "about", "extra", "passed", "leaves", "cases"} <= set(expr)
        for case in expr["cases"]:
            assert set(case) == set(FIELDS["case"])
        for item in expr["diagnosis"]:
            assert set(item) == set(FIELDS["diagnosis"])
        if expr["graph"]:
            assert set(expr["graph"]) >= set(FIELDS["graph"])


def test_the_page_gets_the_shape_it_makes_its_own_reports_from(client):
    assert page_config(client)["report"] == json.loads(json.dumps(shape("backward")))


def test_an_unknown_error_kind_is_refused():
    from engine.report import error

    with pytest.raises(ValueError, match="not an error kind"):
        error("oops", "message")


@pytest.fixture
def texts_follow(monkeypatch):
    """Let a test change how the graphs are built; the texts are worked out again, and again after."""
    expressions.layers.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    expressions.layers.cache_clear()


def formulas(client) -> dict:
    """The formula of each expression as the page's statement lists it and the report heads it."""
    html = client.get(SEED).get_data(as_text=True)
    listed = dict(re.findall(r"<li><code>(\w+)</code> is <code>([^<]+)</code>", html))
    config = {e["name"]: e for e in page_config(client)["expressions"]}
    return {"listed": listed, "config": config}


def test_the_page_lists_each_counted_expression_in_words_from_python(client):
    shown = formulas(client)
    assert list(shown["listed"]) == ["neuron", "reuse", "chain"]
    assert shown["listed"]["chain"] == "tanh(… tanh(x·w) · w …), ten times"
    assert shown["config"]["deep"]["formula"] == "tanh(… tanh(x·w) · w …), 500 times"


def test_the_deep_chains_text_follows_its_depth(client, cases, texts_follow):
    texts_follow.setattr(extras, "DEPTH", 7)
    assert formulas(client)["config"]["deep"]["formula"] == "tanh(… tanh(x·w) · w …), seven times"
    deep = [c for c in cases if c["group"] == "deep"]
    report = grade(solutions.CORRECT, deep)
    assert report["expressions"][0]["formula"] == "tanh(… tanh(x·w) · w …), seven times"


def test_the_chains_text_follows_the_engines_code(client, texts_follow, tmp_path):
    seed = expressions.ENGINE.read_text(encoding="utf-8")
    source = seed.replace("for _ in range(10):", "for _ in range(12):")
    assert source != seed
    (tmp_path / "engine.py").write_text(source, encoding="utf-8")
    texts_follow.setattr(expressions, "ENGINE", tmp_path / "engine.py")
    shown = formulas(client)
    assert shown["listed"]["chain"] == "tanh(… tanh(x·w) · w …), 12 times"
    assert "tanh of out·w, 12 times over" in shown["config"]["chain"]["about"]
