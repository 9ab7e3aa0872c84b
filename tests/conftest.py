import pytest

from server import create_app
from server.reference import graded_cases


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def cases():
    return graded_cases()
