"""The work done after a request, from a queue any instance (or a worker machine) takes work from: Huey.

Huey (huey 3) keeps its queue in the playground's own database: PostgresHuey in PostgreSQL (its huey_*
tables, beside ours), SqliteHuey in a file beside the SQLite database (instance/queue.sqlite3). A
server process (`flask run`, each of gunicorn's workers) takes tasks with QUEUE_WORKERS threads of its
own, started by create_app once every task is registered (a consumer in the process: `make run` starts
nothing else); gunicorn makes the app in each worker after forking it (no --preload), so each worker
has its own consumer and its own connection to the queue; QUEUE_WORKERS=0 leaves the work to
`flask --app server queue work` elsewhere. Other commands (`flask lti ...`) enqueue and take nothing.
A task runs in an app context of its own (one database connection, the app's settings); one that
raises is logged with its name and arguments, and is not run again unless it asked to be (RetryTask).
"""

import atexit
import contextlib
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import click
from flask import Flask, current_app
from huey import PostgresHuey, SqliteHuey, signals
from huey.api import Task, TaskWrapper
from huey.consumer import Consumer
from huey.storage import SqliteStorage

from server.db import database_url, private
from server.db.unreachable import quiet_consumer

POLL_S = 1.0  # an idle SQLite worker looks for work at least this often (PostgreSQL's are woken at once)
STOP_S = 30.0  # at exit, a task under way has this long to end
SCHEMA_LOCK = 0x717565  # PostgreSQL advisory lock id: one process makes the queue's tables at a time


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
                "playground",
                dsn=url,
                results=False,
                create_tables=False,
                options="-c synchronous_commit=off",
            )
            # Its tables, made by one process at a time (at once, they collide in PostgreSQL's catalogue).
            with self.huey.storage.db(commit=True, close=True) as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in self.huey.storage.ddl:
                    cursor.execute(statement)
        else:
            path = Path(url.removeprefix("sqlite:///")).with_name("queue.sqlite3")
            path.parent.mkdir(parents=True, exist_ok=True)
            private(path)  # 0600, as the database beside it: tasks carry what learners sent
            self.huey = SqliteHuey("playground", filename=str(path), results=False, storage_class=Storage)
        self.consumer: Consumer | None = None
        self.started: list[Callable[[], None]] = []  # what to enqueue when a consumer starts
        self.huey.signal(signals.SIGNAL_ERROR)(self.log_failure)

    def task(self, **options) -> Callable[[Callable], TaskWrapper]:
        """Register a function as a task (Huey's options: retries, retry_delay, priority...)."""
        return lambda fn: self.huey.task(**options)(self.in_app(fn))

    def periodic(self, when: Callable, **options) -> Callable[[Callable], TaskWrapper]:
        """Register a function as a task every consumer's scheduler enqueues when `when` (huey.crontab)
        says, about once a minute at most."""
        return lambda fn: self.huey.periodic_task(when, **options)(self.in_app(fn))

    def in_app(self, fn: Callable) -> Callable:
        def in_app(*args, **kwargs):
            with self.app.app_context():
                return fn(*args, **kwargs)

        in_app.__name__ = in_app.__qualname__ = fn.__name__
        in_app.__module__ = fn.__module__
        return in_app

    def on_start(self, enqueue: Callable[[], None]) -> None:
        """Call enqueue each time a consumer starts taking work (catching up on what a stop left)."""
        self.started.append(enqueue)

    def start(self, workers: int) -> None:
        """Take tasks in this process, with `workers` threads (none: another process takes them)."""
        if workers > 0 and self.consumer is None:
            quiet_consumer()  # a database that cannot be reached: one line, not a traceback a second
            self.consumer = InProcess(
                self.huey, workers=workers, worker_type="thread", max_delay=POLL_S, shutdown_timeout=STOP_S
            )
            self.consumer.start()
            RUNNING.add(self)
            self.catch_up()

    def catch_up(self) -> None:
        for enqueue in self.started:
            enqueue()

    def stop(self) -> None:
        """Stop this process's consumer (a task under way ends first, within STOP_S)."""
        if self.consumer is not None:
            self.consumer.stop(graceful=True)
            self.consumer = None
            RUNNING.discard(self)

    def stopping(self) -> bool:
        """Whether this process's consumer is stopping: a task should end soon."""
        return self.consumer is not None and self.consumer.stop_flag.is_set()

    def work(self, workers: int) -> None:
        """Take tasks in the foreground until Ctrl-C or SIGTERM (which let a task under way end)."""
        self.stop()
        quiet_consumer()
        consumer = self.huey.create_consumer(
            workers=workers, worker_type="thread", max_delay=POLL_S, shutdown_timeout=STOP_S
        )
        self.consumer = consumer
        self.catch_up()
        try:
            consumer.run()
        finally:
            self.consumer = None

    @contextlib.contextmanager
    def turn(self, name: str, hold_s: float) -> Iterator[bool]:
        """A turn at something one task at a time may do, in every process that shares the queue: True
        for the block if no other task has it, else False at once (never a wait). A turn whose holder
        died is free again after hold_s, so the block must end well within it."""
        key = f"{self.huey.name}.turn.{name}"
        mine = (uuid.uuid4().hex, time.time() + hold_s)
        taken = self.huey.put_if_empty(key, mine)
        if not taken:
            held = self.huey.get(key, peek=True)
            if held is None or held[1] < time.time():  # its holder died mid-way: take it over
                self.huey.delete(key)
                taken = self.huey.put_if_empty(key, mine)
        try:
            yield taken
        finally:
            if taken and self.huey.get(key, peek=True) == mine:
                self.huey.delete(key)

    def log_failure(self, signal: str, task: Task, exc: BaseException | None = None) -> None:
        """Say in the app's log which task failed, with what, and why."""
        args, kwargs = task.data
        shown = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        name = f"{type(task).__module__}.{task.name}"
        self.app.logger.error("queue task %s(%s) failed: %r", name, shown, exc, exc_info=exc)


