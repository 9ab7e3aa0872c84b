"""The LTI store's connections: one per app context (a request, a pass of the passback sender, a command)."""

import sqlite3

import pytest

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
