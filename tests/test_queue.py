"""The queue (server/queue.py, Huey in the playground's database): the work a request leaves is done by
another process, by any instance that shares the database and only once, after a restart if none was
running, and by `flask queue work` alone when the servers take none (QUEUE_WORKERS=0)."""

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from flask import Flask

from server import ROOT
from server.queue import TaskQueue
from tests.support import servers
from tests.support.queue_app import create_app

pytestmark = pytest.mark.slow  # server processes and a database server: not in make test-fast

APP = "tests.support.queue_app:create_app()"


@pytest.fixture(params=["sqlite", "postgresql"])
def queue_url(request, tmp_path):
    """Each database the queue lives in (its URL): SQLite (queue.sqlite3 beside the file) or PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lti.sqlite3'}"
    return request.getfixturevalue("postgres")


@pytest.fixture
def enqueuer(queue_url):
    """An app in this test's process that only enqueues (QUEUE_WORKERS=0), as a request's would."""
    app = create_app({"TESTING": True, "DATABASE_URL": queue_url, "QUEUE_WORKERS": 0})
    yield app
    app.extensions["queue"].stop()


def env(queue_url: str, name: str, workers: int = 2) -> dict:
    return {
        "PLAYGROUND_DATABASE_URL": queue_url,
        "PLAYGROUND_QUEUE_WORKERS": str(workers),
        "QUEUE_TEST_NAME": name,
    }


def notes(path: Path) -> list[tuple[str, int, str]]:
    """The lines the note tasks appended: (marker, process id, instance name)."""
    if not path.exists():
        return []
    return [
        (m, int(pid), name) for m, pid, name in (line.split(" ") for line in path.read_text().splitlines())
    ]


def noted(path: Path, count: int, timeout: float = 60) -> list[tuple[str, int, str]]:
    """The notes, once there are count of them (a guard against a hung test: it fails past timeout)."""
    deadline = time.monotonic() + timeout
    while len(found := notes(path)) < count:
        assert time.monotonic() < deadline, f"{len(found)} of {count} tasks done"
        time.sleep(0.1)
    return found


def enqueue_notes(app, path: Path, markers: list[str], **options) -> None:
    for marker in markers:
        app.extensions["test_tasks"]["note"](str(path), marker, **options)


def test_two_instances_sharing_postgresql_both_take_work_and_no_task_runs_twice(postgres, tmp_path):
    path = tmp_path / "notes"
    app = create_app({"TESTING": True, "DATABASE_URL": postgres, "QUEUE_WORKERS": 0})
    try:
        with (
            servers.gunicorn(workers=2, env=env(postgres, "first"), app=APP),
            servers.gunicorn(workers=2, env=env(postgres, "second"), app=APP),
        ):
            # each instance's consumer is up (a gunicorn answers once one worker has booted; on a busy
            # machine the other instance's may boot seconds later): a warm-up task taken by each
            warm = tmp_path / "warm"
            deadline = time.monotonic() + 60
            while {name for _, _, name in notes(warm)} != {"first", "second"}:
                assert time.monotonic() < deadline, notes(warm)
                enqueue_notes(app, warm, ["warm"])
                time.sleep(0.2)
            now = [f"now-{n}" for n in range(60)]
            later = [f"later-{n}" for n in range(40)]  # from the schedule, which each consumer reads too
            enqueue_notes(app, path, now, pause_s=0.05)
            for marker in later:
                app.extensions["test_tasks"]["note"].schedule((str(path), marker, 0.05), delay=1)
            done = noted(path, len(now) + len(later))
            time.sleep(1.5)  # a task run twice would show by now
            done = notes(path)
    finally:
        app.extensions["queue"].stop()
    assert Counter(marker for marker, _, _ in done) == Counter(now + later)  # each once, none twice
    assert {name for _, _, name in done} == {"first", "second"}  # both instances took work...
    processes = {pid for _, pid, _ in done}
    assert os.getpid() not in processes and len(processes) >= 3  # ...in gunicorn's workers, each its own


def test_processes_starting_at_once_on_a_new_postgresql_database_make_the_queue_once(postgres):
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as connection:  # a database no queue was made in
        for table in ("huey_kv", "huey_schedule", "huey_task", "huey_counter"):
            connection.execute(f"DROP TABLE IF EXISTS {table}")
    app = Flask(__name__)
    failed: list[Exception] = []

    def make() -> None:
        try:
            TaskQueue(app, postgres)
        except psycopg.Error as exc:  # made at once without a lock, most fail in PostgreSQL's catalogue
            failed.append(exc)

    starting = [threading.Thread(target=make) for _ in range(8)]  # as gunicorn's workers of two instances
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    assert failed == []


def test_work_enqueued_while_no_consumer_runs_is_done_when_one_starts(queue_url, enqueuer, tmp_path):
    path = tmp_path / "notes"
    with servers.gunicorn(workers=1, env=env(queue_url, "before"), app=APP):
        enqueue_notes(enqueuer, path, ["before"])
        assert noted(path, 1)[0][2] == "before"
    enqueue_notes(enqueuer, path, [f"waiting-{n}" for n in range(5)])  # the server is stopped
    enqueuer.extensions["test_tasks"]["note"].schedule((str(path), "scheduled"), delay=0.5)
    time.sleep(1.5)  # the scheduled one is due now: nothing runs them
    assert len(notes(path)) == 1
    with servers.gunicorn(workers=1, env=env(queue_url, "after"), app=APP):
        done = noted(path, 7)
    assert sorted(m for m, _, name in done if name == "after") == [
        "scheduled",
        *(f"waiting-{n}" for n in range(5)),
    ]


def test_queue_workers_0_runs_nothing_in_the_server_and_flask_queue_work_does(queue_url, enqueuer, tmp_path):
    path = tmp_path / "notes"
    with servers.gunicorn(workers=2, env=env(queue_url, "server", workers=0), app=APP):
        enqueue_notes(enqueuer, path, [f"task-{n}" for n in range(10)])
        time.sleep(3)  # more than a worker's longest wait between looks at the queue
        assert notes(path) == []
        worker = subprocess.Popen(
            [str(Path(sys.executable).parent / "flask"), "--app", "tests.support.queue_app", "queue", "work"],
            cwd=ROOT,
            env={**os.environ, **env(queue_url, "worker", workers=0)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            done = noted(path, 10)
            assert {name for _, _, name in done} == {"worker"} and {pid for _, pid, _ in done} == {worker.pid}
            worker.send_signal(signal.SIGINT)  # Ctrl-C
            output, _ = worker.communicate(timeout=30)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert worker.returncode == 0, output
    assert "Taking tasks from the queue with 2 threads" in output


def test_make_runs_flask_run_takes_work_with_no_other_process(enqueuer, queue_url, tmp_path):
    path = tmp_path / "notes"
    with socket.socket() as probe:  # a free port for flask run, which says the one it was given
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = [str(Path(sys.executable).parent / "flask"), "--app", "tests.support.queue_app", "run"]
    args += ["--host", "127.0.0.1", "--port", str(port)]
    with servers.run_server(args, r"Running on http://(?P<host>[\d.]+):(?P<port>\d+)", env(queue_url, "run")):
        enqueue_notes(enqueuer, path, [f"task-{n}" for n in range(3)])
        assert {name for _, _, name in noted(path, 3)} == {"run"}


def test_a_command_enqueues_but_takes_no_work(queue_url, enqueuer, tmp_path):
    path = tmp_path / "notes"
    enqueue_notes(enqueuer, path, [f"task-{n}" for n in range(3)])
    flask = str(Path(sys.executable).parent / "flask")
    done = subprocess.run(
        [flask, "--app", "tests.support.queue_app", "routes"],
        cwd=ROOT,
        env={**os.environ, **env(queue_url, "command")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert notes(path) == []  # the tasks wait for a server or `flask queue work`
    with servers.gunicorn(workers=1, env=env(queue_url, "server"), app=APP):
        assert {name for _, _, name in noted(path, 3)} == {"server"}


def test_a_task_that_fails_is_logged_with_its_name_and_arguments_and_the_consumer_stops(tmp_path, caplog):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'lti.sqlite3'}", "QUEUE_WORKERS": 1}
    )
    tasks = app.extensions["queue"]
    threads = [thread for _, thread in tasks.consumer.worker_threads] + [tasks.consumer.scheduler]
    try:
        with caplog.at_level(logging.ERROR, logger=app.logger.name):
            app.extensions["test_tasks"]["fail"]("no")
            deadline = time.monotonic() + 30
            while not any("failed" in r.getMessage() for r in caplog.records if r.name == app.logger.name):
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        tasks.stop()
    (line,) = [r.getMessage() for r in caplog.records if r.name == app.logger.name]
    said = "queue task tests.support.queue_app.fail('no') failed: RuntimeError('no')"
    assert line == said
    assert all(thread.is_alive() is False for thread in threads)  # stopped: no thread left to the next test
