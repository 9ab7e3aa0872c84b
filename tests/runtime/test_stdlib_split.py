"""The stdlib as the build splits it: what the first visit fetches is enough to grade; the rest imports."""

import hashlib
import io
import json
import zipfile

import pytest

from runtime.server import pyodide_folder
from server import ROOT
from server.page.assets import engine_archive
from tests.support import solutions
from tests.support.node import node_json
from tests.support.seed import grade

PYODIDE = pyodide_folder()
FIRST = PYODIDE / "python_stdlib.zip"
STOCK = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"

# Learner code that fails every way the grader reports: each path may import something of its own.
BROKEN = [
    "def backward(out):\n    raise ValueError('no')\n",
    "def backward(out\n",  # a syntax error
    "def backward(out):\n    backward(out)\n",  # recursion without end
    "def backward(out):\n    print('seen', out)\n    undefined_name\n",  # output, a NameError with a hint
    "x = 1 / 0\n",  # fails before backward is defined
    "def backward(out):\n    return [][1]\n",
    "import math, collections\ndef backward(out):\n    out.grad = math.nan\n",
]
SOURCES = [v for k, v in vars(solutions).items() if k.isupper() and isinstance(v, str)] + BROKEN
# Outside the first download: a learner may still import them.
LATER = ["fractions", "decimal", "statistics", "unittest", "json.tool", "email.mime.text"]


def lazy_folder():
    (path,) = PYODIDE.glob("python_stdlib_lazy-*")
    return path


def modules(*archives) -> set[str]:
    """The dotted modules of archives, from their .py or .pyc files."""
    found = set()
    for archive in archives:
        for name in zipfile.ZipFile(archive).namelist():
            if name.endswith((".py", ".pyc")):
                parts = name.rsplit(".", 1)[0].split("/")
                found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.fixture(scope="module")
def traced(tmp_path_factory, cases):
    """Grade every source in Pyodide under Node with the built stdlib, then import LATER."""
    folder = tmp_path_factory.mktemp("trace")
    (folder / "engine.zip").write_bytes(engine_archive())
    job = {"pyodide": str(PYODIDE), "engine": str(folder / "engine.zip"), "cases": cases}
    (folder / "job.json").write_text(json.dumps(job | {"sources": SOURCES, "imports": LATER}))
    return node_json("runtime/build/trace-stdlib.mjs", folder / "job.json", timeout=120)


def test_the_grader_needs_nothing_beyond_the_first_download(traced, cases):
    graded = traced["graded"]
    # A module named here: add it to runtime/build/stdlib-first-load.txt (the first visit must not
    # fetch the rest).
    assert [name for name, where in graded["modules"].items() if where == "lazy"] == []
    assert graded["fetches"] == 0
    # It did grade: the same verdicts as in CPython, the right answer passing, every broken one failing.
    expected = [grade(source, cases)["passed"] for source in SOURCES]
    assert [r["passed"] for r in traced["reports"]] == expected
    assert expected[0] is True and not any(expected[-len(BROKEN) :])
    assert {r["error"] for r in traced["reports"][-len(BROKEN) :]} == {"runtime", "syntax", None}


def test_a_learner_imports_the_rest_of_the_stdlib(traced):
    imported = traced["imported"]
    for name in LATER:
        assert imported["modules"][name] == "lazy", name
    assert imported["modules"]["json"] == "first"  # json.tool came from json.zip of the rest, json did not
    # Only the archives of what was imported: fractions, decimal, statistics, unittest, json, email and
    # what those import (argparse, datetime, difflib, gettext, ipaddress, quopri, urllib), not all 124.
    tops = {name.partition(".")[0] for name, where in imported["modules"].items() if where == "lazy"}
    assert imported["fetches"] == len(tops) < 20


def test_the_split_keeps_every_module_once():
    archives = sorted(lazy_folder().glob("*.zip"))
    first, rest = modules(FIRST), modules(*archives)
    assert first & rest == set()
    assert (first | rest) - {"sitecustomize", "_lazy_stdlib"} == modules(STOCK)
    for archive in archives:  # one archive a top-level module or package, named after it
        assert {m.partition(".")[0] for m in modules(archive)} <= {archive.stem}, archive
    listed = {
        line for line in (ROOT / "runtime" / "build" / "stdlib-first-load.txt").read_text().splitlines()
    }
    assert {m for m in listed if m and not m.startswith("#")} | {"sitecustomize", "_lazy_stdlib"} == first


def test_the_rest_is_in_a_folder_named_by_its_contents():
    folder = lazy_folder()
    digest = hashlib.sha256()
    for archive in sorted(folder.glob("*.zip"), key=lambda p: p.stem):
        digest.update(archive.stem.encode() + b"\0" + archive.read_bytes())
    assert folder.name == f"python_stdlib_lazy-{digest.hexdigest()[:12]}"
    with zipfile.ZipFile(FIRST) as first:
        (install,) = [name for name in first.namelist() if name.startswith("sitecustomize.")]
        assert folder.name.encode() in first.read(install)  # the folder the finder fetches from


def test_every_file_under_engine_is_one_the_browsers_grader_uses(traced):
    # engine/ and the exercise's plugin are exactly what the browser gets (the archive holds all of
    # them): so every file in them must be one the grader needs there. The exercise's engine is run from
    # its source by namespace.py, not imported.
    loaded = set(traced["graded"]["modules"])
    files = {"engine" if p.stem == "__init__" else f"engine.{p.stem}" for p in (ROOT / "engine").glob("*.py")}
    archived = modules(io.BytesIO(engine_archive()))
    assert files <= archived
    assert archived - {"exercises.backward.engine"} <= loaded
    assert {name for name in loaded if name.split(".")[0] == "engine"} == files
