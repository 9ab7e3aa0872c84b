"""The records' export: a class's Checks as JSON Lines, each line held to the schema made from FIELDS (and
served beside the page contract's), scoped to a course and an activity; the learners' CSV counted by the
database; `flask --app server lti export-attempts` printing the same, on SQLite and PostgreSQL."""

import csv
import io
import json

from jsonschema import Draft202012Validator

from server import create_app
from server.db import init_app as open_database
from server.records.export import COLUMNS, FIELDS, attempt_rows, jsonl, learners_csv, schema
from tests.support import class_records, solutions
from tests.support.class_records import ISSUER, checked, opened, source_sha256

database = class_records.database  # the fixture (its PostgreSQL server: conftest.py's postgres)

T0 = 1_764_900_000.0  # 2025-12-05T02:00:00Z
WRONG = {"neuron": (False, "reversed"), "reuse": (True, None), "chain": (False, "reversed")}
RIGHT = {"neuron": (True, None), "reuse": (True, None), "chain": (True, None)}
SOURCES = {
    "reversed": "def backward(out):\n    out.grad = 1.0\n    for v in order(out):\n        v._backward()\n",
    "syntax": "def backward(out:\n",
    "loop": "def backward(out):\n    while True:\n        pass\n",
}


def a_class(conn) -> None:
    """Two learners in course-1's link-1 (one named, with a reversed order, an error and a pass; one still
    queued), one in its link-2, one in course-2: Checks of each kind a recording leaves."""
    opened(conn, "ada", name="Ada Lovelace", when=T0)
    opened(conn, "bob", when=T0 + 10)
    opened(conn, "ada", activity="link-2", name="Ada Lovelace", when=T0 + 20)
    opened(conn, "cy", course="course-2", when=T0 + 30)
    checked(
        conn, "ada", SOURCES["reversed"], passed=False, mistake="reversed", expressions=WRONG, when=T0 + 60
    )
    checked(conn, "ada", SOURCES["syntax"], passed=False, mistake="syntax", when=T0 + 120)
    checked(conn, "ada", solutions.CORRECT, passed=True, expressions=RIGHT, when=T0 + 180)
    checked(conn, "bob", SOURCES["loop"], passed=None, state="queued", when=T0 + 200)
    checked(
        conn, "ada", "def backward(out):\n    pass  # ü\n", passed=False, mistake="nothing", activity="link-2"
    )
    checked(conn, "cy", SOURCES["loop"], passed=False, mistake="timeout", course="course-2", when=T0 + 240)


def test_every_exported_line_follows_the_schema_made_from_fields_and_says_each_check(database):
    with database.connect() as conn:
        a_class(conn)
        lines = list(jsonl(attempt_rows(conn)))
    validator = Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    exported = [json.loads(text) for text in lines]
    for each in exported:
        validator.validate(each)
        assert list(each) == list(FIELDS)
    assert all(text.endswith("\n") and text.count("\n") == 1 for text in lines)
    first = exported[0]
    assert {k: first[k] for k in ("issuer", "course", "activity", "exercise", "learner", "sub")} == {
        "issuer": ISSUER,
        "course": "course-1",
        "activity": "link-1",
        "exercise": "backward",
        "learner": "p-ada",
        "sub": "ada",
    }
    assert (first["time"], first["passed"], first["mistake"]) == (
        "2025-12-05T02:01:00.000Z",
        False,
        "reversed",
    )
    assert first["expressions"] == {
        "chain": {"passed": False, "mistake": "reversed"},
        "neuron": {"passed": False, "mistake": "reversed"},
        "reuse": {"passed": True, "mistake": None},
    }
    assert first["source"] == SOURCES["reversed"]
    assert first["source_sha256"] == source_sha256(SOURCES["reversed"])  # the receipt's, for this code
    assert [(e["sub"], e["passed"], e["mistake"], e["state"]) for e in exported[1:]] == [
        ("ada", False, "syntax", "judged"),
        ("ada", True, None, "judged"),
        ("bob", None, None, "queued"),  # not judged yet: no verdict
        ("ada", False, "nothing", "judged"),
        ("cy", False, "timeout", "judged"),
    ]
    assert exported[2]["expressions"]["neuron"] == {"passed": True, "mistake": None}
    assert exported[1]["expressions"] == {}  # a syntax error: no expression ran
    assert "ü" in lines[4]  # UTF-8 as it is


