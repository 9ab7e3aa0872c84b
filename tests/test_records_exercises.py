"""Records per exercise (issue 51): POST /record and /verify keep the exercise a Check was made in, the
judge judges it with that exercise in the real sandbox and names its mistake by its numbers, and a
verdict is reused only for the same source, exercise and rule."""

import time

import jwt
import pytest

from server.exercises.registry import SHIPPED
from server.records import judge as judge_module
from tests.support import solutions
from tests.support.recorded import judged, results_of, rows
from tests.support.verifying import verifying_app

pytestmark = pytest.mark.slow  # real sandboxes and databases: not in make test-fast

SECRET = "a course's secret, shared with the playground, 32+ bytes"
JUDGE_S = 120  # how long its Checks may wait for the judge (each of ops's and step's in a sandbox of its own)
judge_passes = judge_module.judge_passes


def token(sub: str = "ada") -> str:
    """A course page's learner token for sub, as the course signs it."""
    claims = {"sub": sub, "exp": int(time.time()) + 600, "iss": "https://course.example", "course": "ml-101"}
    return jwt.encode(claims, SECRET, "HS256")


def code(exercise: str, name: str) -> str:
    return (SHIPPED / exercise / name).read_text(encoding="utf-8")


@pytest.fixture
def recording_any(tmp_path):
    """Yield a maker of apps with records on (learner tokens, SQLite in tmp_path); their queues' consumers
    are stopped after the test."""
    made = []

    def make(**config):
        settings = {"LEARNER_TOKEN_SECRET": SECRET, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
        app = verifying_app(tmp_path, **settings | {"VERIFY_TIME_LIMIT_MS": 3000} | config)
        made.append(app)
        return app

    yield make
    for app in made:
        if "queue" in app.extensions:
            app.extensions["queue"].stop()


def record(client, source: str, exercise: str | None = None, sub: str = "ada"):
    body = {"source": source, "learner": token(sub)} | ({"exercise": exercise} if exercise else {})
    return client.post("/record", json=body)


def test_each_named_mistake_of_ops_is_recorded_in_ops_and_judged_by_its_name(recording_any):
    app = recording_any(QUEUE_WORKERS=2)
    client = app.test_client()
    keys = ["assign", "swapped", "no-chain"]
    for n, key in enumerate(keys):  # a learner each: one sandbox per learner at a time
        answer = record(client, code("ops", f"mistakes/{key}.py"), "ops", sub=f"learner-{n}")
        assert answer.status_code == 202 and answer.json["state"] == "queued", answer.json
    kept = judged(app, JUDGE_S)
    assert [(r["exercise"], r["rule"], r["state"], r["passed"]) for r in kept] == [
        ("ops", "all", "judged", False)
    ] * 3
    assert [r["mistake"] for r in kept] == keys
    assign = results_of(app, kept[0]["id"])  # by ops's groups: = for += shows where a value is used twice
    assert assign == {
        "a*b": (True, None),
        "a+a": (False, "assign"),
        "a*b+a": (False, "assign"),
        "a+b": (True, None),
        "a*a": (False, "assign"),
        "2*a": (True, None),
        "a+1": (True, None),
        "1+a": (True, None),
        "3*a*a": (False, "assign"),
    }


def test_a_verified_pass_of_step_is_recorded_as_steps(recording_any):
    app = recording_any(QUEUE_WORKERS=0)
    body = {"source": code("step", "reference.py"), "exercise": "step", "learner": token()}
    answer = app.test_client().post("/verify", json=body)
    assert answer.status_code == 200 and answer.json["report"]["passed"] is True
    (kept,) = rows(app)
    assert (kept["exercise"], kept["state"], kept["passed"], kept["mistake"], kept["rule"]) == (
        "step",
        "judged",
        True,
        None,
        "all",
    )
    assert results_of(app, kept["id"]) == {"1-2-1": (True, None), "2-3-1": (True, None)}


def test_a_failing_verification_of_step_is_recorded_with_its_named_mistake(recording_any):
    app = recording_any(QUEUE_WORKERS=0)
    body = {"source": code("step", "mistakes/no-zero-grad.py"), "exercise": "step", "learner": token()}
    assert app.test_client().post("/verify", json=body).json["report"]["passed"] is False
    (kept,) = rows(app)
    assert (kept["exercise"], kept["passed"], kept["mistake"]) == ("step", False, "no-zero-grad")


def test_a_verdict_is_reused_for_the_same_source_only_in_the_same_exercise(recording_any, monkeypatch):
    """The same code in ops and in step is judged in each (their numbers differ); again in ops, it takes
    ops's verdict without a sandbox. A Check without an exercise is the seed's."""
    runs = []
    monkeypatch.setattr(judge_module, "judge_passes", lambda *a: runs.append(a[3]) or judge_passes(*a))
    app = recording_any(QUEUE_WORKERS=1)
    client = app.test_client()
    source = code("ops", "mistakes/swapped.py")
    assert record(client, source, "ops").status_code == 202
    judged(app, JUDGE_S)
    assert record(client, source, "step").status_code == 202
    judged(app, JUDGE_S)
    assert record(client, source, "ops").status_code == 202
    assert record(client, solutions.TWICE).status_code == 202  # no exercise: the seed's
    first, in_step, again, seed = judged(app, JUDGE_S)
    assert runs == ["ops", "step", "backward"]  # ops's second Check took the first's verdict
    assert (
        (first["exercise"], first["mistake"]) == (again["exercise"], again["mistake"]) == ("ops", "swapped")
    )
    assert results_of(app, again["id"]) == results_of(app, first["id"])
    assert in_step["exercise"] == "step" and in_step["passed"] is False
    assert in_step["mistake"] == "runtime"  # step's engine has no Value to swap: its call raised
    assert (seed["exercise"], seed["rule"], seed["passed"]) == ("backward", "seed", False)


def test_a_record_of_an_exercise_not_served_is_refused_and_nothing_kept(recording_any):
    app = recording_any(QUEUE_WORKERS=0)
    answer = record(app.test_client(), code("ops", "starter.py"), "nope")
    assert answer.status_code == 400 and answer.json == {"error": 'No exercise "nope" is served here.'}
    assert rows(app) == []
