"""`exercises check --runtime pyodide`: every shipped exercise passes its check in Node's Pyodide, the
learner's runtime, on the cases and numbers CPython gave; an exercise whose numbers differ there is
refused, though CPython passes it. Each starts Pyodide (seconds): slow."""

import json

import pytest

from server import create_app
from server.exercises.checking import check
from tests.support.exercise_folders import SHIPPED

OFFERED = ("en", "de")
SHIPPED_IDS = json.loads((SHIPPED / "course.json").read_text())["exercises"]

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", SHIPPED_IDS)
def test_each_shipped_exercise_passes_its_check_in_pyodide(name):
    checked = check(SHIPPED / name, own=True, offered=OFFERED, runtime="pyodide")
    assert checked.passed, checked.text()
    said = dict(checked.said)
    assert said["runtime"].startswith("Pyodide ") and "in Node" in said["runtime"]
    keys = [m["key"] for m in json.loads((SHIPPED / name / "exercise.json").read_text())["mistakes"]]
    assert said["numbers"].startswith(f"the reference's and {len(keys)} mistakes' as CPython's on all")
    for key in keys:  # named as itself by the grader in Pyodide
        assert f"{key}: named {key}" in said["mistakes"]
    assert said["starter"].startswith("fails")


def test_a_number_cpython_computes_otherwise_is_refused_in_pyodide(copy, tmp_path):
    folder = copy("ops")
    reference = folder / "reference.py"
    off = "other.grad += out.grad + (1e-6 if sys.platform != 'emscripten' else 0.0)"  # off in CPython only
    text = reference.read_text().replace("other.grad += out.grad", off, 1)
    reference.write_text("import sys\n\n" + text)
    assert check(folder, offered=OFFERED).passed  # CPython agrees with itself
    app = create_app({"TESTING": True, "EXERCISES": None})
    result = app.test_cli_runner().invoke(args=["exercises", "check", "--runtime", "pyodide", str(folder)])
    assert result.exit_code == 1, result.output
    assert "FAIL        reference.py gives other numbers in Pyodide than in CPython on " in result.output
    assert "in Pyodide, [" in result.output and "in CPython" in result.output
    assert result.output.endswith("1 exercise checked: 1 fail\n")