def test_a_line_that_strays_from_fields_is_refused_by_the_schema(database):
    with database.connect() as conn:
        a_class(conn)
        line = next(attempt_rows(conn))
    validator = Draft202012Validator(schema())
    assert validator.is_valid(line)
    strays = [
        {**line, "passed": "false"},
        {**line, "passed": None},  # judged: a verdict is due
        {**line, "mistake": "Not a key"},
        {**line, "exercise": None},
        {**line, "exercise": "../ops"},
        {**line, "rule": None},
        {**line, "time": "05/12/2025"},
        {**line, "source_sha256": "abc"},
        {**line, "expressions": {"neuron": {"passed": "yes", "mistake": None}}},
        {**line, "expressions": {"neuron": {"passed": True, "mistake": "Not a key"}}},
        {**line, "extra": 1},
        {k: v for k, v in line.items() if k != "sub"},
    ]
    assert not any(validator.is_valid(each) for each in strays)


def test_the_export_keeps_to_the_course_and_activity_asked_for(database):
    with database.connect() as conn:
        a_class(conn)

        def of(**scope) -> list[tuple]:
            return [(r["course"], r["activity"], r["sub"]) for r in attempt_rows(conn, **scope)]

        assert len(of()) == 6
        assert set(of(issuer=ISSUER, course="course-1")) == {
            ("course-1", "link-1", "ada"),
            ("course-1", "link-1", "bob"),
            ("course-1", "link-2", "ada"),
        }
        assert of(course="course-1", activity="link-2") == [("course-1", "link-2", "ada")]
        assert of(course="course-2") == [("course-2", "link-1", "cy")]
        assert of(issuer="https://other.example.edu", course="course-1") == []


def test_the_learners_csv_counts_each_learner_of_the_activity(database):
    with database.connect() as conn:
        a_class(conn)
        opened(
            conn, "dee", name='=HYPERLINK("http://x")', when=T0 + 300
        )  # opened, no Check; a name to defuse
        text = "".join(learners_csv(conn, ISSUER, "course-1", "link-1"))
        whole_course = list(csv.DictReader(io.StringIO("".join(learners_csv(conn, ISSUER, "course-1")))))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == ",".join(COLUMNS)
    assert [r["learner"] for r in rows] == ["p-ada", "p-bob", "p-dee"]
    ada, bob, dee = rows
    assert ada == {
        "activity": "link-1",
        "exercise": "backward",
        "learner": "p-ada",
        "sub": "ada",
        "name": "Ada Lovelace",
        "opened": "2025-12-05T02:00:00.000Z",
        "last_opened": "2025-12-05T02:00:00.000Z",
        "checks": "3",
        "passed": "true",
        "first_pass": "2025-12-05T02:03:00.000Z",
        "checks_to_first_pass": "3",
        "last_mistake": "",
    }
    assert (bob["checks"], bob["passed"], bob["first_pass"], bob["checks_to_first_pass"]) == (
        "1",
        "false",
        "",
        "",
    )
    assert (dee["checks"], dee["name"], dee["exercise"]) == ("0", '\'=HYPERLINK("http://x")', "")
    assert [(r["activity"], r["learner"], r["checks"]) for r in whole_course] == [
        ("link-1", "p-ada", "3"),
        ("link-1", "p-bob", "1"),
        ("link-1", "p-dee", "0"),
        ("link-2", "p-ada", "1"),
    ]
    assert whole_course[-1]["last_mistake"] == "nothing"


def test_each_check_names_its_exercise_and_the_csv_counts_a_learner_in_each(database):
    """A learner's Checks of two exercises in one activity (a course page's, whose activity is empty):
    each line names its exercise, its groups and its mistake by that exercise's names; the CSV has a row
    for each exercise, counted apart."""
    ops = {"a*b": (True, None), "a+a": (False, "assign")}
    with database.connect() as conn:
        opened(conn, "ada", activity="", when=T0)
        in_ops = {"activity": "", "exercise": "ops", "rule": "all"}
        checked(conn, "ada", "v1", passed=False, mistake="assign", expressions=ops, when=T0 + 1, **in_ops)
        checked(conn, "ada", "v2", passed=True, when=T0 + 2, **in_ops)
        checked(conn, "ada", "b1", passed=False, mistake="reversed", activity="", when=T0 + 3)
        lines = [json.loads(text) for text in jsonl(attempt_rows(conn, activity=""))]
        rows = list(csv.DictReader(io.StringIO("".join(learners_csv(conn, ISSUER, "course-1", "")))))
    validator = Draft202012Validator(schema())
    assert all(validator.is_valid(each) for each in lines)
    assert [(e["exercise"], e["rule"], e["passed"], e["mistake"]) for e in lines] == [
        ("ops", "all", False, "assign"),
        ("ops", "all", True, None),
        ("backward", "seed", False, "reversed"),
    ]
    assert lines[0]["expressions"] == {
        "a*b": {"passed": True, "mistake": None},
        "a+a": {"passed": False, "mistake": "assign"},
    }
    counted = [
        (r["exercise"], r["checks"], r["passed"], r["checks_to_first_pass"], r["last_mistake"]) for r in rows
    ]
    assert sorted(counted) == [("backward", "1", "false", "", "reversed"), ("ops", "2", "true", "2", "")]
    assert {r["learner"] for r in rows} == {"p-ada"}


