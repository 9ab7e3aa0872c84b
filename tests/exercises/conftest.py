"""The exercises' tests' fixtures: a copy of a shipped exercise's folder, to break."""

import shutil
from pathlib import Path

import pytest

from tests.support.exercise_folders import SHIPPED


@pytest.fixture
def copy(tmp_path):
    """A copy of a shipped exercise's folder, to break."""

    def copied(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(SHIPPED / name, folder, ignore=shutil.ignore_patterns("__pycache__"))
        return folder

    return copied
