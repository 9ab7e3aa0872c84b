"""`make run` sets up only what serving needs; `make test` the rest. Checked on make's own plan (-B -n)."""

import os
import re
import subprocess
import tomllib

import pytest

from server import ROOT

TEST_TOOLS = ("pytest", "pytest-xdist", "playwright", "ruff", "lti1p3platform", "trustme")


def plan(target: str, **env: str) -> str:
    """The commands make would run for target from nothing (every file out of date), without running them."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PLAYGROUND_", "MAKE"))} | env
    done = subprocess.run(
        ["make", "--always-make", "--dry-run", target], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def pins(lock: str) -> dict[str, str]:
    return dict(re.findall(r"^([\w.-]+)==(\S+)", (ROOT / lock).read_text(), re.M))


@pytest.mark.parametrize("target", ["run", "production", "export"])
def test_serving_sets_up_what_serving_needs_and_no_test_tool(target):
    commands = plan(target)
    assert "pip install --quiet --disable-pip-version-check -r requirements.lock" in commands
    assert "npm ci" in commands and "npm run --silent build" in commands
    assert "scripts/compress.py static/build/pyodide/" in commands
    test_only_steps = ("requirements-test.lock", "setup-browser.sh", "setup-sandbox.sh", "setup-postgres.sh")
    for test_only in (*test_only_steps, "setup-nginx.sh"):
        assert test_only not in commands, test_only


def test_serving_with_verification_sets_up_its_sandbox_too():
    assert "scripts/setup-sandbox.sh" in plan("run", PLAYGROUND_VERIFY="1")
    assert "setup-browser.sh" not in plan("run", PLAYGROUND_VERIFY="1")


def test_the_tests_set_up_everything():
    commands = plan("test")
    for step in ("-r requirements.lock", "-r requirements-test.lock", "setup-browser.sh", "setup-sandbox.sh"):
        assert step in commands, step
    assert "setup-postgres.sh" in commands and "setup-nginx.sh" in commands
    assert "ruff check" in commands and "pytest" in commands


def test_the_long_build_steps_say_what_they_do():
    commands = plan("run")
    for said in (
        "installing the Python packages",
        "building the page",
        "compressing Pyodide's files",
        "open http",
    ):
        assert re.search(rf"^echo .*{said}", commands, re.M), said


def test_the_runtime_lock_has_no_test_tool_and_the_test_lock_pins_the_same_versions():
    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = lambda spec: re.match(r"[\w.-]+", spec)[0].lower()  # noqa: E731
    assert {named(d) for d in project["dependencies"]} <= set(runtime)
    assert not set(TEST_TOOLS) & set(runtime)
    assert {named(d) for d in project["optional-dependencies"]["test"]} == set(TEST_TOOLS)
    assert set(TEST_TOOLS) <= set(test)
    assert {name: version for name, version in test.items() if name in runtime} == runtime


def test_make_export_writes_into_a_folder_git_ignores_by_default():
    target = re.search(r"flask --app server export (\S+)", plan("export"))[1]
    assert not target.startswith("/")  # in the checkout, then: so git must ignore it
    ignored = subprocess.run(["git", "check-ignore", "--quiet", f"{target}/index.html"], cwd=ROOT)
    assert ignored.returncode == 0, f"{target}/ is not ignored: an export would leave its files untracked"
