"""The class view's numbers (server/classview/stats.py) on a class built so that each count differs
(tests/support/classes.py's counted_class), counted by SQLite and by PostgreSQL alike, and only of the
activity asked for: another course, another activity and another LMS's Checks are in the same tables."""

import contextlib
import json
from collections import namedtuple

import pytest

from server import ROOT
from server.classview import figures, mistakes, stats
from server.db import Database
from server.exercises.folder import load
from tests.support.classes import DAY, OPS_GRADED, START, Learner, build, counted_class, timed
from tests.support.postgres import database_on

ISSUER = "https://lms.example"
Row = namedtuple("Row", "key a b")  # a row of the counts' query, as expression_rows reads it
COURSE, ACTIVITY = "course-1", "link-1"


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def conn(request, tmp_path_factory):
    """A database holding the counted class and, beside it, Checks of other courses, activities, LMSs."""
    if request.param == "sqlite":
        made = contextlib.nullcontext(f"sqlite:///{tmp_path_factory.mktemp('stats') / 'lti.sqlite3'}")
    else:
        made = database_on(request.getfixturevalue("postgres"))
    with made as url:
        database = Database(url)
        with database.connect() as connection:
            build(connection, ISSUER, COURSE, ACTIVITY, counted_class())
            late = START + 3 * DAY
            build(connection, ISSUER, "course-2", ACTIVITY, [Learner("zed", timed(["reversed"] * 3, late))])
            build(connection, ISSUER, "course-2", ACTIVITY, [Learner("yan", timed([None], late))])
            build(connection, ISSUER, COURSE, "link-2", [Learner("xia", timed(["early"] * 3, late))])
            build(
                connection,
                "https://other.example",
                COURSE,
                ACTIVITY,
                [Learner("wim", timed(["out-grad"] * 3, late))],
            )
            # Checks of ops in the same activity (its teacher changed its exercise in the LMS since): ana's
            # and ben's, who opened it already; the seed's counts above never count them
            ops = [
                Learner("ana", timed(["assign", "assign", None], late), "Ana Alves"),
                Learner("ben", timed(["no-chain", "swapped", "swapped", "swapped"], late)),
            ]
            build(connection, ISSUER, COURSE, ACTIVITY, ops, OPS_GRADED, opened_row=False)
            yield connection
        database.engine.dispose()


@pytest.fixture(scope="module")
def summary(conn):
    return stats.class_summary(conn, ISSUER, COURSE, ACTIVITY)


def by_name(learners: list[dict]) -> list[str]:
    return [row["learner"] for row in learners]


def pseudonym(sub: str) -> str:
    return Learner(sub).learner


def test_opened_tried_passed_and_checks_are_the_activitys_own(summary):
    """12 opened it (fay made no Check), 11 tried (ida's one Check still waits for the sandbox), 6 passed;
    33 Checks in all. Course 2, activity link-2 and the other LMS add nothing."""
    assert (summary["opened"], summary["tried"], summary["passed"], summary["checks"]) == (12, 11, 6, 33)


def test_each_mistake_met_still_on_it_and_the_checks_it_took_to_get_past(summary):
    found = {m["mistake"]: (m["met"], m["still"], m["past"], m["median"]) for m in summary["mistakes"]}
    assert found == {
        # ben, cem, jo, kim met it; ben and kim are still on it; cem took 2 Checks, jo 5
        "reversed": (4, 2, 2, 3.5),
        # ana took 3 (out-grad twice, then a pass), kim 2 (then reversed: past it, into another)
        "out-grad": (2, 0, 2, 2.5),
        "early": (2, 1, 1, 2.0),  # gus is still on it; cem took 2
        "timeout": (1, 0, 1, 2.0),  # dora's loop, then a syntax error
        "syntax": (1, 1, 0, None),
        "repeated": (1, 0, 1, 3.0),  # hal: passed at the third, made it again after (not "still": passed)
        "direct": (1, 0, 0, None),  # lea passed first, then made it three times: not still on it
    }
    assert [m["mistake"] for m in summary["mistakes"]] == [
        "reversed",
        "early",
        "out-grad",
        "direct",
        "repeated",
        "syntax",
        "timeout",
    ]  # the most met first


