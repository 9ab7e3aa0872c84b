"""POST /verify of each exercise (issue 51): the payload names it, the sandbox gets its archive and cases,
the server judges its numbers and names its mistakes, and the receipt names the exercise.

Every verification here runs in the real bubblewrap sandbox, through Flask's test client, on the
shipped exercises' own code (reference, starter, each named mistake's).
"""

import hashlib
import json
import re

import jwt
import pytest

from server.exercises.registry import SHIPPED
from server.sandbox import judging
from server.sandbox.graded import NotServed, exercise_of
from tests.support import solutions
from tests.support.exercise_folders import course
from tests.support.graded_exercise import graded
from tests.support.verifying import verifying_app

pytestmark = pytest.mark.slow  # real sandboxes: not in make test-fast

# The course's exercises but the seed's (its own tests verify it): each through the sandbox.
EXERCISES = tuple(i for i in course() if i != "backward")


def code(exercise: str, name: str) -> str:
    """A shipped exercise's own file: reference.py, starter.py, mistakes/<key>.py."""
    return (SHIPPED / exercise / name).read_text(encoding="utf-8")


def keys(exercise: str) -> list[str]:
    """An exercise's named mistakes, in its order."""
    data = json.loads((SHIPPED / exercise / "exercise.json").read_text(encoding="utf-8"))
    return [m["key"] for m in data["mistakes"]]


@pytest.fixture(scope="module")
def verify_app(tmp_path_factory):
    """Verification on (tests/support/verifying.py), a 2 s limit and no rate limit to speak of."""
    folder = tmp_path_factory.mktemp("verify-exercises")
    return verifying_app(folder, VERIFY_TIME_LIMIT_MS=2000, VERIFY_RATE_LIMIT=10_000)


@pytest.fixture(scope="module")
def verify_client(verify_app):
    return verify_app.test_client()


