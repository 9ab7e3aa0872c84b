"""The whole course in the tests' LMS (issue 52's "In the LMS"): Deep Linking offers the course, which adds
one activity per served exercise in the course's order (each titled with its place and its exercise's
title, its exercise's default verdict), unless the LMS takes one item at a time; each activity's grade
is its own exercise's; a teacher's class view shows the course overview (learners tried, passed, stuck,
the most common mistake per activity), whose links open only this course's activities."""

import html
import re
from urllib.parse import urljoin

import jwt
import pytest
import requests

from server import ROOT
from server.exercises.folder import load
from server.exercises.registry import SHIPPED, course
from server.lti.deep_linking import WHOLE_COURSE
from tests.support.lti_launches import (
    LAUNCH_TOKEN,
    add_course,
    first_page,
    form_of,
    launched_link,
    post,
    recorded_checks,
    refusal_title,
    verify,
)

pytestmark = pytest.mark.slow  # a real LMS, the tool over HTTPS, real sandboxes

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
IDS = course(SHIPPED).ids  # the served exercises, in the course's order (exercises/course.json)
TITLES = {  # each shipped exercise's title the tests here read, in English and German
    "ops": ("Pass gradients through + and *", "Gradienten durch + und * weitergeben"),
    "backward": (
        "Run backpropagation in the right order",
        "Backpropagation in der richtigen Reihenfolge ausführen",
    ),
    "step": ("One step of gradient descent", "Ein Schritt des Gradientenabstiegs"),
}


def source(exercise: str, name: str) -> str:
    """An exercise's reference, or one of its named mistakes' code."""
    folder = ROOT / "exercises" / exercise
    return (folder / ("reference.py" if name == "reference" else f"mistakes/{name}.py")).read_text()


