import pytest

from engine.reference import graded_cases
from server import create_app


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def cases():
    return graded_cases()
