"""Records: every Check of a named learner (a course page's learner token, an LTI launch) kept in the
database with the server's own verdict, judged in the real sandbox from the queue; the named mistake is
the server's diagnosis of the pass the sandbox sent back. Bounded per learner and in all; a source judged
once is not judged again; a page without a token records nothing."""

import time

import jwt
import pytest
from sqlalchemy import func, select, update

from exercises.backward.plugin.kinds import MISTAKES
from server.db.tables import attempts, learners
from server.lti.claims import shared_name
from server.lti.roles import teaches
from server.records import judge as judge_module
from server.records.store import shape
from server.sandbox.graded import diagnosed
from tests.support import solutions
from tests.support.lti import rig
from tests.support.lti_launches import launched
from tests.support.orders import WRONG
from tests.support.recorded import judged, results_of, rows
from tests.support.served_page import SEED
from tests.support.verifying import verifying_app

pytestmark = pytest.mark.slow  # real sandboxes and databases: not in make test-fast

SECRET = "a course's secret, shared with the playground, 32+ bytes"
ENDLESS = "def backward(out):\n    out.grad = 1\n    while True:\n        pass\n"  # holds its sandbox
BROKEN = "def backward(out):\n    for v in (out\n"


def token(sub: str = "ada", key: str = SECRET, expires_in: int = 600, **claims) -> str:
    """A course page's learner token for sub, as the course signs it."""
    claims = {"sub": sub, "exp": int(time.time()) + expires_in, "iss": "https://course.example", **claims}
    return jwt.encode(claims | {"course": claims.get("course", "ml-101")}, key, "HS256")


