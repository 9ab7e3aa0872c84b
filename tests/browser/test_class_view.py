"""The class view in Chromium: a teacher opens the activity in the LMS's course page (the tool in its
iframe, third-party cookies blocked) and gets the class view of a real-looking class of 30; axe finds
nothing serious; the keyboard reaches a learner's timeline, back, and the exercise; in German, on a
phone's width, in dark mode, and in a window of its own."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from server.db import Database
from tests.browser.axe import serious_violations
from tests.browser.lms_pages import lms_windows
from tests.browser.pages import FOCUSED
from tests.support.classes import build, real_looking_class

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TEACHING_ASSISTANT = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"


@pytest.fixture(scope="module")
def big_class(lms):
    """The LMS's course 1 with a class of 30 in the tool's records, and two teachers."""
    database = Database(lms.database_url)
    with database.connect() as conn:
        build(conn, lms.issuer, "course-1", "link-1", real_looking_class())
    database.engine.dispose()
    lms.platform.people.update(
        {
            "teacher": {"roles": [INSTRUCTOR]},
            "lehrer": {"roles": [INSTRUCTOR], "locale": "de"},
            "tutor": {"roles": [INSTRUCTOR, TEACHING_ASSISTANT]},  # Canvas's TA
            "tutorin": {"roles": [INSTRUCTOR, TEACHING_ASSISTANT], "locale": "de"},
        }
    )
    return lms


@pytest.fixture
def open_page(full_chromium, big_class):
    """open_page(**context options): a watched page in a new context; its errors checked at the end."""
    yield from lms_windows(full_chromium, big_class)


def class_view_in_course(page, lms, user: str):
    """Open the course page as user; return the tool's frame once it shows the class view."""
    page.goto(lms.platform.url + f"course?user={user}")
    expect(page.frame_locator("#tool").locator("h1")).to_be_visible(timeout=30_000)
    frame = next(f for f in page.frames if "/lti/class/" in f.url)
    return frame


def focused_href(frame) -> str:
    return frame.evaluate("document.activeElement.getAttribute('href') || ''")


def tab_to(page, frame, wanted, limit: int = 300) -> str:
    """Press Tab until the frame's focused link's href matches wanted; return what has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if re.search(wanted, focused_href(frame)):
            return frame.evaluate(FOCUSED)
    raise AssertionError(f"Tab never reached a link to {wanted}")


def assert_accessible(frame_or_page) -> None:
    assert serious_violations(frame_or_page) == []


def test_a_teacher_walks_the_class_view_with_the_keyboard_inside_the_lms(open_page, big_class, shoot):
    page = open_page(viewport={"width": 1280, "height": 1000})
    frame = class_view_in_course(page, big_class, "teacher")
    tool = page.frame_locator("#tool")
    expect(tool.get_by_test_id("opened")).to_have_text("30")
    expect(tool.get_by_test_id("mistakes-table")).to_be_visible()
    assert frame.evaluate("document.cookie") == ""  # nothing kept in the browser
    assert_accessible(frame)
    shoot(page, "in-the-lms")

    name = tab_to(page, frame, r"/lti/class/learner/")  # the first learner linked: one who is stuck
    learner = name.split(" ", 1)[1]
    page.keyboard.press("Enter")
    expect(tool.locator("h1")).to_have_text(learner)
    expect(tool.get_by_test_id("timeline")).to_be_visible()
    assert_accessible(frame)
    shoot(page, "timeline")

    back = tab_to(page, frame, r"/lti/class/\?t=")  # the nav's "Class view", first
    assert back.startswith("a#") and "Class view" in back
    page.keyboard.press("Enter")
    expect(tool.get_by_test_id("opened")).to_have_text("30")

    tab_to(page, frame, r"^/lti/class/exercise\?t=")  # one click to the exercise as the learners get it
    page.keyboard.press("Enter")
    expect(tool.locator("#check")).to_be_enabled(timeout=60_000)
    exercise = next(f for f in page.frames if urlsplit(f.url).path == "/lti/class/exercise")
    lti = exercise.evaluate("JSON.parse(document.getElementById('config').textContent).lti")
    assert lti["grades"] is False and lti["lastCheck"] is None  # the teacher's own launch: no grade


def test_in_german_on_a_phone_in_dark_mode_in_a_window_of_its_own(open_page, big_class, shoot):
    page = open_page()
    frame = class_view_in_course(page, big_class, "lehrer")
    expect(page.frame_locator("#tool").locator("h1")).to_have_text("Klassenansicht")
    url = frame.url
    assert_accessible(frame)
    shoot(page, "german")

    phone = open_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, color_scheme="dark")
    phone.goto(url)  # the class view's own link, in a window of its own: the token is all it needs
    expect(phone.locator("h1")).to_have_text("Klassenansicht")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(22, 24, 28)"  # dark
    assert_accessible(phone)
    shoot(phone, "phone-dark")
    phone.locator("a[href*='/lti/class/learner/']").first.click()
    expect(phone.get_by_test_id("timeline")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert_accessible(phone)
    shoot(phone, "phone-dark-timeline")


def test_at_200_percent_zoom_nothing_needs_a_sideways_scroll(open_page, big_class, shoot):
    """WCAG's reflow: 1280 px at 200 % is 640 CSS px wide."""
    page = open_page(viewport={"width": 640, "height": 800}, device_scale_factor=2)
    frame = class_view_in_course(page, big_class, "teacher")
    page.goto(frame.url)
    expect(page.get_by_test_id("opened")).to_have_text("30")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "zoom-200")


@pytest.mark.parametrize(
    ("user", "says"), [("tutor", "names you a tutor"), ("tutorin", "als Tutor oder Tutorin")]
)
def test_a_tutors_timeline_says_why_it_has_no_delete(open_page, big_class, shoot, user, says):
    page = open_page(viewport={"width": 1280, "height": 1000})
    frame = class_view_in_course(page, big_class, user)
    tool = page.frame_locator("#tool")
    expect(tool.get_by_test_id("opened")).to_have_text("30")
    frame.locator("a[href*='/lti/class/learner/']").first.click()
    expect(tool.get_by_test_id("timeline")).to_be_visible()
    expect(tool.get_by_test_id("no-delete")).to_contain_text(says)
    expect(tool.get_by_test_id("delete")).to_have_count(0)
    assert_accessible(frame)
    tool.get_by_test_id("no-delete").scroll_into_view_if_needed()
    shoot(page, f"{user}-timeline")
