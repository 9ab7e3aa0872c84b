"""Each served exercise on its own page: the front page's list, each shipped exercise's page graded in
Chromium (their reference passes, their starter does not, each named mistake's code named in its words), their
pages readable by everyone (axe, a phone, German, the dark theme), a learner's code kept per exercise, and
a share link made before there were several exercises still opening the seed's."""

import base64
import json
import zlib

import pytest
from playwright.sync_api import expect

from server.exercises.registry import LEGACY
from tests.browser.axe import serious_violations
from tests.browser.pages import SEED, exercise_page_path, open_playground, returning_page, type_code
from tests.support.exercise_folders import course, heading, title
from tests.support.graded_exercise import code

# The shipped course's exercises but the seed's (which has its own tests), in the course's order.
COURSE = course()
OWN = tuple(i for i in COURSE if i != LEGACY)


def mistakes(exercise: str) -> list[str]:
    return [m["key"] for m in json.loads(code(exercise, "exercise.json"))["mistakes"]]


def words(exercise: str, lang: str = "en") -> dict:
    return json.loads(code(exercise, f"words.{lang}.json"))


def groups(exercise: str) -> tuple[int, str]:
    """How many groups the exercise grades, and what they are (its grade.groups_are: the page's word)."""
    data = json.loads(code(exercise, "exercise.json"))
    return len(data["groups"]), data["grade"].get("groups_are", "expressions")


@pytest.fixture(scope="module")
def root(base_url):
    """The playground's own address: its front page."""
    return base_url.removesuffix(SEED)


@pytest.fixture(scope="module", params=OWN)
def exercise_page(request, kept_for_modules, serve, base_url, root):
    """An exercise's page, loaded once for the module's tests that Check and read what it shows."""
    page, assert_clean, reset = returning_page(kept_for_modules, serve.origins, base_url)
    open_playground(page, root + exercise_page_path(request.param))
    yield request.param, page
    page.close()
    reset()
    assert_clean()


CHECKED = """source => new Promise((resolve) => {
  addEventListener("backprop-playground:checked", (e) => resolve(e.detail), { once: true });
  window.playground.check(source);
})"""


def test_the_reference_passes_and_the_starter_does_not(exercise_page):
    exercise, page = exercise_page
    expect(page.locator("h1")).to_have_text(heading(exercise))
    event = page.evaluate(CHECKED, code(exercise, "reference.py"))
    assert (event["exercise"], event["passed"]) == (exercise, True)  # the event names the exercise
    report = page.evaluate("s => window.playground.check(s)", code(exercise, "reference.py"))
    assert report["passed"] is True and report["exercise"] == exercise
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-status", "pass")
    n, what = groups(exercise)  # counted in the word of what they are: step's are networks, not expressions
    expect(verdict).to_have_text(f"All {n} {what} pass.")
    expect(page.locator("table.examples th").first).to_have_text(what.removesuffix("s"))
    report = page.evaluate("s => window.playground.check(s)", code(exercise, "starter.py"))
    assert report["passed"] is False
    # exp's starter raises where the learner has - and / to write: its verdict is an error, said as such
    expect(verdict).to_have_attribute("data-status", "error" if report["error"] else "fail")
    expect(verdict).to_contain_text(f"0 of {n} {what} pass.")


def test_each_named_mistake_is_named_in_its_words(exercise_page):
    exercise, page = exercise_page
    for key in mistakes(exercise):  # each in turn, on the same page: the last Check's words replaced
        report = page.evaluate("s => window.playground.check(s)", code(exercise, f"mistakes/{key}.py"))
        named = {e["mistake"]["kind"] for e in report["expressions"] if not e["passed"] and e["mistake"]}
        assert report["passed"] is False and named == {key}, (key, named)
        said = words(exercise)["mistakes"][key]
        shown = page.locator(f"[data-testid=results] [data-testid=mistake][data-kind={key}]").first
        expect(shown.get_by_test_id("mistake-title")).to_have_text(said["title"].replace("`", ""))
        expect(shown).to_contain_text(said["says"].replace("`", "")[:40])
        hint = page.locator("[data-testid=results] [data-testid=mistake-hint]").first
        expect(hint).to_contain_text(said["hint"].replace("`", "")[:30])
        expect(page.get_by_test_id("verdict-mistake")).to_have_attribute("data-kind", key)