def test_examples_fold_the_same_shape_into_one_and_keep_the_three_most_made(summary):
    """reversed: ben's three and jo's first two Checks share shape 0 (5 Checks, 2 learners); jo's next two
    shape 2, kim's two shape 3; cem's one of shape 1 is the fourth shape: left out."""
    reversed_ = next(m for m in summary["mistakes"] if m["mistake"] == "reversed")
    assert [(e["checks"], e["learners"]) for e in reversed_["examples"]] == [(5, 2), (2, 1), (2, 1)]
    assert "for v in topo:" in reversed_["examples"][0]["source"]
    assert "for v in reversed(topo):" not in reversed_["examples"][0]["source"]
    assert all("name" not in e and "learner" not in e for e in reversed_["examples"])


def test_stuck_is_the_same_mistake_at_the_last_three_checks_with_no_pass(summary):
    """ben (reversed three times) and gus (early at his last three of four); not kim (out-grad then
    reversed twice), not lea (three times direct, after a pass), not dora (two Checks)."""
    assert [(row["learner"], row["mistake"]) for row in summary["stuck"]] == [
        (pseudonym("ben"), "reversed"),
        (pseudonym("gus"), "early"),
    ]
    gus = summary["stuck"][1]
    assert gus["since"] == START + DAY + 3600 * 6 + 60  # his second Check began the run


def test_right_at_the_last_check_per_expression(summary):
    """Of the 9 whose last judged Check computed gradients (dora's was a syntax error, ida's waits)."""
    found = {row["expr"]: (row["right"], row["of"]) for row in summary["expressions"]}
    assert found == {"neuron": (7, 9), "reuse": (5, 9), "chain": (4, 9), "shared": (6, 9)}
    assert [row["expr"] for row in summary["expressions"]] == ["neuron", "reuse", "chain", "shared"]


def test_checks_to_the_first_pass(summary):
    """eli and lea passed at their first Check, ana, cem and hal at their third, jo at his fifth."""
    first = summary["first_pass"]
    assert first["histogram"] == {1: 2, 3: 3, 5: 1}
    assert first["median"] == 3.0
    assert [b["learners"] for b in first["buckets"]] == [2, 0, 3, 0, 1, 0, 0, 0]


def test_checks_per_day(summary):
    assert summary["days"] == [
        {"day": "2026-12-01", "checks": 12, "learners": 5},
        {"day": "2026-12-02", "checks": 21, "learners": 6},
    ]


def test_every_learner_who_opened_it_with_their_last_mistake(summary):
    rows = {row["learner"]: row for row in summary["learners"]}
    assert len(rows) == 12
    assert (rows[pseudonym("fay")]["checks"], rows[pseudonym("fay")]["name"]) == (0, "Fay Fischer")
    assert (rows[pseudonym("kim")]["checks"], rows[pseudonym("kim")]["mistake"]) == (3, "reversed")
    assert rows[pseudonym("hal")]["passed"] and rows[pseudonym("hal")]["mistake"] == "repeated"
    assert not rows[pseudonym("ben")]["passed"]


def test_a_learners_timeline_has_each_check_and_what_changed(conn):
    checks = stats.timeline(conn, ISSUER, COURSE, ACTIVITY, pseudonym("cem"))
    assert [(c["passed"], c["mistake"]) for c in checks] == [
        (False, "reversed"),
        (False, "early"),
        (True, None),
    ]
    assert checks[0]["changes"] == []
    assert "+    queue, seen = deque([out]), {out}" in checks[1]["changes"]  # then breadth-first
    assert checks[2]["results"]["chain"] == {"passed": True, "mistake": None}
    assert checks[1]["results"]["chain"] == {"passed": False, "mistake": "early"}


def test_a_timeline_is_the_activitys_only(conn):
    """zed's Checks are in course 2: asked for in course 1, nothing; wim's, on another LMS, likewise."""
    assert stats.timeline(conn, ISSUER, COURSE, ACTIVITY, pseudonym("zed")) == []
    assert stats.timeline(conn, ISSUER, COURSE, ACTIVITY, pseudonym("wim")) == []
    assert len(stats.timeline(conn, ISSUER, "course-2", ACTIVITY, pseudonym("zed"))) == 3


