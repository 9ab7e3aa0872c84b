"""The strict verdict means a topological order: every right order of the corpus passes it, every wrong
one fails it, on the page's graphs, on every random graph alone, and at /verify (tests/support/orders.py)."""

import random

import pytest

from server import create_app
from server.exercises import graphs
from server.exercises.reference import expected, graded_cases
from tests.support.orders import RIGHT, WRONG
from tests.support.seed import grade
from tests.support.seeds import drawn_seed, replay

DRAWS = 200  # random graphs each order meets alone (about 10 s for the whole corpus)


@pytest.fixture(scope="module")
def strict():
    return graded_cases("strict")


@pytest.fixture(scope="module")
def drawn():
    """Random graphs as /verify draws them, each a value set of its own; a new seed each run, or TEST_SEED."""
    seed = drawn_seed()
    rng = random.Random(seed)
    cases = []
    for _ in range(DRAWS):
        rows, values = graphs.draw(rng)
        case = {"group": "random", "leaves": list("abcd"), "inputs": {"values": values, "graph": rows}}
        cases.append(case | {"expected": expected("random", values, rows), "example": False, "extra": False})
    return seed, cases


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_order_passes_strict_with_every_graph_right(strict, name):
    report = grade(RIGHT[name], strict)
    assert report["passed"] is True and report["order"] == "right"
    for expr in report["expressions"]:
        # The deep chain may stop a recursive search: a lesson shown beside the right result, not a failure.
        assert expr["passed"] or (expr["role"] == "lesson" and expr["diagnosis"][0]["kind"] == "recursion")


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_order_fails_strict(strict, name):
    report = grade(WRONG[name], strict)
    assert report["passed"] is False and report["error"] is None
    assert report["order"] == "wrong"


@pytest.mark.parametrize("name", [*RIGHT, *WRONG])
def test_every_random_graph_tells_each_order_apart_on_its_own(drawn, name):
    seed, cases = drawn
    report = grade({**RIGHT, **WRONG}[name], cases)
    (random_graphs,) = report["expressions"]
    off = [i for i, case in enumerate(random_graphs["cases"]) if case["passed"] != (name in RIGHT)]
    assert not off, f"graphs {off} of the draw did not tell {name!r} apart ({replay(seed)})"


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    key = tmp_path_factory.mktemp("key") / "k.pem"
    settings = {
        "VERIFY": True,
        "VERDICT": "strict",
        "VERIFY_RATE_LIMIT": 10_000,
        "SIGNING_KEY_FILE": str(key),
    }
    return create_app({"TESTING": True, **settings}).test_client()


@pytest.mark.parametrize("name", [*RIGHT, *WRONG])
@pytest.mark.slow
def test_verify_under_strict_agrees_on_every_order(strict_server, name):
    answer = strict_server.post("/verify", json={"source": {**RIGHT, **WRONG}[name]})
    report = answer.get_json()["report"]
    assert report["passed"] is (name in RIGHT), report["expressions"]
    assert report["order"] == ("right" if name in RIGHT else "wrong")
    drawn = next(e for e in report["expressions"] if e["name"] == "random")
    assert len(drawn["cases"]) == 3 and all(c["fresh"] for c in drawn["cases"])
    if name in WRONG:
        # The random graphs alone tell it apart: no fixed list is needed to fail it.
        assert not any(c["passed"] for c in drawn["cases"])


@pytest.mark.slow
def test_verify_draws_new_graphs_for_every_request(strict_server, monkeypatch):
    from server.sandbox import judging

    sent = []
    files = judging.sandbox_files
    monkeypatch.setattr(judging, "sandbox_files", lambda *args: sent.append(args[1]) or files(*args))
    for _ in range(3):
        assert strict_server.post("/verify", json={"source": RIGHT["stack"]}).get_json()["report"]["passed"]
    drawn = [
        [(c["inputs"]["graph"], c["inputs"]["values"]) for c in cases if c["group"] == "random"]
        for cases in sent
    ]
    assert all(len(d) == 3 for d in drawn)
    every = [rows for d in drawn for rows, _ in d]
    assert len({str(rows) for rows in every}) == len(every)  # no graph twice, within or across requests
    for rows, values in (pair for d in drawn for pair in d):
        assert graphs.features(rows, values) == {"uneven", "used twice by one", "same data", "shared"}
