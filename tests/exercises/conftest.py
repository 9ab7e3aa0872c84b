"""The exercises' tests run the check's code stages through the general grader, or, while this checkout
has none (issue 51's P1 not merged), through the tests' stand-in (tests/support/general_grader.py)."""

import shutil
import sys
from pathlib import Path

import pytest

from server.exercises import cli, grading
from tests.support import general_grader
from tests.support.exercise_folders import SHIPPED


@pytest.fixture(autouse=True)
def grader(monkeypatch):
    """The grader the check uses, and the child process `exercises check` runs (the same)."""
    if general_grader.available():
        yield grading.GRADER
        return
    before = grading.use(general_grader.Adapter())
    monkeypatch.setattr(cli, "CHILD", [sys.executable, "-m", "tests.support.general_grader"])
    yield grading.GRADER
    grading.use(before)


@pytest.fixture
def copy(tmp_path):
    """A copy of a shipped exercise's folder, to break."""

    def copied(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(SHIPPED / name, folder, ignore=shutil.ignore_patterns("__pycache__"))
        return folder

    return copied
