"""The work done after a request, from a queue any instance (or a worker machine) takes work from: Huey.

Huey (huey 3) keeps its queue in the playground's own database: PostgresHuey in PostgreSQL (its huey_*
tables, beside ours), SqliteHuey in a file beside the SQLite database (instance/queue.sqlite3). Each
process of an instance runs QUEUE_WORKERS threads that take tasks (a consumer in the process: `make run`
starts nothing else); QUEUE_WORKERS=0 leaves the work to `flask --app server queue work` elsewhere.
A task runs in an app context of its own (one database connection, the app's settings).
"""

from collections.abc import Callable
from pathlib import Path

from flask import Flask, current_app
from huey import PostgresHuey, SqliteHuey
from huey.api import TaskWrapper
from huey.consumer import Consumer
from huey.storage import SqliteStorage


class Storage(SqliteStorage):
    """SqliteHuey's storage, its commits synced at checkpoints (WAL's synchronous=NORMAL), not each."""

    def _create_connection(self):
        conn = super()._create_connection()
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn


class InProcess(Consumer):
    """Huey's consumer as threads of a server process: the server keeps its own signal handlers."""

    def _set_signal_handlers(self) -> None:
        pass


class TaskQueue:
    """The app's queue: tasks registered on it run in an app context, in whichever process takes them."""

    def __init__(self, app: Flask, url: str) -> None:
        self.app = app
        # A task is queued within a learner's request: its commit waits for no disk sync (a task queued
        # in the moment before a crash may be lost; its attempt stays queued, nothing is corrupted).
        if url.startswith(("postgresql://", "postgres://")):
            self.huey = PostgresHuey(
                "playground", dsn=url, results=False, options="-c synchronous_commit=off"
            )
        else:
            path = Path(url.removeprefix("sqlite:///")).with_name("queue.sqlite3")
            self.huey = SqliteHuey("playground", filename=str(path), results=False, storage_class=Storage)
        self.consumer: Consumer | None = None

    def task(self, **options) -> Callable[[Callable], TaskWrapper]:
        """Register a function as a task (Huey's options: retries, retry_delay, priority...)."""

        def register(fn: Callable) -> TaskWrapper:
            def in_app(*args, **kwargs):
                with self.app.app_context():
                    return fn(*args, **kwargs)

            in_app.__name__ = in_app.__qualname__ = fn.__name__
            in_app.__module__ = fn.__module__
            return self.huey.task(**options)(in_app)

        return register

    def start(self, workers: int) -> None:
        """Take tasks in this process, with `workers` threads (none: another process takes them)."""
        if workers > 0 and self.consumer is None:
            self.consumer = InProcess(self.huey, workers=workers, worker_type="thread", periodic=True)
            self.consumer.start()

    def stop(self) -> None:
        """Stop this process's consumer (a task under way ends first)."""
        if self.consumer is not None:
            self.consumer.stop(graceful=True)
            self.consumer = None


def queue() -> TaskQueue:
    """The app's queue."""
    return current_app.extensions["queue"]


def init_app(app: Flask, url: str) -> None:
    """Make the app's queue on its database; its consumer starts once the tasks are registered (start)."""
    app.config.setdefault("QUEUE_WORKERS", 2)
    app.extensions["queue"] = TaskQueue(app, url)
