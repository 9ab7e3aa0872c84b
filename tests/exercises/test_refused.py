"""The exercises commands run when the served exercises fail the start-up check, as a teacher types them
(`flask --app server exercises check`): the refusal is their own output, and they say why; every other
command, and the server, still stop with the one line."""

import shutil

import pytest
from click.testing import CliRunner
from flask.cli import FlaskGroup

from server import create_app
from server.exercises import cli
from server.exercises.registry import ExercisesRefused

REFUSAL = "starter.py passes: a learner would have nothing to do"


@pytest.fixture
def teacher(tmp_path, monkeypatch):
    """A teacher's folder whose one exercise (the template `exercises new` writes) fails its check: its
    starter is its reference. The environment a server reads names it."""
    folder = tmp_path / "teacher"
    shutil.copytree(cli.TEMPLATE, folder / "tanh", ignore=shutil.ignore_patterns("__pycache__"))
    data = folder / "tanh" / "exercise.json"
    data.write_text(data.read_text().replace('"id": "NAME"', '"id": "tanh"'))
    (folder / "tanh" / "starter.py").write_text((folder / "tanh" / "reference.py").read_text())
    (folder / "course.json").write_text('{"exercises": ["tanh"]}')
    monkeypatch.setenv("PLAYGROUND_EXERCISES", str(folder))
    monkeypatch.setenv("PLAYGROUND_INSTANCE_PATH", str(tmp_path / "instance"))
    return folder


def flask(*args: str):
    """`flask --app server ARGS`, as Flask's command line runs it (in this process)."""
    return CliRunner().invoke(FlaskGroup(load_dotenv=False), ["--app", "server", *args])


def test_exercises_check_runs_where_the_server_refuses_and_says_why(teacher):
    with pytest.raises(SystemExit) as stopped:
        create_app()  # the server does not start
    assert stopped.value.code == 3
    result = flask("exercises", "check")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert (
        lines[0]
        == f"The server refuses to start: PLAYGROUND_EXERCISES: {teacher / 'tanh'} fails its check: {REFUSAL}"
    )
    assert f"  FAIL        {REFUSAL}" in lines
    assert lines[-1] == "1 exercise checked: 1 fail"


def test_exercises_new_runs_where_the_server_refuses(teacher):
    result = flask("exercises", "new", "sigmoid", "--in", str(teacher))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The server refuses to start: PLAYGROUND_EXERCISES:")
    assert f"Written: {teacher / 'sigmoid'}" in result.output


def test_every_other_command_stops_with_the_one_line(teacher):
    result = flask("db", "current")
    assert result.exit_code == 3
    assert result.output == f"Error: PLAYGROUND_EXERCISES: {teacher / 'tanh'} fails its check: {REFUSAL}\n"


def test_a_setting_that_names_no_folder_is_said_by_exercises_check(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_EXERCISES", str(tmp_path / "nowhere"))
    monkeypatch.setenv("PLAYGROUND_INSTANCE_PATH", str(tmp_path / "instance"))
    with pytest.raises(ExercisesRefused):
        create_app({"TESTING": True, "EXERCISES": str(tmp_path / "nowhere")})
    result = flask("exercises", "check")
    assert result.exit_code == 1
    said = f"PLAYGROUND_EXERCISES: {tmp_path / 'nowhere'} is not a folder"
    assert result.output == f"The server refuses to start: {said}\n\nFAIL        {said}\n"