def recording_app(tmp_path, **config):
    """Verification and learner tokens on, so records are: the database and the queue in tmp_path."""
    settings = {"LEARNER_TOKEN_SECRET": SECRET, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    return verifying_app(tmp_path, **settings | config)


@pytest.fixture
def recording(tmp_path):
    """Yield a maker of apps with records on; their queues' consumers are stopped after the test."""
    made = []

    def make(**config):
        app = recording_app(tmp_path, **config)
        made.append(app)
        return app

    yield make
    for app in made:
        if "queue" in app.extensions:
            app.extensions["queue"].stop()


def record(client, source: str, **tokens):
    return client.post("/record", json={"source": source, **tokens})


def test_a_wrong_check_is_kept_with_the_mistake_the_server_named(recording):
    """Under strict, code that walks the order leaves first is `reversed` on every graph, those that tell
    orders apart too; a queue from out is right on the seed's three and `early` on the graphs it gets
    wrong; out.grad never set is `out-grad`. Each against the learner, the token's course, at its time."""
    app = recording(VERDICT="strict", QUEUE_WORKERS=2)
    client = app.test_client()
    before = time.time()
    for source in (solutions.NOT_REVERSED, WRONG["breadth-first"], solutions.NO_SEED):
        answer = record(client, source, learner=token())
        assert answer.status_code == 202 and answer.json["state"] == "queued", answer.json
    reversed_, breadth, no_seed = judged(app)
    assert [r["mistake"] for r in (reversed_, breadth, no_seed)] == ["reversed", "early", "out-grad"]
    assert not any(r["passed"] for r in (reversed_, breadth, no_seed))
    assert all(r["state"] == "judged" and r["rule"] == "strict" for r in (reversed_, breadth, no_seed))
    assert {(r["issuer"], r["course"], r["activity"], r["sub"]) for r in (reversed_, breadth)} == {
        ("https://course.example", "ml-101", "", "ada")
    }
    assert before <= reversed_["time"] <= reversed_["judged"] <= time.time()
    assert reversed_["source"] == solutions.NOT_REVERSED
    counted = {"neuron", "reuse", "chain", "shared", "diamond", "uneven", "twins", "tangle", "random"}
    assert results_of(app, reversed_["id"]) == dict.fromkeys(counted, (False, "reversed"))
    by_graph = results_of(app, breadth["id"])
    assert all(by_graph[name] == (True, None) for name in ("neuron", "reuse", "chain"))
    assert by_graph["uneven"] == (False, "early") and by_graph["tangle"] == (False, "early")
    learner = rows(app, learners)
    assert [(r["sub"], r["course"], r["name"]) for r in learner] == [("ada", "ml-101", None)]
    assert learner[0]["learner"] not in ("ada", "") and "ada" not in learner[0]["learner"]


def test_a_pass_verify_judged_is_recorded_judged_and_not_judged_again(recording, monkeypatch):
    """A pass goes to /verify, which keeps its verdict: judged at once, no task queued for it."""
    runs = []
    monkeypatch.setattr(judge_module, "judge_passes", lambda *a: runs.append(a) or judge_passes(*a))
    app = recording(QUEUE_WORKERS=1)
    answer = app.test_client().post("/verify", json={"source": solutions.CORRECT, "learner": token()})
    assert answer.status_code == 200 and answer.json["report"]["passed"] is True
    (kept,) = rows(app)
    assert (kept["state"], kept["passed"], kept["mistake"], kept["rule"]) == ("judged", True, None, "seed")
    assert results_of(app, kept["id"]) == dict.fromkeys(("neuron", "reuse", "chain"), (True, None))
    assert app.extensions["queue"].huey.pending_count() == 0 and not runs


judge_passes = judge_module.judge_passes


def test_an_endless_loop_is_a_timeout_judged_once_for_two_identical_checks(
    recording, database_url, monkeypatch
):
    """Two Checks of the same endless loop, taken by two workers at once: one sandbox runs to the time
    limit, the other Check reuses its verdict; a syntax error is said as such. On either database."""
    runs = []
    monkeypatch.setattr(judge_module, "judge_passes", lambda *a: runs.append(a[0]) or judge_passes(*a))
    app = recording(QUEUE_WORKERS=2, VERIFY_TIME_LIMIT_MS=1000, DATABASE_URL=database_url)
    client = app.test_client()
    assert record(client, ENDLESS, learner=token()).status_code == 202
    assert record(client, ENDLESS, learner=token()).status_code == 202
    assert record(client, BROKEN, learner=token("bea")).status_code == 202
    first, second, broken = judged(app)
    assert (first["mistake"], second["mistake"], broken["mistake"]) == ("timeout", "timeout", "syntax")
    assert first["passed"] is False and second["passed"] is False
    assert first["source_sha256"] == second["source_sha256"]
    assert len(runs) == 2  # the loop once, the syntax error once
    assert results_of(app, second["id"]) == results_of(app, first["id"])


def test_a_check_whose_task_was_lost_is_queued_again_by_the_sweep_and_judged(recording):
    """A process that stopped mid-way loses its tasks: the sweep queues each Check that waited five
    minutes with no worker on it again (not a fresh one), and it is judged; its learner is not held."""
    app = recording(QUEUE_WORKERS=0)
    client = app.test_client()
    for source in (solutions.NO_SEED, solutions.NOT_REVERSED):
        assert record(client, source, learner=token()).status_code == 202
    tasks = app.extensions["queue"]
    tasks.huey.flush()  # both tasks lost
    with app.extensions["db"].connect() as conn:
        old = attempts.c.source == solutions.NO_SEED
        conn.execute(
            update(attempts).where(old).values(time=time.time() - judge_module.SWEEP_MINUTES * 60 - 1)
        )
    with app.app_context():
        judge_module.sweep()
    assert tasks.huey.pending_count() == 1  # the old one, not the one queued a moment ago
    tasks.start(1)
    deadline = time.monotonic() + 60
    while (lost := rows(app, attempts, old)[0])["state"] == "queued":
        assert time.monotonic() < deadline, lost
        time.sleep(0.05)
    assert (lost["state"], lost["mistake"]) == ("judged", "out-grad")


def test_over_the_bounds_a_check_is_recorded_skipped_and_never_judged(recording):
    """At most one Check per learner waiting, two in all (nobody takes work here): more are kept as
    skipped, with no task; a later Check once the learner's has gone is queued again."""
    app = recording(QUEUE_WORKERS=0, RECORDS_QUEUED_PER_LEARNER=1, RECORDS_QUEUED=2)
    client = app.test_client()
    states = [
        record(client, solutions.NO_SEED, learner=token("ada")).json["state"],
        record(client, solutions.TWICE, learner=token("ada")).json["state"],  # ada's one is waiting
        record(client, solutions.NO_SEED, learner=token("bea")).json["state"],
        record(client, solutions.NO_SEED, learner=token("cem")).json["state"],  # two wait in all
    ]
    assert states == ["queued", "skipped", "queued", "skipped"]
    kept = rows(app)
    assert [r["state"] for r in kept] == states
    assert all(r["passed"] is None and r["mistake"] is None and r["judged"] is None for r in kept)
    assert app.extensions["queue"].huey.pending_count() == 2  # the skipped ones have no task


def test_a_refused_or_missing_token_records_nothing(recording):
    """A forged token, an expired one, another course's, none at all: refused, and nothing is kept."""
    app = recording(QUEUE_WORKERS=0)
    client = app.test_client()
    forged = token(key="another course's secret, 32 bytes or more")
    for tokens in ({"learner": forged}, {"learner": token(expires_in=-120)}, {}, {"learner": 42}):
        answer = record(client, solutions.NO_SEED, **tokens)
        assert answer.status_code == 400, (tokens, answer.json)
    assert rows(app) == [] and rows(app, learners) == []
    assert app.extensions["queue"].huey.pending_count() == 0


def test_without_learner_tokens_or_lti_there_are_no_records(tmp_path):
    """Verification on, learners not named: no record address, the page sends nothing, no database."""
    app = verifying_app(tmp_path)
    assert app.test_client().post("/record", json={"source": "x = 1"}).status_code == 404
    assert "records" not in app.extensions and "db" not in app.extensions
    page = app.test_client().get(SEED + "?learner=" + token())
    assert b'"record": null' in page.data and b"records-note" not in page.data


def test_a_page_with_a_learner_token_says_its_checks_are_shared(recording):
    """The page says it, in the page's language, only where a token names the learner."""
    client = recording(QUEUE_WORKERS=0).test_client()
    page = client.get(SEED + "?learner=" + token()).get_data(as_text=True)
    assert "Each Check you make is shared with your teacher" in page and '"record": "/record"' in page
    german = client.get(SEED + "?lang=de&learner=" + token()).get_data(as_text=True)
    assert "Jedes Prüfen teilst du mit deiner Lehrkraft" in german
    assert "records-note" not in client.get(SEED).get_data(as_text=True)


def test_the_shape_folds_comments_blank_lines_and_trailing_spaces():
    """Code that differs in comments, blank lines and trailing spaces has one shape; other code not."""
    plain = solutions.CORRECT
    noted = plain.replace("    out.grad = 1\n", "    # the seed\n\n    out.grad = 1  # one   \n\n")
    assert shape(noted) == shape(plain) != shape(solutions.NOT_REVERSED)
    assert shape(BROKEN) == BROKEN  # it does not tokenize: the text as it is
    assert shape("s = '# not a comment'  \n") == "s = '# not a comment'"


def test_a_forged_pass_names_no_mistake():
    """What the sandbox sends back is the learner's to spoil: a pass of the wrong shape is no pass."""
    good = {
        "out": 2,
        "ops": [None, None, "+"],
        "children": [[], [], [0, 1]],
        "named": {},
        "data": [1.0, 2.0, 3.0],
        "grads": [1.0, 1.0, 1.0],
        "calls": [{"node": 2, "grad": 1.0, "changes": [[0, 0.0, 1.0], [1, 0.0, 1.0]]}],
    }
    assert diagnosed(good, ["a", "b"]) == "wrong"  # read whole (its gradients judged elsewhere)
    odd = good | {"grads": ["x", "inf", 1e308], "data": ["y", 1, -0.0], "named": {"h": 2, "out": 0}}
    odd["calls"] = [{"node": 2, "grad": "nan", "changes": [[0, "z", 1e308], [0, -1e308, 1e308]]}] * 3
    assert diagnosed(odd, ["a"]) in MISTAKES  # text where numbers were, too few leaf names
    for forged in (
        good | {"out": 3},
        good | {"children": [[], [2], [0, 1]]},  # an input made after its user
        good | {"ops": [None, None, "import os"]},
        good | {"grads": [1.0, 1.0]},
        good | {"calls": [{"node": 2, "grad": 1.0, "changes": [[5, 0.0, 1.0]]}]},
        good | {"data": [1.0, 2.0, float("nan")]},
        good | {"calls": "everything"},
        [good],
        None,
    ):
        assert diagnosed(forged, ["a", "b"]) is None, forged


def test_a_launched_learners_checks_are_kept_by_course_and_activity(tmp_path):
    """A launch names the course (its context), the activity (its resource link) and, where the LMS
    shares it, the learner's name; a teacher's launch and Checks are no learner's."""
    with rig(tmp_path) as lms:
        lms.tool, url = lms.start_tool(QUEUE_WORKERS=1)
        lms.tool_url = url
        app = lms.tools[0][1]
        lms.register(lms.tools[-1][1])
        lms.platform.people["ada"] = {"name": "Ada Lovelace"}
        try:
            launched_and_recorded(lms, app, url)
        finally:
            app.extensions["queue"].stop()


def launched_and_recorded(lms, app, url: str) -> None:
    """Ada's Check, from her launch; what the records hold of it (a teacher's launch opens the class view,
    with no launch token to record with: tests/test_class_view.py)."""
    session, launch = launched(lms, "ada")
    answer = session.post(
        url + "record", json={"source": solutions.NO_SEED, "launch": launch}, verify=lms.ca_file
    )
    assert answer.status_code == 202, answer.text
    (kept,) = judged(app)
    assert (kept["issuer"], kept["course"], kept["activity"], kept["sub"]) == (
        lms.issuer,
        "course-1",
        "link-1",
        "ada",
    )
    assert (kept["mistake"], kept["passed"]) == ("out-grad", False)
    (ada,) = rows(app, learners)
    assert (ada["name"], ada["course"], ada["activity"]) == ("Ada Lovelace", "course-1", "link-1")
    with app.extensions["db"].engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(attempts)).scalar_one() == 1