def test_the_front_page_lists_every_exercise_and_the_keyboard_reaches_one(page, root):
    page.goto(root)
    links = page.get_by_test_id("exercises").get_by_role("link")
    expect(links.locator(".title")).to_have_text([title(i) for i in COURSE])  # the course's order
    assert title(LEGACY) == "Run backpropagation in the right order"
    for _ in range(COURSE.index("step") + 1):  # one Tab a link, to step's
        page.keyboard.press("Tab")
    expect(links.nth(COURSE.index("step"))).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(root + exercise_page_path("step"))
    open_playground(page, page.url)
    expect(page.locator("h1")).to_have_text(title("step"))
    assert page.evaluate("s => window.playground.check(s)", code("step", "reference.py"))["passed"]


def test_a_learners_code_on_ops_is_kept_apart_from_the_seeds(page, root):
    open_playground(page, root + SEED)
    type_code(page, "def backward(out):\n    pass  # the seed's, mine")
    open_playground(page, root + exercise_page_path("ops"))
    assert page.evaluate("window.playground.getCode()") == code("ops", "starter.py")
    ops = code("ops", "reference.py").replace("class Value:", "class Value:  # mine, on ops")
    page.evaluate("s => window.playground.setCode(s)", ops)
    page.reload()
    open_playground(page, page.url)
    assert page.evaluate("window.playground.getCode()") == ops
    open_playground(page, root + SEED)
    assert page.evaluate("window.playground.getCode()") == "def backward(out):\n    pass  # the seed's, mine"
    kept = page.evaluate("Object.keys(localStorage).filter((k) => k.includes(':code'))")
    assert sorted(kept) == ["backprop-playground:code", "backprop-playground:code/ops"]


def share_fragment(code: str, scratch: str) -> str:
    """A share link's fragment as static/js/page/share.js writes it: deflated JSON, base64url."""
    packer = zlib.compressobj(wbits=-15)
    raw = packer.compress(json.dumps({"code": code, "scratch": scratch}).encode()) + packer.flush()
    return "#code/1/" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_share_link_made_before_exercises_opens_the_seeds_page(page, root):
    shared = "def backward(out):\n    out.grad = 1.0  # shared before there were exercises\n"
    page.goto(root + share_fragment(shared, "print(1)\n"))
    page.wait_for_url(f"{root}{SEED}**")
    open_playground(page, page.url)
    expect(page.get_by_test_id("share-status")).to_contain_text("The link's code is in the editor")
    assert page.evaluate("window.playground.getCode()") == shared


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("exercise", OWN)
def test_no_serious_axe_violation_on_a_phone_in_either_theme(learner_page, root, exercise, lang, shoot):
    page = learner_page(viewport={"width": 390, "height": 844})
    open_playground(page, f"{root}{exercise_page_path(exercise)}?lang={lang}")
    expect(page.locator("h1")).to_have_text(heading(exercise, lang))
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    while page.locator("#hint").is_visible():
        page.locator("#hint").click()
    wrong = code(exercise, f"mistakes/{mistakes(exercise)[0]}.py")
    page.evaluate("s => window.playground.check(s)", wrong)
    expect(page.get_by_test_id("mistake-hint").first).to_be_visible()
    page.evaluate("s => window.playground.setCode(s)", code(exercise, "reference.py"))
    run = page.evaluate("() => window.playground.run()")
    assert run["error"] is None and len(run["drawings"]) == 1
    sideways = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not sideways  # nothing wider than the phone
    found = {}
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        found[theme] = serious_violations(page)
        shoot(page, f"{exercise}-{lang}-{theme}")
    assert not any(found.values()), found
