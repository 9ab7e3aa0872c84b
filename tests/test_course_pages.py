"""The course as the server sends it: the front page is the course map (the course's title, each exercise
in order with its number and title, where its learner's state is kept, its reset asked first), each
exercise's page says where it is in the course and links the previous and the next, and a course of one
exercise shows its page as before: no map, no place."""

import json
import re

import pytest

from server import create_app
from tests.support.exercise_folders import SHIPPED
from tests.support.served_page import exercise_path

COURSE = json.loads((SHIPPED / "course.json").read_text())


@pytest.fixture(scope="module")
def course_client():
    return create_app({"TESTING": True}).test_client()


def items(html: str) -> list[tuple[str, str, str, str]]:
    """Each row of the map: its storage suffix, its link's id, its number and its title."""
    return re.findall(
        r'<li data-storage="([^"]*)" data-id="[^"]+">\s*<a href="[^"]+" data-exercise="([^"]+)" '
        r'aria-describedby="state-[^"]+"><span class="number">(\d+)\.</span> '
        r'<span class="title">([^<]+)</span></a>',
        html,
    )


def test_the_front_page_is_the_course_map_in_the_courses_order_with_its_title(course_client):
    html = course_client.get("/").get_data(as_text=True)
    assert f"<h1>{COURSE['title']['en']}</h1>" in html
    assert f"<title>{COURSE['title']['en']} · backprop playground</title>" in html
    rows = items(html)
    assert [row[1] for row in rows] == COURSE["exercises"]
    assert [row[2] for row in rows] == [str(n) for n in range(1, len(rows) + 1)]
    # where each page keeps its learner's state: the seed's bare keys, the others' /<id>
    assert [row[0] for row in rows] == ["" if i == "backward" else f"/{i}" for i in COURSE["exercises"]]
    assert "kept in this browser only" in html and 'data-testid="reset-course"' in html
    assert html.count('data-testid="reset-one"') == len(rows) and '<dialog id="ask"' in html
    assert 'data-not-started="Not started" data-tried="Tried, not passed yet" data-passed="Passed"' in html
    german = course_client.get("/?lang=de").get_data(as_text=True)
    assert f"<h1>{COURSE['title']['de']}</h1>" in german and 'data-passed="Bestanden"' in german
    assert "nur in diesem Browser behalten" in german


def test_each_exercise_page_says_where_it_is_and_links_the_previous_and_the_next(course_client):
    ids = COURSE["exercises"]
    for number, id_ in enumerate(ids, 1):
        html = course_client.get(exercise_path(id_)).get_data(as_text=True)
        place = html[html.index('<nav class="site course-place"') : html.index("</nav>")]
        assert f'<a href="/" data-testid="course-map">{COURSE["title"]["en"]}</a>' in place
        assert f"Exercise {number} of {len(ids)}" in place
        around = re.findall(r'<a href="([^"]+)" data-exercise="([^"]+)" rel="(prev|next)">', place)
        want = [(exercise_path(ids[number - 2]), ids[number - 2], "prev")] if number > 1 else []
        want += [(exercise_path(ids[number]), ids[number], "next")] if number < len(ids) else []
        assert around == want
    german = course_client.get(exercise_path(ids[1]) + "?lang=de").get_data(as_text=True)
    assert f"Übung 2 von {len(ids)}" in german and ">Zurück<" in german and ">Weiter<" in german


def test_a_teachers_course_gives_its_own_title_or_none(tmp_path):
    (tmp_path / "course.json").write_text(
        '{"title": {"en": "Week 3", "de": "Woche 3"}, "exercises": ["step", "ops"]}'
    )
    client = create_app({"TESTING": True, "EXERCISES": str(tmp_path)}).test_client()
    html = client.get("/").get_data(as_text=True)
    assert "<h1>Week 3</h1>" in html and [row[1] for row in items(html)] == ["step", "ops"]
    assert "<h1>Woche 3</h1>" in client.get("/?lang=de").get_data(as_text=True)
    assert "Exercise 1 of 2" in client.get(exercise_path("step")).get_data(as_text=True)
    (tmp_path / "course.json").write_text('{"exercises": ["step", "ops"]}')
    html = (
        create_app({"TESTING": True, "EXERCISES": str(tmp_path)})
        .test_client()
        .get("/")
        .get_data(as_text=True)
    )
    assert "<h1>Exercises</h1>" in html  # no title given: the front page's word, not the playground's title


def test_a_course_of_one_exercise_shows_its_page_with_no_map_and_no_place(tmp_path):
    (tmp_path / "course.json").write_text('{"title": "Just one", "exercises": ["step"]}')
    client = create_app({"TESTING": True, "EXERCISES": str(tmp_path)}).test_client()
    for path in ("/", exercise_path("step")):
        html = client.get(path).get_data(as_text=True)
        assert 'id="config"' in html and "course-place" not in html and "course-map" not in html


def test_a_launched_page_has_no_place_in_the_course(course_client):
    """An LMS's activity is one exercise: links to the others would take the learner out of its launch."""
    from server.page.page import page_config, render_page

    with course_client.application.test_request_context("/"):
        config = page_config(None, "step")
        assert "course-place" in render_page(config)
        lti = {"launch": "t", "course": "c", "grades": True, "retry": "/r", "learner": "l", "lastCheck": None}
        assert "course-place" not in render_page({**config, "lti": lti})