def test_the_whole_course_adds_one_activity_per_exercise_in_its_order(lms):
    session, page = first_page(lms)
    assert f'value="{WHOLE_COURSE}"' in page.text and 'data-testid="no-whole-course"' not in page.text
    offered = re.findall(r"<span>([^<]*) \(<code>([^<]*)</code>\)", page.text)
    titles = {exercise: html.unescape(title) for title, exercise in offered}
    assert titles["ops"] == TITLES["ops"][0]  # each exercise by its title, as the page offers it
    page = post(lms, session, page, {"exercise": WHOLE_COURSE})
    items_page = re.search(r'data-testid="course-items">(.*?)</ol>', page.text, re.S)[1]
    listed = re.findall(r"<li>(.*?)</li>", items_page)
    assert [re.search(r"<code>(.*?)</code>", item)[1] for item in listed] == IDS
    page = post(lms, session, page, {"language": "de"})
    assert f"Add {len(IDS)} activities to the course" in page.text  # the teacher's language, not the choice
    action, fields = form_of(page)
    sent = jwt.decode(fields["JWT"], options={"verify_signature": False})
    items = sent["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert session.post(action, data={"JWT": fields["JWT"]}).status_code == 200

    added = list(lms.platform.links.values())[-len(IDS) :]
    assert len(items) == len(IDS) and [i["custom"]["exercise"] for i in added] == IDS
    for place, (item, exercise) in enumerate(zip(added, IDS, strict=True), 1):
        title = f"Backprop playground {place} of {len(IDS)}: {titles[exercise]}"
        assert item["type"] == "ltiResourceLink" and item["title"] == title
        assert item["url"] == lms.tool_url + "lti/launch"
        assert item["lineItem"] == {"scoreMaximum": 1, "label": title, "resourceId": exercise}
        verdicts = list(load(SHIPPED / exercise, own=True).verdicts())
        verdict = "seed" if "seed" in verdicts else verdicts[0]  # its default (the server's setting: seed)
        assert item["custom"] == {"exercise": exercise, "verdict": verdict, "language": "de"}


def test_a_german_teacher_adds_the_course_titled_in_german(lms):
    lms.platform.people["lehrerin"] = {"roles": [INSTRUCTOR], "locale": "de"}
    session, page = first_page(lms, "lehrerin")
    assert "Den ganzen Kurs" in page.text
    page = post(lms, session, page, {"exercise": WHOLE_COURSE})
    page = post(lms, session, page, {"language": ""})
    action, fields = form_of(page)
    items = jwt.decode(fields["JWT"], options={"verify_signature": False})[
        "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
    ]
    assert items[0]["title"] == f"Backprop-Playground 1 von {len(IDS)}: {TITLES[IDS[0]][1]}"
    assert all("language" not in i["custom"] for i in items)  # each learner's own


@pytest.mark.parametrize("said", [False, "false"])
def test_an_lms_that_takes_one_item_at_a_time_is_not_offered_the_course_and_told_why(lms, said):
    lms.platform.accept_multiple = said
    try:
        session, page = first_page(lms)
        assert f'value="{WHOLE_COURSE}"' not in page.text
        note = html.unescape(re.search(r'data-testid="no-whole-course">(.*?)</p>', page.text, re.S)[1])
        assert "one activity at a time" in note and "each exercise as an activity of its own" in note
        refused = post(lms, session, page, {"exercise": WHOLE_COURSE})  # forged: the page did not offer it
        assert refused.status_code == 400
        assert refusal_title(refused) == "This choice is not one the page offers"
    finally:
        lms.platform.accept_multiple = True


def course_row(page: requests.Response, activity: str) -> dict:
    """The course overview's row of an activity: its cells' texts, and its link."""
    row = course_row_html(page, activity)
    cell = {
        name: " ".join(html.unescape(re.sub(r"<[^>]+>", "", found)).split())
        for name, found in re.findall(r'data-testid="course-(\w+)"[^>]*>(.*?)</td>', row, re.S)
    }
    return cell | {"link": html.unescape(re.search(r'<a href="([^"]+)"', row)[1])}


def test_three_learners_on_three_exercises_and_the_course_overviews_numbers(lms):
    """ana makes ops's `assign` three times (stuck), dee `swapped` then `assign`; bob passes backward at
    once; cid steps up the gradient then passes step: each activity its own exercise, its own grade; the
    teacher's course overview counts each row exactly."""
    lms.platform.own_lineitems = True
    try:
        links = dict(zip(IDS, add_course(lms), strict=True))
        plan = {
            "ana": ("ops", ["assign", "assign", "assign"]),
            "dee": ("ops", ["swapped", "assign"]),  # ops's most common mistake: assign, made by two
            "bob": ("backward", ["reference"]),
            "cid": ("step", ["sign", "reference"]),
        }
        for learner, (exercise, made) in plan.items():
            session, page = launched_link(lms, learner, links[exercise])
            assert page.status_code == 200, page.text
            token = LAUNCH_TOKEN.search(page.text)["token"]
            for name in made:
                report = verify(lms, session, token, source(exercise, name)).json()["report"]
                assert report["passed"] is (name == "reference"), (learner, name, report)
            assert [r["exercise"] for r in recorded_checks(lms, learner)] == [exercise] * len(made)
        # each activity's grade is its exercise's, in its own column
        assert lms.platform.wait_for_score("bob", lineitem=links["backward"])["scoreGiven"] == 1
        assert lms.platform.wait_for_score("cid", lineitem=links["step"])["scoreGiven"] == 1
        assert not [k for k in lms.platform.gradebook if k[1] in ("ana", "dee")]
        assert {k for k in lms.platform.gradebook if k[1] in ("bob", "cid")} == {
            (links["backward"], "bob"),
            (links["step"], "cid"),
        }
    finally:
        lms.platform.own_lineitems = False

    lms.platform.people["teacher-course"] = {"roles": [INSTRUCTOR]}
    session, view = launched_link(lms, "teacher-course", links["ops"])
    assert "/lti/class/" in view.url and 'data-testid="course-overview"' in view.text
    rows = {e: course_row(view, links[e]) for e in ("ops", "backward", "step")}
    assert {e: (r["tried"], r["passed"], r["stuck"], r["mistake"]) for e, r in rows.items()} == {
        "ops": ("2", "0", "1", "= instead of +="),
        "backward": ("1", "1", "0", "none yet"),
        "step": ("1", "1", "0", "Steps up the gradient"),
    }
    # a row's link opens that activity's own class view, for this teacher
    step = session.get(urljoin(view.url, rows["step"]["link"]), verify=lms.ca_file)
    assert step.status_code == 200 and "/lti/class/" in step.url
    assert re.search(r'data-testid="exercise">.*?<code>step</code>', step.text, re.S)
    assert re.search(r'data-testid="tried">1<', step.text) and re.search(
        r'data-testid="passed">1<', step.text
    )
    assert 'aria-current="page">' in course_row_html(step, links["step"])

    lms.platform.people["lehrer-course"] = {"roles": [INSTRUCTOR], "locale": "de"}
    _, view = launched_link(lms, "lehrer-course", links["step"])
    assert course_row(view, links["ops"])["mistake"] == "= statt +="
    assert course_row(view, links["step"])["mistake"] == "Schritt den Gradienten hinauf"
    assert course_row(view, links["backward"])["mistake"] == "noch keiner"


def course_row_html(page: requests.Response, activity: str) -> str:
    return re.search(rf'<tr data-activity="{activity}" data-exercise="[^"]*">(.*?)</tr>', page.text, re.S)[1]


TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"


def token_of(url: str) -> str:
    return re.search(r"[?&]t=([^&]+)", url)[1]


def test_the_course_overview_is_this_courses_and_this_teachers_only(lms):
    """A row's link opens an activity of the teacher's own course, with a token that ends when theirs does
    and keeps what they may do; another course's teacher, a learner and a stranger get nothing of it."""
    links = dict(zip(IDS, add_course(lms), strict=True))
    for link in links.values():  # an LMS names an activity to the tool at its launches only
        launched_link(lms, "learner-c1", link)
    lms.platform.people["tutor-1"] = {"roles": [INSTRUCTOR, TA]}
    session, view = launched_link(lms, "tutor-1", links[IDS[0]])
    assert 'data-testid="course-overview"' in view.text
    mine = jwt.decode(token_of(view.url), options={"verify_signature": False})
    listed = re.findall(r'<tr data-activity="([^"]+)"', view.text)
    assert set(links.values()) <= set(listed)
    other = session.get(urljoin(view.url, course_row(view, links[IDS[-1]])["link"]), verify=lms.ca_file)
    assert other.status_code == 200 and "/lti/class/" in other.url
    theirs = jwt.decode(token_of(other.url), options={"verify_signature": False})
    assert theirs["activity"] == links[IDS[-1]] and theirs["exercise"] == IDS[-1]
    assert theirs["exp"] <= mine["exp"] and theirs["tutor"] is True  # no longer, and still a tutor's
    assert {k: theirs[k] for k in ("issuer", "course", "client_id", "launch")} == {
        k: mine[k] for k in ("issuer", "course", "client_id", "launch")
    }

    # another course's teacher, on the same LMS: their course's activities only, and none of course-1's
    lms.platform.people["teacher-other"] = {"roles": [INSTRUCTOR], "course": ("course-2", "Statistics")}
    lms.platform.people["learner-other"] = {"course": ("course-2", "Statistics")}
    launched_link(lms, "learner-other", "link-other-2")
    session2, view2 = launched_link(lms, "teacher-other", "link-other-1")
    assert "/lti/class/" in view2.url
    assert re.findall(r'<tr data-activity="([^"]+)"', view2.text) == ["link-other-1", "link-other-2"]
    assert not set(links.values()) & set(re.findall(r'data-activity="([^"]+)"', view2.text))
    asked = f"{lms.tool_url}lti/class/activity/{links[IDS[0]]}?t={token_of(view2.url)}"
    refused = session2.get(asked, verify=lms.ca_file, allow_redirects=False)
    assert refused.status_code == 404 and refusal_title(refused) == "No such activity in this course"
    assert "course-1" not in refused.text and "Machine Learning" not in refused.text

    # a learner of course-1: the exercise, no overview; their launch token opens no class view
    learner_session, page = launched_link(lms, "learner-c1", links[IDS[0]])
    assert page.status_code == 200 and 'data-testid="course-overview"' not in page.text
    launch = LAUNCH_TOKEN.search(page.text)["token"]
    for token in (
        launch,
        "",
        "x.y.z",
        token_of(view.url)[:-4] + "AAAA",
    ):  # a learner's, none, forged, altered
        asked = f"{lms.tool_url}lti/class/activity/{links[IDS[1]]}?t={token}"
        answer = learner_session.get(asked, verify=lms.ca_file, allow_redirects=False)
        assert answer.status_code == 403 and "Machine Learning" not in answer.text, token
        assert refusal_title(answer) == "This class view is not open to you"
