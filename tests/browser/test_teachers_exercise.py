"""A teacher's own exercise, end to end (issue 51's "a teacher's folder"): `exercises new` writes it, the
teacher edits it (a title, a hint, one more named mistake with its code and words), `exercises check`
passes it, and a server that serves the folder (PLAYGROUND_EXERCISES) lists it and serves its page, where
Chromium grades it (the reference passes, the starter does not, each named mistake's code is named in the
teacher's words); /verify verifies its reference and names its mistake; the teacher adds it to a course by
LTI Deep Linking, choosing it by its title; a learner's launch, a Check of the new mistake and a verified
pass reach the LMS's gradebook; and the teacher's class view counts the mistake by its own words.

The commands run as a teacher runs them (processes of their own); one LMS and one tool, serving the
folder, for the module's tests, which follow the teacher in order."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import jwt
import pytest
import requests
from playwright.sync_api import expect

from server import ROOT
from tests.browser.checks import checked
from tests.browser.pages import exercise_page_path, open_playground, watched_page
from tests.support.lti import rig
from tests.support.lti_launches import recorded_checks
from tests.support.teachers_exercise import ASSIGN, HINT, NAME, TITLE, WORDS, edited

pytestmark = pytest.mark.slow  # the teacher's commands in processes of their own, a real LMS, sandboxes

COURSE = "Machine Learning 101"  # the tests' LMS's course (tests/support/lti_platform.py)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


def flask(*args: str, exercises: Path) -> subprocess.CompletedProcess:
    """`flask --app server ...` as a teacher runs it on the host, its PLAYGROUND_EXERCISES set."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PLAYGROUND_INSTANCE_PATH": os.environ["PLAYGROUND_INSTANCE_PATH"],  # this test process's own
        "PLAYGROUND_EXERCISES": str(exercises),
    }
    command = [str(Path(sys.executable).parent / "flask"), "--app", "server", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def teachers_folder(tmp_path_factory) -> Path:
    """The teacher's folder of exercise folders, with the exercise `exercises new` wrote, edited."""
    served = tmp_path_factory.mktemp("teachers-exercises")
    made = flask("exercises", "new", NAME, "--in", str(served), exercises=served)
    assert made.returncode == 0, made.stdout + made.stderr
    assert f"Written: {served / NAME}." in made.stdout
    edited(served / NAME)
    return served


def teachers(folder: Path, name: str) -> str:
    """A file of the teacher's exercise, as the teacher wrote it."""
    return (folder / NAME / name).read_text(encoding="utf-8")


def keys(folder: Path) -> list[str]:
    return [m["key"] for m in json.loads(teachers(folder, "exercise.json"))["mistakes"]]


@pytest.fixture(scope="module")
def teachers_lms(tmp_path_factory, teachers_folder):
    """The tests' LMS, and the tool registered with it, serving the teacher's folder beside the
    playground's own exercises."""
    with rig(tmp_path_factory.mktemp("teachers-lti")) as made:
        made.tool, made.tool_url = made.start_tool(EXERCISES=str(teachers_folder))
        made.register()
        made.platform.people["teacher-t"] = {"roles": [INSTRUCTOR]}
        yield made


def test_the_edited_exercise_passes_its_check(teachers_folder):
    done = flask("exercises", "check", str(teachers_folder / NAME), exercises=teachers_folder)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout
    assert "refuses" not in said  # the server's own start-up check of the served folder passed too
    assert f"{teachers_folder / NAME}  ({TITLE})" in said
    mistakes = next(line for line in said.splitlines() if line.lstrip().startswith("mistakes"))
    assert all(f"{key}: named {key}" in mistakes for key in keys(teachers_folder)), mistakes
    assert "6 of 6 told apart" in said  # the reference and three wrong solutions, every two
    assert said.rstrip().endswith("1 exercise checked: all pass")


def test_its_page_grades_it_in_the_teachers_words(browser, teachers_lms, teachers_folder):
    context = browser.new_context(ignore_https_errors=True)  # the tool's certificate is the tests' CA's
    page, assert_clean = watched_page(context, {f"localhost:{teachers_lms.tool.port}"})
    page.goto(teachers_lms.tool_url)  # the front page: the playground's exercises, then the teacher's
    links = page.get_by_test_id("exercises").get_by_role("link")
    expect(links.last.locator(".title")).to_have_text(TITLE)
    links.last.click()
    page.wait_for_url(teachers_lms.tool_url + exercise_page_path(NAME))
    open_playground(page, page.url)
    expect(page.locator("h1")).to_have_text(TITLE)
    page.get_by_role("button", name="Show a hint").click()
    expect(page.get_by_test_id("hints").locator("ol > li:visible")).to_have_text(HINT.replace("`", ""))

    report = page.evaluate("s => window.playground.check(s)", teachers(teachers_folder, "reference.py"))
    assert report["passed"] is True and report["exercise"] == NAME
    expect(page.get_by_test_id("verdict")).to_have_text("All 2 expressions pass.")
    report = page.evaluate("s => window.playground.check(s)", teachers(teachers_folder, "starter.py"))
    assert report["passed"] is False
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")

    said = json.loads(teachers(teachers_folder, "words.en.json"))["mistakes"]
    assert said[ASSIGN] == WORDS
    for key in keys(teachers_folder):
        report = page.evaluate(
            "s => window.playground.check(s)", teachers(teachers_folder, f"mistakes/{key}.py")
        )
        named = {e["mistake"]["kind"] for e in report["expressions"] if not e["passed"] and e["mistake"]}
        assert report["passed"] is False and named == {key}
        shown = page.locator(f"[data-testid=results] [data-testid=mistake][data-kind={key}]").first
        expect(shown.get_by_test_id("mistake-title")).to_have_text(said[key]["title"].replace("`", ""))
        expect(shown).to_contain_text(said[key]["says"].replace("`", ""))
        hint = page.locator("[data-testid=results] [data-testid=mistake-hint]").first
        expect(hint).to_contain_text(said[key]["hint"].replace("`", ""))
    assert_clean()
    context.close()


def test_verify_verifies_its_reference_and_names_its_mistake(teachers_lms, teachers_folder):
    def verified(name: str) -> dict:
        body = {"source": teachers(teachers_folder, name), "exercise": NAME}
        answer = requests.post(teachers_lms.tool_url + "verify", json=body, verify=teachers_lms.ca_file)
        assert answer.status_code == 200, answer.text
        return answer.json()

    answer = verified("reference.py")
    assert answer["report"]["passed"] is True and answer["report"]["exercise"] == NAME
    keys_url = teachers_lms.tool_url + ".well-known/jwks.json"
    found = jwt.PyJWKSet.from_dict(requests.get(keys_url, verify=teachers_lms.ca_file).json())
    token = answer["receipt"]
    claims = jwt.decode(token, found[jwt.get_unverified_header(token)["kid"]].key, algorithms=["EdDSA"])
    assert (claims["exercise"], claims["rule"]) == (NAME, "all")

    report = verified(f"mistakes/{ASSIGN}.py")["report"]
    named = {e["name"]: (e["mistake"] or {}).get("kind") for e in report["expressions"] if not e["passed"]}
    assert report["passed"] is False and named == {"tanh(a)+a": ASSIGN}  # tanh(a) alone: = and += agree


def test_the_teacher_adds_it_to_a_course_a_learners_pass_is_graded_and_the_class_view_counts_it(
    full_chromium, teachers_lms, teachers_folder
):
    lms = teachers_lms
    context = full_chromium.new_context(
        ignore_https_errors=True
    )  # third-party cookies blocked, as a learner's
    page, assert_clean = watched_page(
        context, {f"127.0.0.1:{lms.platform_server.port}", f"localhost:{lms.tool.port}"}
    )

    # the teacher adds an activity by Deep Linking: the exercise by its title, its one verdict, any language
    page.goto(lms.platform.url + "start?" + urlencode({"user": "teacher-t", "link": "deep-link"}))
    # by its title and id, as the page lists it: the course's neuron is "Backpropagate through tanh: …" too
    page.get_by_role("radio", name=f"{TITLE} (tanh)").check()
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("radio", name="Every group of the exercise right")).to_be_checked()
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_test_id("lti-deep-link")).to_contain_text(TITLE)
    page.get_by_role("button", name="Add to the course").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Added 1 activity")
    link, item = list(lms.platform.links.items())[-1]
    assert item["custom"] == {"exercise": NAME, "verdict": "all"}
    assert item["title"] == f"Backprop playground: {TITLE}"

    # a learner launches it in the course page: a Check of the teacher's mistake, then a verified pass
    page.goto(lms.platform.url + f"course?user=learner-t&link={link}")
    tool = page.frame_locator("#tool")
    expect(tool.locator("#check")).to_be_enabled(timeout=60_000)
    frame = next(f for f in page.frames if f.url.endswith("/lti/launch"))
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    expect(tool.locator("h1")).to_have_text(TITLE)
    message = checked(frame, teachers(teachers_folder, f"mistakes/{ASSIGN}.py"))
    assert message["passed"] is False and message["exercise"] == NAME
    expect(tool.get_by_test_id("mistake-title").first).to_have_text(WORDS["title"])
    message = checked(frame, teachers(teachers_folder, "reference.py"))
    assert message["passed"] is True and message["verified"] is True
    expect(tool.get_by_test_id("lti-grade")).to_have_text(f"Sent to {COURSE}.")
    assert lms.platform.wait_for_score("learner-t")["scoreGiven"] == 1
    checks = [(c["exercise"], c["mistake"], c["passed"]) for c in recorded_checks(lms, "learner-t")]
    assert checks == [(NAME, ASSIGN, False), (NAME, None, True)]  # judged by the server: its own key

    # the teacher opens the activity: its class view counts the mistake by the teacher's words
    page.goto(lms.platform.url + f"course?user=teacher-t&link={link}")
    expect(tool.get_by_test_id("opened")).to_have_text("1")
    expect(tool.get_by_test_id("passed")).to_have_text("1")
    expect(tool.get_by_test_id("exercise")).to_contain_text(f"{TITLE} ({NAME})")
    row = tool.locator(f"[data-testid=mistakes-table] tr[data-mistake={ASSIGN}]")
    expect(row.locator(".name")).to_have_text(WORDS["title"])
    expect(row.locator(".about")).to_have_text(WORDS["about"])
    expect(row.locator("td").first).to_have_text("1")  # learners who made it
    expect(tool.get_by_test_id("expressions-table")).to_contain_text("a is used by tanh and by +")
    assert_clean()
    context.close()