def test_who_teaches_and_whose_name_a_launch_shares():
    """Teachers by role (a TA as its own role or as Canvas's Instructor sub-role, short names too);
    a learner's name only where the launch shares one."""
    lis = "http://purl.imsglobal.org/vocab/lis/v2/membership"
    for roles in ([f"{lis}#Instructor"], [f"{lis}/Instructor#TeachingAssistant"], ["TeachingAssistant"]):
        assert teaches(roles), roles
    for roles in ([f"{lis}#Learner"], [f"{lis}#Mentor"], ["Learner"], [], None):
        assert not teaches(roles), roles
    assert shared_name({"name": "Ada Lovelace", "given_name": "A"}) == "Ada Lovelace"
    assert shared_name({"given_name": "Ada", "family_name": "Lovelace"}) == "Ada Lovelace"
    assert shared_name({"family_name": "Lovelace"}) == "Lovelace"
    assert shared_name({"name": " ", "given_name": 7}) is None and shared_name({}) is None


def test_an_observers_or_a_designers_launch_gets_the_exercise_and_is_not_counted_as_the_class(
    tmp_path, database_url
):
    """Only a launch whose membership roles include Learner is the class: Canvas's Observer (Mentor), its
    Designer (ContentDeveloper) and a launch with no course role get the exercise, and their Checks and
    passes are theirs alone: nobody is counted as having opened it, nothing of theirs is recorded."""
    lis = "http://purl.imsglobal.org/vocab/lis/v2/membership"
    with rig(tmp_path, database_url) as lms:
        lms.tool, url = lms.start_tool(QUEUE_WORKERS=1)
        lms.tool_url = url
        app = lms.tools[0][1]
        lms.register(lms.tools[-1][1])
        lms.platform.people |= {
            "mia": {"roles": [f"{lis}#Mentor"], "name": "Mia Mentor"},
            "dev": {"roles": [f"{lis}#ContentDeveloper"]},
            "site": {"roles": ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student"]},
            "ada": {"roles": [f"{lis}#Learner", f"{lis}#Mentor"]},
        }
        try:
            for who in ("mia", "dev", "site"):
                session, launch = launched(lms, who)  # the exercise, with its launch token
                answer = session.post(
                    url + "record", json={"source": solutions.NO_SEED, "launch": launch}, verify=lms.ca_file
                )
                assert answer.status_code == 204, (who, answer.text)
                passed = session.post(
                    url + "verify", json={"source": solutions.CORRECT, "launch": launch}, verify=lms.ca_file
                )
                assert passed.status_code == 200 and passed.json()["report"]["passed"] is True, who
            session, launch = launched(lms, "ada")
            answer = session.post(
                url + "record", json={"source": solutions.NO_SEED, "launch": launch}, verify=lms.ca_file
            )
            assert answer.status_code == 202, answer.text
            assert [r["sub"] for r in judged(app)] == ["ada"]
            assert [r["sub"] for r in rows(app, learners)] == ["ada"]
        finally:
            app.extensions["queue"].stop()
