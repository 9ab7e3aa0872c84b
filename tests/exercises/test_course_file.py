"""A folder's course.json: its schema (the one home of its form), its title by language, and `exercises
check` on a teacher's folder, which names a malformed course file, an unknown or repeated id with its line
and exits 1."""

import json
import shutil

import pytest
from click.testing import CliRunner
from flask.cli import FlaskGroup

from server import create_app
from server.exercises import registry, startup
from server.exercises.registry import ExercisesRefused, read_course, served, title
from tests.support.exercise_folders import SHIPPED, line_of


@pytest.fixture
def titled_shipped(tmp_path, monkeypatch):
    """ops and step as the playground's course (the seed's takes the longest to check)."""
    folder = tmp_path / "titled_shipped"
    for name in ("ops", "step"):
        shutil.copytree(SHIPPED / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    course = {"title": {"en": "The course", "de": "Der Kurs"}, "exercises": ["ops", "step"]}
    (folder / "course.json").write_text(json.dumps(course))
    monkeypatch.setattr(registry, "SHIPPED", folder)
    monkeypatch.setattr(startup, "passed_here", set())
    return folder


def teachers(tmp_path, text: str):
    folder = tmp_path / "teacher"
    folder.mkdir(exist_ok=True)
    (folder / "course.json").write_text(text)
    return folder


def check(folder, *args):
    app = create_app({"TESTING": True})
    return app.test_cli_runner().invoke(args=["exercises", "check", "--fresh", "1", *args, str(folder)])


def test_the_shipped_course_file_meets_its_schema_and_has_a_title_in_english_and_german():
    found, complaints = read_course(SHIPPED)
    assert complaints == [] and found is not None
    assert set(found.titles) == {"en", "de"} and all(found.titles.values())
    assert found.ids == json.loads((SHIPPED / "course.json").read_text())["exercises"]


def test_a_course_title_is_one_string_or_one_per_language_and_falls_back_to_english(titled_shipped, tmp_path):
    assert title(None) == {"en": "The course", "de": "Der Kurs"}
    app = create_app({"TESTING": True})
    assert app.extensions["exercises"].title("de") == "Der Kurs"
    assert app.extensions["exercises"].title("fr") == "The course"
    teacher = teachers(tmp_path, '{"title": "Week 3", "exercises": ["step"]}')
    assert title(teacher) == {"en": "Week 3"}
    app = create_app({"TESTING": True, "EXERCISES": str(teacher)})
    assert app.extensions["exercises"].title("de") == "Week 3"
    assert [e.id for e in app.extensions["exercises"].exercises()] == ["step"]
    teachers(tmp_path, '{"exercises": ["step"]}')
    assert title(teacher) is None  # the teacher's course gives none: not the playground's


def test_a_repeated_or_unknown_id_is_named_with_its_line(titled_shipped, tmp_path):
    teacher = teachers(tmp_path, '{\n  "exercises": [\n    "ops",\n    "step",\n    "ops"\n  ]\n}\n')
    path = teacher / "course.json"
    with pytest.raises(ExercisesRefused, match=rf"^{path}:5: ops is in the course twice"):
        served(teacher)
    teachers(tmp_path, '{\n  "exercises": [\n    "ops",\n    "tanh"\n  ]\n}\n')
    with pytest.raises(ExercisesRefused, match=rf"^{path}:4: no exercise folder tanh$"):
        served(teacher)


@pytest.mark.parametrize(
    "text, said",
    [
        ('{"exercises": ["ops",]}', ":1:22: not JSON"),
        ('{\n  "exercises": []\n}', ":2: /exercises: [] should be non-empty"),
        ('{\n  "exercises": ["ops"],\n  "title": {"de": "Kurs"}\n}', ":3: /title: "),
        ('{\n  "exercises": ["ops", "Step 2"]\n}', ":2: /exercises/1: 'Step 2' does not match"),
        ('{\n  "exercises": ["ops"],\n  "order": 1\n}', ":1: /: Additional properties are not allowed"),
    ],
)
def test_a_malformed_course_file_is_named_with_its_line(titled_shipped, tmp_path, text, said):
    teacher = teachers(tmp_path, text)
    found, complaints = read_course(teacher)
    assert found is None and complaints[0].startswith(f"{teacher / 'course.json'}{said}"), complaints


def test_exercises_check_of_a_teachers_folder_checks_its_course_file_then_each_one(titled_shipped, tmp_path):
    teacher = teachers(tmp_path, '{\n  "title": "Week 3",\n  "exercises": [\n    "step",\n    "step"\n  ]\n}')
    result = check(teacher)
    assert result.exit_code == 1
    line = line_of(teacher / "course.json", '"step"') + 1
    assert f"  FAIL        {teacher / 'course.json'}:{line}: step is in the course twice" in result.output
    assert result.output.endswith("0 exercises checked: none failed; the course file fails\n")
    teachers(tmp_path, '{"title": "Week 3", "exercises": ["step"]}')
    result = check(teacher)
    assert result.exit_code == 0, result.output
    assert f"{teacher / 'course.json'}  (Week 3)\n  course      step\n" in result.output
    assert "step  (One step" in result.output and result.output.endswith("1 exercise checked: all pass\n")


def test_exercises_check_with_no_folder_checks_the_served_course_file(titled_shipped, tmp_path, monkeypatch):
    teacher = teachers(tmp_path, '{"exercises": ["ops", "nothing"]}')
    monkeypatch.setenv("PLAYGROUND_EXERCISES", str(teacher))
    monkeypatch.setenv("PLAYGROUND_INSTANCE_PATH", str(tmp_path / "instance"))
    result = CliRunner().invoke(FlaskGroup(load_dotenv=False), ["--app", "server", "exercises", "check"])
    assert result.exit_code == 1
    assert f"  FAIL        {teacher / 'course.json'}:1: no exercise folder nothing" in result.output
