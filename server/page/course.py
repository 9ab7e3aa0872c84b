"""The course as its pages show it: the front page's course map (each served exercise in order with its
number, title, address and where this browser keeps its learner's code: static/js/page/map.js reads the
state of each from there) and an exercise page's place in the course ("Exercise 3 of 9", the course's
title, the previous and the next exercise). A course of one exercise has neither: its page is the front
page.
"""

from flask import current_app
from flask_babel import gettext

from server.page import i18n
from server.page.exercise import served
from server.page.static import page_url


def title() -> str:
    """The course's title in the page's language (course.json's), else the front page's word for it."""
    return current_app.extensions["exercises"].title(i18n.select_locale()) or gettext("Exercises")


def entries() -> list[dict]:
    """Each served exercise as the map lists it, in the course's order: its number, id, title, address
    and what its keys in this browser end in (server/page/exercise.py's storage)."""
    return [
        {
            "number": number,
            "id": view.id,
            "title": view.title(),
            "url": page_url("page.exercise", exercise=view.id),
            "storage": view.storage(),
        }
        for number, view in enumerate(served(), 1)
    ]


def place(exercise_id: str) -> dict | None:
    """Where an exercise is in the course: its number of how many, the course's title and the front
    page's address, the previous and the next exercise (None at an end); None in a course of one."""
    listed = entries()
    if len(listed) < 2:
        return None
    at = next(i for i, entry in enumerate(listed) if entry["id"] == exercise_id)
    return {
        "number": at + 1,
        "total": len(listed),
        "title": title(),
        "home": page_url("page.index"),
        "previous": listed[at - 1] if at > 0 else None,
        "next": listed[at + 1] if at + 1 < len(listed) else None,
    }
