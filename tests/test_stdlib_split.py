"""The stdlib as the build splits it: what the first visit fetches is enough to grade, the rest imports."""

import hashlib
import json
import subprocess
import zipfile

import pytest

from engine.grade import grade
from server import ROOT
from server.assets import engine_archive
from server.static import BUILD, pyodide_version
from tests import solutions

PYODIDE = BUILD / "pyodide" / pyodide_version()
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


def lazy_archive():
    (path,) = PYODIDE.glob("python_stdlib_lazy-*.zip")
    return path


def modules(archive) -> set[str]:
    """The dotted modules of an archive, from its .py or .pyc files."""
    found = set()
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
    run = subprocess.run(
        ["node", "scripts/trace-stdlib.mjs", str(folder / "job.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_grader_needs_nothing_beyond_the_first_download(traced, cases):
    graded = traced["graded"]
    assert graded["fetches"] == 0
    assert [name for name, where in graded["modules"].items() if where == "lazy"] == []
    # It did grade: the same verdicts as in CPython, the right answer passing, every broken one failing.
    expected = [grade(source, cases)["passed"] for source in SOURCES]
    assert [r["passed"] for r in traced["reports"]] == expected
    assert expected[0] is True and not any(expected[-len(BROKEN) :])
    assert {r["error"] for r in traced["reports"][-len(BROKEN) :]} == {"runtime", "syntax", None}


def test_a_learner_imports_the_rest_of_the_stdlib_fetched_once(traced):
    imported = traced["imported"]
    assert imported["fetches"] == 1
    for name in LATER:
        assert imported["modules"][name] == "lazy", name
    assert imported["modules"]["json"] == "first"  # json.tool came from the second archive, json did not


def test_the_split_keeps_every_module_once():
    first, rest = modules(FIRST), modules(lazy_archive())
    assert first & rest == set()
    assert (first | rest) - {"sitecustomize", "_lazy_stdlib"} == modules(STOCK)
    listed = {line for line in (ROOT / "scripts" / "stdlib-first-load.txt").read_text().splitlines()}
    assert {m for m in listed if m and not m.startswith("#")} | {"sitecustomize", "_lazy_stdlib"} == first


def test_the_second_archive_is_named_by_its_contents():
    archive = lazy_archive()
    assert archive.name == f"python_stdlib_lazy-{hashlib.sha256(archive.read_bytes()).hexdigest()[:12]}.zip"
    with zipfile.ZipFile(FIRST) as first:
        (install,) = [name for name in first.namelist() if name.startswith("sitecustomize.")]
        assert archive.name.encode() in first.read(install)  # the name the finder fetches
