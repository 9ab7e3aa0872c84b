"""The course overview's numbers (server/classview/course.py) on generated classes: each activity's row
says what its own class view says (learners tried, passed, stuck now, its first mistake), counted in
fewer statements; the course's activities are its own launches', each by its latest launch, and none of
another course's or another LMS's."""

import time

import pytest
from sqlalchemy import insert

from server.classview import stats
from server.classview.course import activities, numbers
from server.db import Database
from server.db.tables import launches
from tests.support import classroom


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('course') / 'lti.sqlite3'}")
    with db.engine.begin() as writing:
        for k in range(2):
            classroom.write_class(
                writing, learners=60, checks=(1, 16), idle=3, queued=2, activity=f"act-{k}", seed=50 + k
            )
    with db.engine.connect() as connection:
        yield connection
    db.engine.dispose()


@pytest.mark.parametrize("activity", ["act-0", "act-1"])
def test_each_row_says_what_the_activitys_own_view_says(counted, activity):
    view = stats.class_summary(counted, classroom.ISSUER, classroom.COURSE, activity, "backward")
    row = numbers(counted, classroom.ISSUER, classroom.COURSE, activity, "backward")
    said = (view["tried"], view["passed"], len(view["stuck"]), view["mistakes"][0]["mistake"])
    assert (row["tried"], row["passed"], row["stuck"], row["mistake"]) == said
    assert row["stuck"] > 0 and row["passed"] < row["tried"]  # a class where each number says something


def launch(
    conn, id_: str, context: str, link: str, exercise: str, created: float, issuer: str = "https://lms"
):
    conn.execute(
        insert(launches).values(
            id=id_,
            issuer=issuer,
            client_id="c",
            deployment_id="d",
            sub=f"sub-{id_}",
            resource_link_id=link,
            course="A course",
            created=created,
            context_id=context,
            activity_title=f"{link} as of {id_}",
            exercise=exercise,
        )
    )


def test_the_courses_activities_are_its_own_launches_each_by_its_latest(counted):
    now = time.time()
    launch(counted, "l1", "course-a", "link-1", "ops", now - 60)
    launch(counted, "l2", "course-a", "link-1", "step", now)  # its teacher changed its exercise since
    launch(counted, "l3", "course-a", "link-2", "backward", now - 30)
    launch(counted, "l4", "course-b", "link-3", "ops", now)  # another course, same LMS
    launch(counted, "l5", "course-a", "link-4", "ops", now, issuer="https://other-lms")  # another LMS
    found = activities(counted, "https://lms", "course-a")
    assert [(a["activity"], a["exercise"], a["title"]) for a in found] == [
        ("link-1", "step", "link-1 as of l2"),
        ("link-2", "backward", "link-2 as of l3"),
    ]
    assert [a["activity"] for a in activities(counted, "https://lms", "course-b")] == ["link-3"]
    assert activities(counted, "https://lms", "course-c") == []
