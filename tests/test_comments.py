"""The comments of the code the page hands out, in the learner's language, and nothing else of the code."""

import ast

import pytest
from babel.messages.pofile import read_po

from server import ROOT, create_app
from server.exercises import comments, presets, reference
from server.page.page import page_config

POT = ROOT / "translations" / "messages.pot"


def handed_out() -> dict[str, str]:
    """Every piece of code the page hands out, in English, by name."""
    code = {
        "starter": (ROOT / "exercises" / "backward" / "starter.py").read_text(),
        "scratch": presets.STARTER,
    }
    code |= {f"example {p['id']}": p["code"] for p in presets.PRESETS}
    return code | {"solution": reference.REFERENCE.read_text()}


def config_code(lang: str) -> dict[str, str]:
    """The same pieces as the page's config has them in a language."""
    app = create_app({"TESTING": True, "SHOW_SOLUTION": True})
    with app.test_request_context(f"/?lang={lang}"):
        config = page_config()
    code = {"starter": config["starter"], "scratch": config["scratch"]["starter"]}
    code |= {f"example {p['id']}": p["code"] for p in config["scratch"]["presets"]}
    return code | {"solution": config["solution"]}


def test_every_comment_in_words_is_a_message_of_the_catalogue():
    ids = {m.id for m in read_po(POT.open("rb")) if isinstance(m.id, str)}
    said = [c.text for code in handed_out().values() for c in comments.comments(code)]
    assert len(said) >= 8  # the starter's, the scratch pad's, each example's, the solution's
    assert [text for text in said if text not in ids] == []


def test_english_is_the_code_as_written():
    assert config_code("en") == handed_out()


@pytest.mark.parametrize("name", list(handed_out()))
def test_german_says_each_comment_in_german_and_leaves_the_code_as_it_is(name):
    english, german = handed_out()[name], config_code("de")[name]
    assert ast.dump(ast.parse(german)) == ast.dump(ast.parse(english))  # the same program
    before, after = comments.comments(english), comments.comments(german)
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        assert new.text != old.text and new.column == old.column and new.after_code == old.after_code
    widest = max(72, *map(len, english.splitlines()))  # a run is rewrapped; a comment after code is not
    runs = [line for line in german.splitlines() if line.lstrip().startswith("#")]
    assert [line for line in runs if len(line) > widest] == []


def test_a_run_of_comments_is_rewrapped_at_its_own_indentation():
    code = "def f():\n    # one two three\n    # four\n    pass\n"
    long = "eins zwei drei vier " * 8
    out = comments.said(code, lambda text: long.strip() if text == "one two three four" else text)
    lines = out.splitlines()
    assert lines[0] == "def f():" and lines[-1] == "    pass"
    assert len(lines) > 4 and all(line.startswith("    # ") and len(line) <= 72 for line in lines[1:-1])
    assert " ".join(line[6:] for line in lines[1:-1]) == long.strip()
