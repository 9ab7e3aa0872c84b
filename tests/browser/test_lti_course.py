"""The whole course in Chromium, in the tests' LMS: a teacher adds it by one Deep Linking (one activity per
served exercise); three learners each open their activity in the course's frame and Check (a named
mistake, or right); the teacher's class view shows the course overview with each row's numbers exact,
and its links open each activity's class view. axe finds nothing serious on the Deep Linking pages and
on the overview, in English and German, at 200 % zoom in light mode and on a phone in dark mode."""

from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from server import ROOT
from server.exercises.registry import SHIPPED, course
from tests.browser.axe import serious_violations
from tests.browser.checks import checked
from tests.browser.lms_pages import LOOKS, assert_styled, lms_windows
from tests.support.address import says_du
from tests.support.lti_launches import add_course, recorded_checks

IDS = course(SHIPPED).ids  # the served exercises, in the course's order
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
CONTEXT = ("course-browser", "Backprop, the whole course")  # a course of its own: its numbers exact
SAID = {
    "en": ("The whole course", "Continue", f"Add {len(IDS)} activities to the course", "none yet"),
    "de": ("Den ganzen Kurs", "Weiter", f"{len(IDS)} Aktivitäten zum Kurs hinzufügen", "noch keiner"),
}
MISTAKES = {
    "en": ("= instead of +=", "Steps up the gradient"),
    "de": ("= statt +=", "Schritt den Gradienten hinauf"),
}


def source(exercise: str, name: str) -> str:
    folder = ROOT / "exercises" / exercise
    return (folder / ("reference.py" if name == "reference" else f"mistakes/{name}.py")).read_text()


@pytest.fixture
def lms_window(full_chromium, lms):
    """lms_window(**context options): a watched page in a new context; its errors checked at the end."""
    yield from lms_windows(full_chromium, lms)


def looked_at(page, look: str) -> None:
    assert serious_violations(page) == []
    assert_styled(page, look)
    assert says_du(page.locator("body").inner_text()) == []


@pytest.mark.parametrize(("lang", "look"), [("en", "zoom-light"), ("de", "phone-dark")])
def test_a_teacher_adds_the_whole_course_in_one_deep_linking(lms_window, lms, lang, look, shoot):
    whole, go_on, add, _ = SAID[lang]
    page = lms_window(locale=lang, **LOOKS[look][0])
    before = len(lms.platform.content_items)
    lms.platform.people[f"course-teacher-{lang}"] = {"locale": lang}
    page.goto(
        lms.platform.url + "start?" + urlencode({"user": f"course-teacher-{lang}", "link": "deep-link"})
    )
    expect(page.get_by_test_id("lti-deep-link")).to_be_visible()
    looked_at(page, look)
    page.get_by_role("radio", name=whole).check()
    page.get_by_role("button", name=go_on).click()
    expect(page.get_by_test_id("course-items").locator("li")).to_have_count(len(IDS))
    looked_at(page, look)
    shoot(page, f"course-{lang}-{look}")
    page.get_by_role("button", name=go_on).click()  # each learner's own language
    looked_at(page, look)
    page.get_by_role("button", name=add).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Added {len(IDS)} activity")
    added = lms.platform.content_items[before:]
    assert [i["custom"]["exercise"] for i in added] == IDS
    assert all("language" not in i["custom"] for i in added)


def frame_of(page, lms, user: str, link: str):
    """Open the course page as user at link; return the playground's frame once Check grades."""
    page.goto(lms.platform.url + "course?" + urlencode({"user": user, "link": link}))
    expect(page.frame_locator("#tool").locator("#check")).to_be_enabled(timeout=60_000)
    frame = next(f for f in page.frames if f.url.endswith("/lti/launch"))
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    return frame


def test_three_learners_in_the_lms_and_the_teachers_course_overview(lms_window, lms, shoot):
    links = dict(zip(IDS, add_course(lms), strict=True))
    plan = {
        "ana-b": ("ops", ["assign", "assign", "assign"]),  # stuck on ops's = for +=
        "bob-b": ("backward", ["reference"]),
        "cid-b": ("step", ["sign", "reference"]),
    }
    page = lms_window(viewport={"width": 1280, "height": 900})
    for learner, (exercise, made) in plan.items():
        lms.platform.people[learner] = {"course": CONTEXT}
        frame = frame_of(page, lms, learner, links[exercise])
        for name in made:
            if name == "reference":  # verified at once: the pass's answer is the server's
                message = checked(frame, source(exercise, name))
                assert message["verified"] is True, message
            else:  # a mistake is recorded after the page has said it: wait for the record's answer
                with page.expect_request(lambda r: urlsplit(r.url).path.endswith("/record")) as record:
                    message = checked(frame, source(exercise, name))
                assert record.value.response().ok
            assert message["passed"] is (name == "reference") and message["exercise"] == exercise, message
        if made[-1] == "reference":
            expect(page.frame_locator("#tool").get_by_test_id("lti-grade")).to_have_attribute(
                "data-state", "sent"
            )
        assert len(recorded_checks(lms, learner)) == len(made)  # each judged at the server

    for lang, look in (("en", "zoom-light"), ("de", "phone-dark")):
        teacher = f"course-overview-{lang}"
        lms.platform.people[teacher] = {"roles": [INSTRUCTOR], "course": CONTEXT, "locale": lang}
        page = lms_window(locale=lang, **LOOKS[look][0])
        page.goto(lms.platform.url + "course?" + urlencode({"user": teacher, "link": links["ops"]}))
        tool = page.frame_locator("#tool")
        table = tool.get_by_test_id("course-table")
        expect(table).to_be_visible(timeout=30_000)
        frame = next(f for f in page.frames if "/lti/class/" in f.url)
        page.goto(frame.url)  # the view in a window of its own, at the look's width
        table = page.get_by_test_id("course-table")
        none_yet, (assign, sign) = SAID[lang][3], MISTAKES[lang]
        wanted = {
            "ops": ("1", "0", "1", assign),
            "backward": ("1", "1", "0", none_yet),
            "step": ("1", "1", "0", sign),
        }
        for exercise, (tried, passed, stuck, mistake) in wanted.items():
            row = table.locator(f"tr[data-activity='{links[exercise]}']")
            expect(row.get_by_test_id("course-tried")).to_have_text(tried)
            expect(row.get_by_test_id("course-passed")).to_have_text(passed)
            expect(row.get_by_test_id("course-stuck")).to_have_text(stuck)
            expect(row.get_by_test_id("course-mistake")).to_have_text(mistake)
        assert serious_violations(page) == []
        assert page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"
        )  # no sideways scroll
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == LOOKS[look][1]
        shoot(page, f"course-overview-{lang}-{look}")
        table.locator(f"tr[data-activity='{links['step']}'] a").click()  # the step activity's own view
        expect(page.get_by_test_id("exercise")).to_contain_text("step")
        expect(page.get_by_test_id("passed")).to_have_text("1")
        assert serious_violations(page) == []
