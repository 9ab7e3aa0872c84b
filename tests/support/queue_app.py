"""The playground with two more tasks on its queue, for tests/test_queue.py (gunicorn and `flask --app
tests.support.queue_app queue work` make it as they make server's): note and fail."""

import os
import time

from flask import Flask

import server
from server import db, queue


def note(path: str, marker: str, pause_s: float = 0.0) -> None:
    """Append a line to a file: the marker, the id of the process that ran the task, and its name
    (QUEUE_TEST_NAME: the instance's)."""
    time.sleep(pause_s)
    with open(path, "a", encoding="utf-8") as notes:  # one short write in append mode: lines do not mix
        notes.write(f"{marker} {os.getpid()} {os.environ.get('QUEUE_TEST_NAME', '')}\n")


def fail(message: str) -> None:
    raise RuntimeError(message)


def create_app(test_config: dict | None = None) -> Flask:
    """server's app, its tasks and ours registered before its consumer starts, as create_app does."""
    app = server.create_app(test_config)
    if "queue" not in app.extensions:  # the playground opens one where records can exist; ours has tasks
        db.init_app(app)
        queue.init_app(app)
    tasks = queue.queue(app)
    app.extensions["test_tasks"] = {"note": tasks.task()(note), "fail": tasks.task()(fail)}
    queue.start(app)
    return app
