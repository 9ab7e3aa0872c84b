"""The course map, as a learner uses it in Chromium: they walk it with the keyboard, open an exercise from
it, pass two and try one, moving on by each page's previous and next, close the browser and come back
(online and with the network off) to the same states, reset one exercise (asked first: cancelling keeps
it) and the whole course; and the map is readable by everyone (axe in English and German, at 390 px, light
and dark)."""

import json

import pytest
from playwright.sync_api import expect

from server import ROOT
from server.page.names import NAMES as ALL_NAMES
from tests.browser.axe import serious_violations
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.pages import SEED, type_code, watched_page
from tests.browser.service_worker import kept_offline
from tests.support.exercise_folders import heading
from tests.support.graded_exercise import code

COURSE = json.loads((ROOT / "exercises" / "course.json").read_text())
IDS = COURSE["exercises"]
NAMES = ALL_NAMES["storage"]
KEPT = [NAMES[k] for k in ("code", "scratch", "hints", "progress")]  # what each exercise keeps here

# What has the keyboard's focus: an exercise's link by its id, a row's reset by its row, else its test id.
FOCUS = """() => { const e = document.activeElement;
  if (e.dataset.exercise) return e.dataset.exercise;
  if (e.dataset.testid === 'reset-one') return 'reset:' + e.closest('li').dataset.id;
  return e.dataset.testid ?? e.id ?? e.tagName; }"""
# This origin's keys of each exercise's state, as they are kept (the seed's bare, the others' /<id>).
KEYS = """(kept) => Object.keys(localStorage)
  .filter((k) => kept.some((p) => k === p || k.startsWith(p + '/')))"""


def storage(exercise: str) -> str:
    return "" if exercise == "backward" else f"/{exercise}"


def states(page) -> list[str]:
    """Each row's state in words, once map.js has read this browser's."""
    expect(page.locator(".course-map")).to_have_attribute("data-ready", "true")
    return page.locator(".course-map .state").all_inner_texts()


def next_to_do(page) -> list[str]:
    """The rows marked next (their "Next to do" shown, their link aria-current)."""
    marked = page.locator(".course-map li:has(.next-mark:visible)")
    ids = [marked.nth(i).get_attribute("data-id") for i in range(marked.count())]
    current = page.locator(".course-map a[aria-current=step]")
    assert [current.nth(i).get_attribute("data-exercise") for i in range(current.count())] == ids
    return ids


def tabbing(page, count: int) -> list[str]:
    """Press Tab count times from the page's start: what has the focus after each."""
    page.locator("h1").click()  # the keyboard's place: the page's start
    seen = []
    for _ in range(count):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUS))
    return seen


def opened(page, exercise: str):
    """Wait until the exercise's page Checks."""
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    expect(page.locator("h1")).to_have_text(heading(exercise))


def check_by_keyboard(page, status: str):
    page.locator("#check").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", status)


def follow(page, name: str):
    """Go on by a link of the page's place in the course, from the keyboard."""
    page.locator(f".course-place a[rel={name}]").focus()
    page.keyboard.press("Enter")


class Profile:
    """Chromium on a profile kept on disk: closed and launched again, as a learner restarts theirs."""

    def __init__(self, browser, folder):
        self.type, self.folder, self.context = browser.browser_type, folder, None

    def launch(self):
        self.context = self.type.launch_persistent_context(
            str(self.folder), executable_path=chromium_path(), args=TEST_ARGS, service_workers="allow"
        )
        return self.context


@pytest.fixture
def kept_profile(browser, tmp_path):
    chromium = Profile(browser, tmp_path / "profile")
    yield chromium
    if chromium.context:
        chromium.context.close()