def test_another_course_counts_its_own(conn):
    other = stats.class_summary(conn, ISSUER, "course-2", ACTIVITY)
    assert (other["opened"], other["tried"], other["passed"], other["checks"]) == (2, 2, 1, 4)
    assert [(row["learner"], row["mistake"]) for row in other["stuck"]] == [(pseudonym("zed"), "reversed")]


def test_an_activitys_checks_of_another_exercise_count_in_that_exercises_view_only(conn):
    """ops's Checks of link-1 (ana's and ben's) are counted by ops's view, in ops's order, with ops's
    mistakes; the seed's view of the same activity counts the seed's only (the other tests hold its
    numbers), and each learner's timeline is the exercise's."""
    order = figures.order_of(load(ROOT / "exercises/ops", own=True))
    ops = stats.class_summary(conn, ISSUER, COURSE, ACTIVITY, "ops", order)
    assert (ops["tried"], ops["passed"], ops["checks"]) == (2, 1, 7)
    assert [(m["mistake"], m["met"], m["still"]) for m in ops["mistakes"]] == [
        ("assign", 1, 0),
        ("no-chain", 1, 0),
        ("swapped", 1, 1),
    ]
    assert [(row["learner"], row["mistake"]) for row in ops["stuck"]] == [(pseudonym("ben"), "swapped")]
    assert [row["expr"] for row in ops["expressions"]] == ["a*b", "a+a", "a*b+a", "a+b", "a*a"]
    assert ops["opened"] == stats.class_summary(conn, ISSUER, COURSE, ACTIVITY)["opened"]  # who opened it
    mine = stats.timeline(conn, ISSUER, COURSE, ACTIVITY, pseudonym("ana"), "ops")
    assert [c["mistake"] for c in mine] == ["assign", "assign", None]
    assert [c["mistake"] for c in stats.timeline(conn, ISSUER, COURSE, ACTIVITY, pseudonym("ana"))] == [
        "out-grad",
        "out-grad",
        None,
    ]
    row = stats.learner_row(conn, ISSUER, COURSE, ACTIVITY, pseudonym("ben"), "ops")
    assert (row["checks"], row["mistake"]) == (4, "swapped")


def test_median():
    assert figures.median({}) is None
    assert figures.median({4: 1}) == 4
    assert figures.median({1: 1, 2: 1}) == 1.5
    assert figures.median({1: 2, 9: 1}) == 1


def test_the_teachers_docs_name_every_mistake_as_the_class_view_does():
    """docs/class-view.md's tables: each general mistake's name and what the code did, as
    server/classview/mistakes.py says them, and the seed's, as its folder's words do (the docs set code in
    backticks)."""
    table = (ROOT / "docs/class-view.md").read_text().replace("`", "").lower()
    seed = json.loads((ROOT / "exercises/backward/words.en.json").read_text())["mistakes"]
    said = [*mistakes.MISTAKES.values(), *((w["title"], w["about"]) for w in seed.values())]
    for name, about in said:
        assert f"| {name} | {about.rstrip('.')} |".lower() in table, name


def test_the_random_graphs_verify_draws_are_order_graphs_in_the_seeds_order():
    """Under strict, /verify's Checks hold results for "random" (the graphs it draws): graphs that tell
    orders apart, drawn (no fixed case), in the place the seed's exercise.json gives them (after its order
    graphs, before its lesson); not a lesson. A group the exercise does not have goes last."""
    rows = [Row(key, 1, 2) for key in ("random", "deep", "gone", "tangle", "neuron")]
    shown = [(row["expr"], row["role"]) for row in figures.expression_rows(rows)]
    assert shown == [
        ("neuron", "seed"),
        ("tangle", "order"),
        ("random", "drawn"),
        ("deep", "lesson"),
        ("gone", ""),
    ]


def test_an_exercises_groups_come_in_its_own_order_from_its_folder():
    """ops's rows in its exercise.json's order (a*b, a+a, a*b+a, a+b, a*a), each graded: not the seed's."""
    ops = load(ROOT / "exercises/ops", own=True)
    rows = [Row(key, 1, 2) for key in ("a*a", "a+b", "a*b", "a+a", "a*b+a")]
    shown = [(row["expr"], row["role"]) for row in figures.expression_rows(rows, figures.order_of(ops))]
    assert shown == [(g, "graded") for g in ("a*b", "a+a", "a*b+a", "a+b", "a*a")]
