"""Fixtures for every test: the app, its client, the graded cases; each test process's own state."""

import os
import random
import shutil
import tempfile

import pytest

from server import create_app, queue
from server.exercises.reference import graded_cases
from tests.support.lti import rig
from tests.support.lti_registration import RegisteringRig
from tests.support.postgres import database_on, postgres_cluster, postgres_server
from tests.support.seeds import drawn_seed, replay


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--shots",
        action="store_true",
        help="save the pictures browser tests take (tests/browser/conftest.py's shoot) in test-results/",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Give this test process an instance folder of its own (keys, LTI database, sandbox slots).

    Each process of a run (pytest-xdist's workers) and every other run or deployment on the machine
    then keeps its state apart: no test waits on a sandbox slot another process holds. The servers
    the tests start in subprocesses inherit it.
    """
    folder = tempfile.mkdtemp(prefix="playground-instance-")
    config.instance_folder = folder
    os.environ["PLAYGROUND_INSTANCE_PATH"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    if folder := getattr(config, "instance_folder", None):
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture(autouse=True)
def no_queue_consumer_left():
    """The queue consumers an app made during a test started (server/queue.py) are stopped after it: no
    threads left to the next test (those of a module's apps stay for the module's tests)."""
    before = set(queue.RUNNING)
    yield
    for each in set(queue.RUNNING) - before:
        each.stop()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def cases():
    return graded_cases()


@pytest.fixture
def pg_lms(tmp_path):
    """A real LTI platform and the tool registered with it, on a PostgreSQL server a test can stop and
    start again (pg_lms.cluster: a database restart), one for a test."""
    with postgres_cluster() as cluster, rig(tmp_path, database_url=cluster.url) as made:
        made.cluster = cluster
        made.tool, made.tool_url = made.start_tool()
        made.register(made.tools[-1][1])
        yield made


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    """A real LTI platform and the tool registered with it (what the command printed: lms.printed), one
    for a module's tests."""
    with rig(tmp_path_factory.mktemp("lti")) as made:
        made.tool, made.tool_url = made.start_tool()
        made.printed = made.register()
        yield made


@pytest.fixture
def quiet_lms(tmp_path):
    """A real LTI platform and the tool registered with it, records on and nobody judging (QUEUE_WORKERS=0:
    what a launch and a Check leave is kept as it is), one for a test; the tool's app: quiet_lms.app."""
    with rig(tmp_path) as made:
        made.tool, made.tool_url = made.start_tool(QUEUE_WORKERS=0)
        made.register(made.tools[-1][1])
        made.app = made.tools[0][1]
        yield made


@pytest.fixture(scope="module")
def dyn_lms(tmp_path_factory):
    """A real LTI platform that registers the tool by LTI Dynamic Registration (its app: dyn_lms.app),
    the tool not registered with it yet, one for a module's tests."""
    made = RegisteringRig(tmp_path_factory.mktemp("dynreg"))
    try:
        made.tool, made.tool_url = made.start_tool()
        made.app = made.tools[-1][1]
        yield made
    finally:
        made.close()


@pytest.fixture
def rng():
    """A random source for a test that draws: a new seed each run, printed so that a failure shows it."""
    seed = drawn_seed()
    print(replay(seed))
    return random.Random(seed)


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL server for a test process's tests (its URL), started when one first needs it: each
    test makes the databases it needs (new_database) on it. A test that stops its server starts its own
    (pg_lms)."""
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database_url(request, tmp_path):
    """An empty database of each kind the server takes (the LTI store, records): a SQLite file, or a real
    PostgreSQL server's (a new database, dropped after the test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lti.sqlite3'}"
    else:
        with database_on(request.getfixturevalue("postgres")) as url:
            yield url
