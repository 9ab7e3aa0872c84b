"""The page per exercise, as the server sends it: the front page's list, each exercise's page and config
(its words, its code, its own archive, its keys in the browser), and the seed's page as it was."""

import io
import json
import re
import zipfile
from html import unescape

import pytest
from babel.support import Translations

from server import ROOT, create_app
from server.exercises import comments
from server.exercises.registry import LEGACY
from server.page.exercise import SCRATCH
from tests.support.exercise_folders import SHIPPED, course, title
from tests.support.served_page import SEED, exercise_path


def config_of(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1])


@pytest.fixture(scope="module")
def pages_client():
    return create_app({"TESTING": True}).test_client()


def test_the_front_page_links_every_served_exercise_in_the_courses_order(pages_client):
    html = pages_client.get("/").get_data(as_text=True)
    links = re.findall(
        r'<a href="([^"]+)" data-exercise="([^"]+)"[^>]*><span class="number">\d+\.</span> '
        r'<span class="title">([^<]+)</span></a>',
        html,
    )
    # Each at <prefix>/exercises/<id>/, as docs/exercises.md says: the one test that writes the rule out.
    assert ("/exercises/ops/", "ops", "Pass gradients through + and *") in links
    assert [(h, i, unescape(t)) for h, i, t in links] == [(f"/exercises/{i}/", i, title(i)) for i in course()]
    german = pages_client.get("/?lang=de").get_data(as_text=True)
    assert "Backpropagation Schritt für Schritt" in german and "Ein Schritt des Gradientenabstiegs" in german


def test_with_one_exercise_served_the_front_page_is_its_page(tmp_path):
    (tmp_path / "course.json").write_text('{"exercises": ["step"]}')
    pages_client = create_app({"TESTING": True, "EXERCISES": str(tmp_path)}).test_client()
    assert config_of(pages_client.get("/").get_data(as_text=True))["exercise"] == "step"
    assert pages_client.get(SEED).status_code == 404  # not served here


@pytest.mark.parametrize("exercise", [i for i in course() if i != LEGACY])
def test_an_exercises_page_is_made_from_its_folder(pages_client, exercise):
    html = pages_client.get(exercise_path(exercise)).get_data(as_text=True)
    config = config_of(html)
    words = json.loads(open(f"exercises/{exercise}/words.en.json", encoding="utf-8").read())
    assert config["exercise"] == exercise and config["storage"] == f"/{exercise}"
    assert config["publicPage"] == exercise_path(exercise)
    assert config["starter"] == open(f"exercises/{exercise}/starter.py", encoding="utf-8").read()
    assert set(config["mistakes"]) == set(words["mistakes"])
    assert config["report"]["failed"]["exercise"] == exercise
    assert all(case["wrong"] for case in config["cases"])  # each mistake's numbers, for the numbers rule
    assert len(re.findall(r"<li hidden data-words=\"exercise\">", html)) == len(words["hints"])
    assert f'data-key="backprop-playground:code/{exercise}"' in html  # its code restored from its own key
    archive = pages_client.get(config["urls"]["engine"])
    assert config["urls"]["engine"].startswith(f"/exercise-{exercise}-") and archive.status_code == 200
    files = zipfile.ZipFile(io.BytesIO(archive.data))
    descriptor = json.loads(files.read("exercise.json"))
    assert descriptor["id"] == exercise and f"exercises/{exercise}/engine.py" in files.namelist()
    assert not any("reference" in name or "mistakes/" in name for name in files.namelist())


def test_the_seeds_page_keeps_its_archive_keys_and_words(pages_client):
    config = config_of(pages_client.get(SEED).get_data(as_text=True))
    assert config["exercise"] == "backward" and config["storage"] == ""  # a learner's saved code stays
    assert config["urls"]["engine"].startswith("/engine-")
    assert config["mistakes"] == {}  # its diagnosis words its mistakes


def test_an_exercise_not_served_is_not_found(pages_client):
    assert pages_client.get("/exercises/nope/").status_code == 404
    assert pages_client.get("/exercise-nope-0123456789abcdef.zip").status_code == 404


@pytest.mark.parametrize("exercise", [i for i in course() if i != LEGACY])
def test_a_german_page_says_the_code_comments_in_german(exercise):
    """The starter, the solution (where shown) and the scratch pad: each comment in the exercise's German
    words, none left in the English a German learner would read (a comment rewrapped is one run)."""
    client = create_app({"TESTING": True, "SHOW_SOLUTION": True}).test_client()
    config = config_of(client.get(exercise_path(exercise) + "?lang=de").get_data(as_text=True))
    served = {"starter.py": config["starter"], "reference.py": config["solution"]}
    served["scratch.py"] = config["scratch"]["starter"]
    german = json.loads((SHIPPED / exercise / "words.de.json").read_text(encoding="utf-8"))["comments"]
    catalogue = Translations.load(ROOT / "translations", ["de"])  # the default scratch pad's comment
    for name, code in served.items():
        path = SHIPPED / exercise / name
        written = path.read_text(encoding="utf-8") if path.exists() else SCRATCH  # no scratch.py: the default
        said = [c.text for c in comments.comments(code)]
        english = [c.text for c in comments.comments(written)]
        assert said == [german.get(text) or catalogue.gettext(text) for text in english], name
        assert not set(said) & set(english), name