def verified(verify_client, source: str, exercise: str | None) -> dict:
    body = {"source": source} | ({"exercise": exercise} if exercise is not None else {})
    response = verify_client.post("/verify", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def claims_of(verify_client, token: str) -> dict:
    """A receipt checked as a course checks it: the JWKS's key by its kid, EdDSA only."""
    found = jwt.PyJWKSet.from_dict(verify_client.get("/.well-known/jwks.json").get_json())
    return jwt.decode(token, found[jwt.get_unverified_header(token)["kid"]].key, algorithms=["EdDSA"])


def named(report: dict) -> dict[str, str | None]:
    """Each failing group's named mistake (None: none named)."""
    return {e["name"]: (e["mistake"] or {}).get("kind") for e in report["expressions"] if not e["passed"]}


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_reference_passes_and_the_receipt_names_the_exercise(verify_client, exercise):
    answer = verified(verify_client, code(exercise, "reference.py"), exercise)
    report = answer["report"]
    assert report["passed"] is True and report["error"] is None and report["rule"] == "all"
    groups = json.loads((SHIPPED / exercise / "exercise.json").read_text())["groups"]
    assert [e["name"] for e in report["expressions"]] == [g["name"] for g in groups]
    claims = claims_of(verify_client, answer["receipt"])
    assert claims["exercise"] == exercise and claims["rule"] == "all" and claims["passed"] is True
    assert claims["expressions"] == [{"name": g["name"], "passed": True} for g in groups]
    assert re.fullmatch(r"[0-9a-f]{16}", claims["version"])
    source = code(exercise, "reference.py")
    assert claims["source_sha256"] == hashlib.sha256(source.encode()).hexdigest()


def test_each_exercise_has_a_version_of_its_own_and_keeps_it(verify_client):
    versions = {
        exercise: claims_of(
            verify_client, verified(verify_client, code(exercise, "starter.py"), exercise)["receipt"]
        )["version"]
        for exercise in EXERCISES
    }
    seed = claims_of(verify_client, verified(verify_client, solutions.CORRECT, None)["receipt"])
    assert len({*versions.values(), seed["version"]}) == len(EXERCISES) + 1
    again = claims_of(verify_client, verified(verify_client, code("ops", "reference.py"), "ops")["receipt"])
    assert again["version"] == versions["ops"]  # the same exercise's same version, whatever passed


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_starter_fails(verify_client, exercise):
    report = verified(verify_client, code(exercise, "starter.py"), exercise)["report"]
    assert report["passed"] is False
    # as the page grades it: ops's and exp's starters end in an error (what is left to write raises)
    assert (report["error"] is None) == (graded(exercise, code(exercise, "starter.py"))["error"] is None)
    if exercise == "ops":  # its __radd__/__rmul__ are left to write: 2 * a is Python's TypeError
        assert "unsupported operand type(s)" in report["error"]["message"]
    assert (
        claims_of(verify_client, verified(verify_client, code(exercise, "starter.py"), exercise)["receipt"])[
            "passed"
        ]
        is False
    )


@pytest.mark.parametrize(
    ("exercise", "key"), [(exercise, key) for exercise in EXERCISES for key in keys(exercise)]
)
def test_each_named_mistake_is_named_by_the_server_on_every_group_it_fails(verify_client, exercise, key):
    """The server names the mistake from the numbers its sandbox sent back, fresh cases included."""
    report = verified(verify_client, code(exercise, f"mistakes/{key}.py"), exercise)["report"]
    assert report["passed"] is False and report["error"] is None
    failing = named(report)
    assert failing and set(failing.values()) == {key}, failing
    fresh_wrong = [c for e in report["expressions"] for c in e["cases"] if c["fresh"] and not c["passed"]]
    assert fresh_wrong  # the fresh cases, drawn for this request, show it too


@pytest.mark.parametrize("exercise", EXERCISES)
def test_fresh_cases_are_drawn_for_every_request_and_never_the_pages(verify_client, exercise, monkeypatch):
    sent = []  # the cases each request's sandbox is given: their inputs (train's differ by seed only)
    files = judging.sandbox_files
    monkeypatch.setattr(judging, "sandbox_files", lambda *args: sent.append(files(*args)) or sent[-1])
    data = json.loads((SHIPPED / exercise / "exercise.json").read_text())
    fixed = {json.dumps(c["inputs"], sort_keys=True) for c in data["cases"]}

    def fresh(report: dict, given: dict) -> list:
        inputs = [json.dumps(c["inputs"], sort_keys=True) for c in json.loads(given["cases.json"])]
        drawn = [c for c in inputs if c not in fixed]
        assert len(drawn) == len([c for e in report["expressions"] for c in e["cases"] if c["fresh"]])
        return drawn

    first = fresh(verified(verify_client, code(exercise, "reference.py"), exercise)["report"], sent[-1])
    second = fresh(verified(verify_client, code(exercise, "reference.py"), exercise)["report"], sent[-1])
    assert len(first) == data["fresh"]["per_group"] * len(data["groups"])
    assert first != second  # drawn again for each request, and never a case the page has shown


def test_the_sandbox_gets_the_exercises_archive_and_cases_without_their_numbers(
    verify_app, verify_client, monkeypatch
):
    sent = []
    files = judging.sandbox_files
    monkeypatch.setattr(judging, "sandbox_files", lambda *args: sent.append(files(*args)) or sent[-1])
    verified(verify_client, code("ops", "starter.py"), "ops")
    (given,) = sent
    assert json.loads(given["exercise.json"])["id"] == "ops"
    assert given["exercises/ops/engine.py"] == (SHIPPED / "ops" / "engine.py").read_bytes()
    assert not any("backward" in name for name in given)  # not the seed's engine or plugin
    cases = json.loads(given["cases.json"])
    assert cases and all(set(c) <= {"group", "leaves", "inputs", "example", "extra"} for c in cases)
    secret = [(SHIPPED / "ops" / name).read_bytes() for name in ("reference.py", "cases.py")]
    secret += [p.read_bytes() for p in (SHIPPED / "ops" / "mistakes").glob("*.py")]
    assert not any(s in data for s in secret for data in given.values())  # server-only code stays out


def test_a_post_without_an_exercise_is_the_seeds(verify_client):
    answer = verified(verify_client, solutions.CORRECT, None)
    assert answer["report"]["passed"] is True
    assert [e["name"] for e in answer["report"]["expressions"]] == ["neuron", "reuse", "chain"]
    claims = claims_of(verify_client, answer["receipt"])
    assert claims["exercise"] == "backward" and claims["rule"] == "seed"
    # the seed's code in another exercise fails there: no Value of its own
    other = verified(verify_client, solutions.CORRECT, "ops")["report"]
    assert other["passed"] is False and other["error"]["kind"] == "runtime"


@pytest.mark.parametrize(
    ("exercise", "said"),
    [
        ("nope", 'No exercise "nope" is served here.'),
        ("", 'No exercise "" is served here.'),
        (42, "The exercise must be named by its id, as text."),
        (["ops"], "The exercise must be named by its id, as text."),
    ],
)
def test_an_exercise_not_served_is_refused_with_a_400_that_says_so(verify_client, exercise, said):
    response = verify_client.post(
        "/verify", json={"source": code("ops", "reference.py"), "exercise": exercise}
    )
    assert response.status_code == 400 and response.get_json() == {"error": said}


def test_the_refusal_is_in_the_pages_language(verify_client):
    response = verify_client.post("/verify?lang=de", json={"source": "x = 1", "exercise": "nope"})
    assert response.get_json() == {"error": 'Hier wird keine Übung "nope" angeboten.'}


def test_a_launchs_exercise_wins_and_another_is_refused(verify_app):
    with verify_app.test_request_context():
        assert exercise_of({}, {"exercise": "step"}).id == "step"  # the launch's, none posted
        assert exercise_of({"exercise": "ops"}, {"exercise": "ops"}).id == "ops"
        assert exercise_of({}, None).id == "backward"  # no launch, none posted: the seed's
        with pytest.raises(NotServed, match='opened the exercise ops, not "step"'):
            exercise_of({"exercise": "step"}, {"exercise": "ops"})


# -- hostile bodies on an exercise's page: each followed by a right and a wrong one that come out right


@pytest.mark.alone  # a loop runs to the time limit, which the honest rows must finish well inside
@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        ("while True:\n    pass\n", {"timeout"}),  # a loop
        ("import ctypes\nctypes.string_at(0)\n", {"crash"}),  # a crash
        ('print("x" * 10**7)\n', {"output", "timeout"}),  # megabytes printed
        ("import os\nos._exit(0)\n", {"crash"}),  # the driver's process ended before it answered
    ],
)
def test_hostile_code_is_an_error_and_the_next_verifications_come_out_right(verify_client, body, kinds):
    report = verified(verify_client, body + code("ops", "reference.py"), "ops")["report"]
    assert report["passed"] is False and report["error"]["kind"] in kinds, report["error"]
    right = verified(verify_client, code("ops", "reference.py"), "ops")["report"]
    assert right["passed"] is True and right["error"] is None
    wrong = verified(verify_client, code("ops", "mistakes/assign.py"), "ops")["report"]
    assert wrong["passed"] is False and set(named(wrong).values()) == {"assign"}