def test_the_command_prints_the_export_as_json_lines_all_or_by_course_and_activity(database, tmp_path):
    with database.connect() as conn:
        a_class(conn)
    app = create_app({"TESTING": True, "DATABASE_URL": database.url})
    if "db" not in app.extensions:  # until create_app opens the database itself (server/db)
        open_database(app)
    runner = app.test_cli_runner()

    def exported(*args: str) -> list[dict]:
        done = runner.invoke(args=["lti", "export-attempts", *args])
        assert done.exit_code == 0, done.output
        assert done.output.endswith("\n") or done.output == ""
        return [json.loads(text) for text in done.output.splitlines()]

    everything = exported()
    assert len(everything) == 6 and all(Draft202012Validator(schema()).is_valid(e) for e in everything)
    assert [e["sub"] for e in exported("--course", "course-2")] == ["cy"]
    assert [e["activity"] for e in exported("--course", "course-1", "--activity", "link-2")] == ["link-2"]
    assert exported("--course", "no-such-course") == []


def test_the_schema_is_served_beside_the_page_contracts(client):
    served = client.get("/schema/attempt.json")
    assert served.status_code == 200
    assert served.get_json() == json.loads(json.dumps(schema()))
    Draft202012Validator.check_schema(served.get_json())
    assert all(field["description"] for field in served.get_json()["properties"].values())


def test_the_command_without_records_says_which_settings_keep_them():
    app = create_app({"TESTING": True})  # no LTI, no learner tokens: no records, no database
    done = app.test_cli_runner().invoke(args=["lti", "export-attempts"])
    assert done.exit_code == 1
    assert "no records here: they are kept with PLAYGROUND_LTI=1 or a learner token setting" in done.output


def test_no_cell_of_the_learners_csv_reads_as_a_formula_pseudonym_and_sub_included(database):
    """A pseudonym is URL-safe base64 (1 in 64 starts with `-`), a sub and a resource link's id are the
    LMS's own text: every cell that would start a formula (=, +, -, @, tab, CR) gets a `'` in front."""
    with database.connect() as conn:
        opened(conn, "=1+2", learner="-Zk3v9QxWm0a", name="@SUM(A1)", activity="+link", when=T0)
        opened(conn, "\tsub", learner="\rp", name="-Eve", activity="+link", when=T0 + 1)
        opened(conn, "plain", learner="p-plain", name="Ann", activity="+link", when=T0 + 2)
        checked(conn, "=1+2", "x", passed=False, mistake="syntax", activity="+link", when=T0 + 3)
        rows = list(csv.DictReader(io.StringIO("".join(learners_csv(conn, ISSUER, "course-1", "+link")))))
    said = [(r["activity"], r["learner"], r["sub"], r["name"]) for r in rows]
    assert said == [
        ("'+link", "'-Zk3v9QxWm0a", "'=1+2", "'@SUM(A1)"),
        ("'+link", "'\rp", "'\tsub", "'-Eve"),
        ("'+link", "p-plain", "plain", "Ann"),
    ]
    assert (rows[0]["checks"], rows[0]["last_mistake"]) == ("1", "syntax")


def test_a_json_line_holds_no_character_a_line_reader_splits_on(database):
    """U+2028, U+2029 and U+0085 (JavaScript's and Python's str.splitlines' line ends) in a source or a
    name the LMS gave are escaped, as every other control character is: one Check, one line, whatever
    reads it; and json.loads gives the text back as it was."""
    source = "def backward(out):\n    pass  # \u2028a\u2029b\u0085c\x1c\n"
    with database.connect() as conn:
        opened(conn, "s\u2028ub", when=T0)
        checked(conn, "s\u2028ub", source, passed=False, mistake="nothing", when=T0 + 1)
        checked(conn, "s\u2028ub", solutions.CORRECT, passed=True, expressions=RIGHT, when=T0 + 2)
        text = "".join(jsonl(attempt_rows(conn)))
    assert len(text.splitlines()) == 2 and text.count("\n") == 2
    assert not any(ch in text for ch in "\u2028\u2029\u0085\x1c")
    first = json.loads(text.splitlines()[0])
    assert (first["source"], first["sub"]) == (source, "s\u2028ub")
    assert "ü" in "".join(jsonl([{"name": "ü"}]))  # other text stays UTF-8 as it is