def test_a_learner_walks_the_map_passes_two_comes_back_and_resets(kept_profile, serve, base_url, shoot):
    root = base_url.removesuffix(SEED)
    page, assert_clean = watched_page(kept_profile.launch(), serve.origins)
    page.goto(root)
    assert states(page) == ["Not started"] * len(IDS) and next_to_do(page) == [IDS[0]]
    expect(page.get_by_test_id("reset-course")).to_be_hidden()  # nothing to forget yet
    assert tabbing(page, len(IDS)) == IDS  # every exercise open, in order; no reset of nothing

    # The first, from the map by the keyboard: passed. Its page says where it is; Next goes on.
    page.locator(f'.course-map a[data-exercise="{IDS[0]}"]').focus()
    page.keyboard.press("Enter")
    opened(page, IDS[0])
    kept_offline(page)  # the service worker keeps the front page and this one
    place = page.get_by_test_id("course-place")
    expect(place).to_contain_text(f"{COURSE['title']['en']} · Exercise 1 of {len(IDS)}")
    expect(place.locator("a[rel=prev]")).to_have_count(0)
    type_code(page, code(IDS[0], "reference.py"))
    check_by_keyboard(page, "pass")
    follow(page, "next")
    opened(page, IDS[1])
    expect(place).to_contain_text(f"Exercise 2 of {len(IDS)}")
    check_by_keyboard(page, "fail")  # its starter: tried, not passed
    shoot(page, "exercise-2")
    follow(page, "next")
    opened(page, IDS[2])
    expect(place).to_contain_text(f"Exercise 3 of {len(IDS)}")
    expect(place.locator("a[rel=prev]")).to_have_attribute("data-exercise", IDS[1])
    type_code(page, code(IDS[2], "reference.py"))
    check_by_keyboard(page, "pass")
    page.get_by_test_id("course-map").click()

    walked = ["Passed", "Tried, not passed yet", "Passed"] + ["Not started"] * (len(IDS) - 3)
    assert states(page) == walked and next_to_do(page) == [IDS[1]]
    expect(page.locator(f".course-map li[data-id={IDS[1]}] .next-mark")).to_have_text("Next to do")
    controls = [step for i in IDS for step in ((i, f"reset:{i}") if i in IDS[:3] else (i,))] + [
        "reset-course"
    ]
    assert tabbing(page, len(controls)) == controls
    expect(page.get_by_role("button", name="Reset exercise 3")).to_be_visible()  # its name says which
    shoot(page, "walked")

    # Closed and opened again: the same; and with the network off, the same, from the kept front page.
    assert_clean()
    kept_profile.context.close()
    page, assert_clean = watched_page(kept_profile.launch(), serve.origins)
    page.goto(root)
    assert states(page) == walked and next_to_do(page) == [IDS[1]]
    kept_profile.context.set_offline(True)
    kept_profile.context.new_cdp_session(page).send("Network.clearBrowserCache")
    page.reload()
    assert states(page) == walked and next_to_do(page) == [IDS[1]]
    kept_profile.context.set_offline(False)

    # Reset one: asked first; Esc (the safe answer) keeps it; yes forgets that exercise's state only.
    reset = page.locator(f".course-map li[data-id={IDS[2]}] .reset-one")
    reset.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_contain_text(f"for exercise 3, {heading(IDS[2])}")
    expect(page.get_by_test_id("ask-no")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(reset).to_be_focused()
    assert states(page) == walked
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_test_id("ask-yes")).to_have_text("Reset the exercise")
    expect(page.get_by_test_id("ask-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("map-said")).to_have_text("Exercise 3 reset: it starts afresh.")
    expect(page.get_by_test_id("map-said")).to_be_focused()  # its button is gone: the keyboard is here
    afresh = ["Passed", "Tried, not passed yet"] + ["Not started"] * (len(IDS) - 2)
    assert states(page) == afresh
    expect(reset).to_be_hidden()
    kept = page.evaluate(KEYS, KEPT)
    assert not [k for k in kept if k.endswith(f"/{IDS[2]}")] and any(k.endswith(f"/{IDS[0]}") for k in kept)
    page.locator(f'.course-map a[data-exercise="{IDS[2]}"]').click()
    opened(page, IDS[2])
    expect(page.locator("#progress-text")).to_have_text("No Checks yet.")
    assert page.evaluate("window.playground.getCode()") == code(IDS[2], "starter.py")  # its code forgotten
    page.get_by_test_id("course-map").click()

    # The whole course: asked first ("Keep it" keeps it), then every exercise's state forgotten.
    page.get_by_test_id("reset-course").click()
    expect(page.get_by_role("dialog")).to_contain_text("every exercise of the course")
    page.get_by_test_id("ask-no").click()
    assert states(page) == afresh
    page.get_by_test_id("reset-course").click()
    page.get_by_test_id("ask-yes").click()
    expect(page.get_by_test_id("map-said")).to_have_text("The course reset: every exercise starts afresh.")
    assert states(page) == ["Not started"] * len(IDS) and next_to_do(page) == [IDS[0]]
    expect(page.get_by_test_id("reset-course")).to_be_hidden()
    assert page.evaluate(KEYS, KEPT) == []
    assert_clean()


PASSED = json.dumps(
    {"attempts": 2, "passedAttempt": 2, "passedAt": "2026-12-01T10:00:00Z", "orderAttempt": None}
)
TRIED = json.dumps({"attempts": 1, "passedAttempt": None, "passedAt": None, "orderAttempt": None})


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_map_is_readable_by_everyone_on_a_phone(page, base_url, shoot, lang, scheme):
    root = base_url.removesuffix(SEED)
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme=scheme)
    page.goto(root + f"?lang={lang}")
    page.evaluate(
        "([p, yes, tried, second]) => { localStorage.setItem(p + '/ops', yes); "
        "localStorage.setItem(p + second, tried); }",
        [NAMES["progress"], PASSED, TRIED, storage(IDS[1])],
    )
    page.reload()
    said = {"en": ["Passed", "Tried, not passed yet"], "de": ["Bestanden", "Versucht, noch nicht bestanden"]}
    assert states(page)[:2] == said[lang]
    expect(page.locator("h1")).to_have_text(COURSE["title"][lang])
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shoot(page, f"map-{lang}-{scheme}-390")
    page.get_by_test_id("reset-one").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    assert serious_violations(page) == []  # the question too
    shoot(page, f"map-{lang}-{scheme}-390-asked")
    page.keyboard.press("Escape")


def test_the_exported_site_is_the_map_and_every_exercise(exported, context):
    page = context.new_page()
    page.goto(exported)
    assert states(page) == ["Not started"] * len(IDS)
    links = page.locator(".course-map a")
    assert [links.nth(i).get_attribute("href") for i in range(len(IDS))] == [f"exercises/{i}/" for i in IDS]
    links.nth(1).click()
    page.wait_for_function("() => window.playground !== undefined")
    place = page.get_by_test_id("course-place")
    expect(place).to_contain_text(f"Exercise 2 of {len(IDS)}")
    expect(place.locator("a[rel=next]")).to_have_attribute("href", f"../../exercises/{IDS[2]}/")
    place.get_by_test_id("course-map").click()
    assert states(page) == ["Not started"] * len(IDS)


BLOCKED = (  # a browser that blocks local storage (some do in iframes of other sites)
    "Object.defineProperty(window, 'localStorage', "
    "{ get() { throw new DOMException('blocked', 'SecurityError'); } });"
)


def test_where_storage_is_blocked_the_map_says_nothing_is_kept(context, serve, base_url):
    page, assert_clean = watched_page(context, serve.origins)
    page.add_init_script(BLOCKED)
    page.goto(base_url.removesuffix(SEED))
    assert states(page) == ["Not started"] * len(IDS) and next_to_do(page) == [IDS[0]]
    expect(page.get_by_test_id("kept")).to_have_text(
        "This browser blocks local storage: nothing is kept, and each exercise starts afresh."
    )
    expect(page.get_by_test_id("reset-course")).to_be_hidden()
    assert_clean()
