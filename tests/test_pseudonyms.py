"""A learner's pseudonym is per course (issue 49): one learner launched into two courses of one LMS has two
pseudonyms, one in each course's class view and rows (so two courses' exports cannot be joined on it), and
the same one in two activities of a course. The page keeps what the learner's browser kept under the same
key in every course, as before (storage is theirs alone). Pseudonyms made before: tests/test_migrations.py."""

import json
import re

import pytest
from sqlalchemy import select

from server.db.tables import learners
from tests.support.lti_launches import launched_link

pytestmark = pytest.mark.slow  # a real platform, the tool over HTTPS and its database: not in make test-fast

CONFIG = re.compile(r'<script type="application/json" id="config">(?P<json>.*?)</script>', re.S)
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
PSEUDONYM = re.compile(r"[A-Za-z0-9_-]{16}")


@pytest.fixture
def two_courses(quiet_lms):
    """A platform and the tool registered with it, records on; a teacher in each of two courses."""
    quiet_lms.platform.people["tess"] = {"roles": [INSTRUCTOR]}  # course-1
    quiet_lms.platform.people["tom"] = {"roles": [INSTRUCTOR], "course": ("course-2", "Another course")}
    return quiet_lms


def launch(two_courses, user: str, course: str = "course-1", link: str = "link-1"):
    """User's launch into link of course (its redirects followed: a teacher's to the class view)."""
    person = two_courses.platform.people.get(user)
    if person is None:  # a learner: into course
        two_courses.platform.people[user] = {"course": (course, "Another course")}
    _, answer = launched_link(two_courses, user, link)
    if person is None:
        two_courses.platform.people.pop(user)
    assert answer.status_code == 200, answer.text
    return answer


def test_two_courses_on_one_lms_two_pseudonyms_for_one_learner(two_courses):
    pages = [
        launch(two_courses, "ada"),
        launch(two_courses, "ada", link="link-2"),
        launch(two_courses, "ada", "course-2"),
    ]
    with two_courses.app.extensions["db"].engine.connect() as conn:
        kept = conn.execute(select(learners.c.course, learners.c.activity, learners.c.learner)).all()
    pseudonyms = {(course, activity): learner for course, activity, learner in kept}
    first, second = pseudonyms["course-1", "link-1"], pseudonyms["course-2", "link-1"]
    assert first != second  # two courses: two pseudonyms
    assert pseudonyms["course-1", "link-2"] == first  # two activities of one course: one
    assert PSEUDONYM.fullmatch(first) and PSEUDONYM.fullmatch(second)

    in_course_1, in_course_2 = (
        launch(two_courses, "tess"),
        launch(two_courses, "tom"),
    )  # each course's class view
    assert "/lti/class/" in in_course_1.url and "/lti/class/" in in_course_2.url
    assert first in in_course_1.text and second not in in_course_1.text
    assert second in in_course_2.text and first not in in_course_2.text

    # What her browser kept is found again in each course: the page's storage key is one, and no pseudonym.
    storage = {json.loads(CONFIG.search(page.text)["json"])["lti"]["learner"] for page in pages}
    assert len(storage) == 1 and not storage & {first, second}
