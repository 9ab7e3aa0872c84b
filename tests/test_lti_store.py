"""The LTI store's connections: one per app context (a request, a pass of the passback sender, a command)."""

import sqlite3

import pytest

from server.lti import store as store_module
from server.lti.store import Store


def test_an_app_context_holds_one_connection_and_its_end_closes_it(app, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'lti.sqlite3'}")
    with app.app_context():
        store.put("nonce", "value", 60)
        with store.connect() as first:
            pass
        assert store.get("nonce") == "value" and store.take("nonce")
        with store.connect() as again:
            assert again is first  # every statement of the context on one connection
    with pytest.raises(sqlite3.ProgrammingError):
        first.execute("SELECT 1")  # closed when the context ended
    assert store.get("nonce") is None  # outside a context: a connection of its own, closed after the call


def test_a_database_from_before_one_score_per_launch_keeps_one_pending_pass_per_launch(
    database_url, monkeypatch
):
    """A database main made before this migration (its one migration, the schema as 06bf237 left it),
    with rows in it, brought up to date in place on each kind of database."""
    url = database_url
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])  # the schema as it was
    old = Store(url)
    launch = {"issuer": "https://lms.example", "client_id": "c", "deployment_id": "d", "sub": "s"}
    launch |= {"resource_link_id": "r", "course": "C", "ags": None, "created": 0.0}
    for name in ("sent-once", "queued-twice", "queued-once"):
        old.add_launch({**launch, "id": name})
    with old.connect() as db:  # what every verified pass queued then: a row each
        for jti, launch_id, state in [
            ("a", "sent-once", "sent"),
            ("b", "sent-once", "pending"),
            ("c", "queued-twice", "pending"),
            ("d", "queued-twice", "pending"),
            ("e", "queued-once", "pending"),
        ]:
            db.execute(
                "INSERT INTO passbacks (jti, launch_id, score, maximum, timestamp, state, next_try)"
                " VALUES (?, ?, 1, 1, 't', ?, 0)",
                (jti, launch_id, state),
            )
    monkeypatch.undo()
    new = Store(url)  # migrated: later passes of a launch whose score is sent or on its way go
    assert sorted(new.due(now=None)) == ["c", "e"] and new.passback("a")["state"] == "sent"
    assert new.passback("b") is None and new.passback("d") is None
    assert new.add_passback("f", "queued-once", 1, 1, "t") is False  # one on its way already
    assert new.add_passback("g", "sent-once", 1, 1, "t") is False  # sent already
