"""`exercises check` and `exercises new` as a teacher runs them, PLAYGROUND_EXERCISES's folder, and the
start-up check: a served exercise that fails its check stops create_app with one line."""

import json
import shutil

import pytest

from server import create_app
from server.exercises import registry, runs, startup
from server.exercises.registry import ExercisesRefused, served
from tests.support.exercise_folders import SHIPPED


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """The playground's own exercises as these tests serve them: ops and step, in a course of their own
    (the seed's takes the longest to check at each start: test_check.py checks it)."""
    folder = tmp_path / "shipped"
    for name in ("ops", "step"):
        shutil.copytree(SHIPPED / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "course.json").write_text('{"exercises": ["ops", "step"]}')
    monkeypatch.setattr(registry, "SHIPPED", folder)
    monkeypatch.setattr(startup, "passed_here", set())
    return folder


@pytest.fixture
def served_app(shipped, tmp_path):
    (tmp_path / "teacher").mkdir()
    return create_app({"TESTING": True, "EXERCISES": str(tmp_path / "teacher")})


def new(app, name: str, where) -> object:
    return app.test_cli_runner().invoke(args=["exercises", "new", name, "--in", str(where)])


def test_exercises_new_writes_an_exercise_that_passes_its_own_check(served_app, tmp_path):
    result = new(served_app, "tanh", tmp_path)
    assert result.exit_code == 0, result.output
    assert (
        "pairs       3 of 3 told apart" in result.output and f"Written: {tmp_path / 'tanh'}" in result.output
    )
    assert json.loads((tmp_path / "tanh" / "exercise.json").read_text())["id"] == "tanh"
    again = served_app.test_cli_runner().invoke(args=["exercises", "check", str(tmp_path / "tanh")])
    assert again.exit_code == 0 and again.output.endswith("1 exercise checked: all pass\n")


def test_exercises_new_refuses_a_folder_that_exists_a_shipped_name_and_a_bad_name(served_app, tmp_path):
    (tmp_path / "mine").mkdir()
    assert "exists already" in new(served_app, "mine", tmp_path).output
    assert "the playground ships an exercise of that name" in new(served_app, "ops", tmp_path).output
    assert "an exercise's name is a-z" in new(served_app, "Tanh", tmp_path).output


def test_exercises_check_exits_non_zero_and_says_which_fails(served_app, tmp_path):
    assert new(served_app, "tanh", tmp_path).exit_code == 0
    slip = tmp_path / "tanh" / "mistakes" / "no-chain.py"
    slip.write_text((tmp_path / "tanh" / "mistakes" / "from-input.py").read_text())
    result = served_app.test_cli_runner().invoke(args=["exercises", "check", str(tmp_path / "tanh")])
    assert result.exit_code == 1
    assert "FAIL        mistakes/no-chain.py is named from-input, not no-chain" in result.output
    assert result.output.endswith("1 exercise checked: 1 fail\n")


def test_exercises_check_with_no_folder_checks_every_served_one(served_app):
    result = served_app.test_cli_runner().invoke(args=["exercises", "check", "--fresh", "1"])
    assert result.exit_code == 0, result.output
    assert "ops  (Pass gradients" in result.output and "step  (One step" in result.output
    assert result.output.endswith("2 exercises checked: all pass\n")


def test_a_teachers_folder_is_served_beside_the_playgrounds_in_its_course_order(shipped, tmp_path):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    assert new(create_app({"TESTING": True}), "tanh", teacher).exit_code == 0
    assert [f.name for f, _ in served(teacher)] == ["ops", "step", "tanh"]
    (teacher / "course.json").write_text('{"exercises": ["tanh", "ops"]}')
    app = create_app({"TESTING": True, "EXERCISES": str(teacher)})
    assert [e.id for e in app.extensions["exercises"].exercises()] == ["tanh", "ops"]
    assert [own for _, own in served(teacher)] == [False, True]
    case = app.extensions["exercises"].cases("tanh", "all")[0]  # 1 - tanh(0.5)², from the server's run
    assert case["expected"] == [0.786447733] and case["wrong"]["from-input"] == [0.75]


def test_a_teachers_folder_may_not_reuse_a_shipped_id(shipped, tmp_path):
    teacher = tmp_path / "teacher"
    shutil.copytree(shipped / "ops", teacher / "ops")
    with pytest.raises(ExercisesRefused, match=r"the playground ships an exercise ops"):
        served(teacher)


def test_a_failing_exercise_stops_create_app_with_one_line(shipped, tmp_path, monkeypatch, capsys):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    assert new(create_app({"TESTING": True}), "tanh", teacher).exit_code == 0
    starter = teacher / "tanh" / "starter.py"
    starter.write_text((teacher / "tanh" / "reference.py").read_text())
    with pytest.raises(ExercisesRefused) as refused:
        create_app({"TESTING": True, "EXERCISES": str(teacher)})
    said = "starter.py passes: a learner would have nothing to do"
    assert str(refused.value) == f"PLAYGROUND_EXERCISES: {teacher / 'tanh'} fails its check: {said}"
    monkeypatch.setenv("PLAYGROUND_EXERCISES", str(teacher))
    with pytest.raises(SystemExit) as stopped:
        create_app()
    assert stopped.value.code == 3
    assert capsys.readouterr().err == f"Error: {refused.value}\n"


def test_the_start_up_check_runs_an_exercises_code_once_per_digest(shipped, tmp_path, monkeypatch):
    ran = []
    monkeypatch.setattr(
        startup.runs, "run", lambda e, fresh=runs.FRESH: ran.append((e.id, fresh)) or runs.Findings()
    )
    monkeypatch.setenv("PLAYGROUND_INSTANCE_PATH", str(tmp_path / "instance"))
    create_app({"TESTING": True})
    assert ran == [("ops", 0), ("step", 0)]  # on the fixed cases only: no fresh draws at start
    create_app({"TESTING": True})
    assert len(ran) == 2  # this process saw them pass
    startup.passed_here.clear()
    create_app({"TESTING": True})
    assert len(ran) == 2  # the instance folder keeps what passed, for the next process
    assert len(json.loads((tmp_path / "instance" / startup.CHECKED).read_text())) == 2
    (shipped / "ops" / "notes.md").write_text("a teacher's note changes the folder's digest")
    create_app({"TESTING": True})
    assert ran[2:] == [("ops", 0)]
