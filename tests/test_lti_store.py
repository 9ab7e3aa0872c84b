"""The LTI store on the playground's database (server/db): opened where records can exist, one
connection per app context (a request, a pass of the passback sender, a command), returned at its end."""

from server import create_app
from server.db import Database
from server.lti.store import Store

SECRET = "a course's secret for its learner tokens, 32+ bytes"


def test_an_app_context_holds_one_connection_and_its_end_returns_it():
    app = create_app({"TESTING": True, "LEARNER_TOKEN_SECRET": SECRET, "DATABASE_URL": None})
    db = app.extensions["db"]  # learner tokens configured: the database is opened, in the instance folder
    store = Store(db)
    with app.app_context():
        store.put("nonce", "value", 60)
        with db.connect() as first:
            pass
        assert store.get("nonce") == "value" and store.take("nonce")
        with db.connect() as again:
            assert again is first  # every statement of the context on one connection
    assert first.closed  # returned to the pool when the context ended
    assert store.get("nonce") is None  # outside a context: a connection of its own, returned after the call


def test_a_playground_without_lti_or_learner_tokens_opens_no_database(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'lti.sqlite3'}"})
    assert "db" not in app.extensions and not (tmp_path / "lti.sqlite3").exists()  # no records to keep


def test_a_launch_keeps_its_course_context_and_whether_a_teacher_made_it(tmp_path):
    store = Store(Database(f"sqlite:///{tmp_path / 'lti.sqlite3'}"))
    launch = {"issuer": "https://lms.example", "client_id": "c", "deployment_id": "d", "sub": "s"}
    launch |= {"resource_link_id": "r", "course": "Backprop 101", "ags": None, "created": 0.0}
    store.add_launch({**launch, "id": "teacher", "context_id": "course-7", "teacher": True})
    store.add_launch({**launch, "id": "learner"})  # a launch dict that names neither
    assert {k: store.launch("teacher")[k] for k in ("context_id", "teacher")} == {
        "context_id": "course-7",
        "teacher": True,
    }
    assert {k: store.launch("learner")[k] for k in ("context_id", "teacher")} == {
        "context_id": None,
        "teacher": False,
    }
