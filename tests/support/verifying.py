"""A server with verification on behind a trusted proxy, as the tests of its limits and of a class use it."""

from flask import Flask

from server import create_app
from tests.support import solutions

ENDLESS = "while True:\n    pass\n" + solutions.CORRECT  # holds its sandbox for the time limit


def verifying_app(tmp_path, **config) -> Flask:
    """Verification on, a 1.5 s limit, one proxy trusted, the slots in tmp_path; config on top."""
    settings = {
        "TESTING": True,
        "VERIFY": True,
        "PROXY_FIX": 1,
        "VERIFY_TIME_LIMIT_MS": 1500,
        "SIGNING_KEY_FILE": str(tmp_path / "k.pem"),
        "VERIFY_SLOTS_DIR": str(tmp_path / "slots"),
    }
    return create_app({**settings, **config})


def at(address: str) -> dict:
    """Headers of a request the (trusted) proxy says came from address."""
    return {"X-Forwarded-For": address}