RUNNING: "weakref.WeakSet[TaskQueue]" = weakref.WeakSet()  # this process's queues with a consumer


@atexit.register
def stop_all() -> None:
    """Stop every consumer of this process (at exit; tests that start apps call it too)."""
    for each in list(RUNNING):
        each.stop()


def queue(app: Flask | None = None) -> "TaskQueue":
    """The app's queue (the current app's, unless named)."""
    return (app or current_app).extensions["queue"]


def serving() -> bool:
    """Whether this process serves requests (gunicorn, `flask run`, a test's app) rather than runs a
    command (`flask lti ...`, `flask queue work`): a command's app is made inside click's context."""
    context = click.get_current_context(silent=True)
    return context is None or context.info_name == "run"


def init_app(app: Flask, url: str | None = None) -> None:
    """Make the app's queue on its database (the app's, unless named), and the `queue` command; its
    consumer starts once every task is registered (start)."""
    app.config.setdefault("DATABASE_URL", None)
    app.extensions["queue"] = TaskQueue(app, url or database_url(app))
    app.cli.add_command(queue_command)


def start(app: Flask) -> None:
    """Take tasks in this process, when it serves requests and has tasks to take (create_app's end)."""
    if "queue" not in app.extensions:  # no records, no LTI: nothing is queued here
        return
    tasks = queue(app)
    if serving() and tasks.huey._registry._registry:  # Huey offers no public view of its tasks
        tasks.start(int(app.config["QUEUE_WORKERS"]))


@click.group("queue")
def queue_command() -> None:
    """The queue of work done after requests (Huey, in the playground's database)."""


@queue_command.command("work")
@click.option("--workers", type=int, default=None, help="threads taking tasks (default: QUEUE_WORKERS, or 2)")
def work_command(workers: int | None) -> None:
    """Take tasks from the queue in the foreground, as a worker machine does (Ctrl-C stops it)."""
    app = current_app
    count = workers or int(app.config["QUEUE_WORKERS"]) or 2
    click.echo(f"Taking tasks from the queue with {count} threads (Ctrl-C stops).")
    queue().work(count)
