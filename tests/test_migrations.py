"""The database grows with Alembic's migrations (server/db/migrations/): a database main made (before
Alembic) is brought up to date in place with nothing lost, a fresh one goes straight to the newest
revision, and either way the schema is server/db/tables.py's, on SQLite and on a real PostgreSQL."""

import hmac
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, insert, inspect, select, text

from server import ROOT, create_app
from server.classview.stats import class_summary, learner_row, timeline
from server.db import Database, NewerDatabase, alembic_config, database, engine_url, head
from server.db.tables import attempts, learners, metadata, results, rosters
from server.keys.private import b64url
from server.lti.store import Store
from server.lti.tool import ToolKeys
from server.records.pseudonyms import remake_old
from tests.support.main_database import KEPT_PASSBACKS, MAIN_ROWS, made_by_main, rows
from tests.support.postgres import database_on


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def empty_url(request, tmp_path):
    """An empty database of each kind the playground takes: a SQLite file, or a real PostgreSQL's."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lti.sqlite3'}"
        return
    with database_on(request.getfixturevalue("postgres")) as url:
        yield url


def differences(db: Database) -> list:
    """What Alembic's autogenerate finds between the database's schema and server/db/tables.py's."""
    with db.engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), metadata)


def table_names(db: Database) -> set[str]:
    with db.engine.connect() as conn:
        return set(inspect(conn).get_table_names())


def test_a_fresh_database_goes_straight_to_the_newest_revision(empty_url):
    db = Database(empty_url)
    assert db.revision() == head() and differences(db) == []
    assert table_names(db) == set(metadata.tables) | {"alembic_version"}
    assert Database(empty_url).revision() == head()  # started again: nothing left to do


@pytest.mark.parametrize("version", [1, 2])
def test_a_database_main_made_is_brought_up_to_date_in_place_with_nothing_lost(empty_url, version):
    made_by_main(empty_url, version)
    db = Database(empty_url)  # the playground's start: stamped as main left it, then upgraded
    assert db.revision() == head() and differences(db) == []
    assert table_names(db) == set(metadata.tables) | {"alembic_version"}  # schema_migrations gone
    for table in ("registrations", "deployments", "once"):
        assert rows(empty_url, table, list(MAIN_ROWS[table][0])) == MAIN_ROWS[table]
    added = ["context_id", "teacher", "forgotten", "learner", "activity_title"]
    launches = rows(empty_url, "launches", [*MAIN_ROWS["launches"][0], *added])
    before = {
        "context_id": None,
        "teacher": False,
        "forgotten": None,
        "learner": True,
        "activity_title": None,
    }
    assert launches == sorted(({**r, **before} for r in MAIN_ROWS["launches"]), key=lambda r: r["id"])
    kept = [r for r in MAIN_ROWS["passbacks"] if r["jti"] in KEPT_PASSBACKS]  # 0002's clean-up, or main's
    status = None if version == 1 else 400
    assert rows(empty_url, "passbacks", [*MAIN_ROWS["passbacks"][0], "status"]) == [
        r | {"status": status} for r in kept
    ]

    store = Store(db)  # the LTI state works on as before: one score per launch
    assert sorted(store.due(now=None)) == ["c", "e"] and store.passback("a")["state"] == "sent"
    assert store.add_passback("f", "queued-once", 1, 1, "t") is False  # one on its way already
    assert store.add_passback("g", "sent-once", 1, 1, "t") is False  # sent already
    assert store.launch("sent-once")["ags"] == {"lineitem": "https://lms.example/lineitems/1"}
    assert store.launch("sent-once")["forgotten"] is None  # 0006: no launch of before is forgotten
    with db.connect() as conn:  # and the class view's tables take records
        attempt = {"issuer": "https://lms.example", "course": "context", "activity": "link", "sub": "sub"}
        attempt |= {"time": 1.0, "source": "def backward(out): ...", "source_sha256": "s"}
        attempt |= {"shape_sha256": "h", "rule": "seed", "state": "queued"}
        attempt_id = conn.execute(insert(attempts).values(attempt)).inserted_primary_key[0]
        conn.execute(insert(results).values(attempt_id=attempt_id, expr="tanh", passed=True))
        assert conn.execute(select(results.c.passed)).scalar() is True
        roster = {"issuer": "https://lms.example", "course": "context", "activity": "link"}  # and rosters
        conn.execute(insert(rosters).values(roster | {"members": "[]", "fetched": 1.0, "tried": 1.0}))
        assert conn.execute(select(rosters.c.claimed_until)).scalar() == 0  # no fetch under way


def test_launches_before_0006_count_as_the_class_unless_a_teachers(empty_url):
    """0006 adds whether a launch counts as the class: those made before it count as they were counted
    then (a learner's did, a teacher's did not); their activity's title is unknown."""
    db = Database(empty_url, migrate=False)
    config = alembic_config()
    with db.engine.connect() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0005")
        conn.commit()
    launch = {"client_id": "c", "deployment_id": "d", "resource_link_id": "link", "course": "ML 101"}
    launch |= {"created": 1.0, "context_id": "course-1"}
    with db.engine.connect() as conn:
        for launch_id, teacher in (("learner-launch", False), ("teacher-launch", True)):
            values = {**launch, "id": launch_id, "issuer": "https://lms.example", "sub": launch_id}
            row = values | {"teacher": teacher}  # the columns 0005 knows, not tables.py's
            names = ", ".join(row)
            conn.execute(text(f"INSERT INTO launches ({names}) VALUES (:{', :'.join(row)})"), row)
        conn.commit()
    db.engine.dispose()
    upgraded = Database(empty_url)
    assert upgraded.revision() == head() and differences(upgraded) == []
    store = Store(upgraded)
    assert (store.launch("learner-launch")["learner"], store.launch("teacher-launch")["learner"]) == (
        True,
        False,
    )
    assert store.launch("learner-launch")["activity_title"] is None


@pytest.mark.slow  # starts processes
def test_two_processes_starting_at_once_migrate_one_after_the_other(empty_url):
    """Two instances (or gunicorn's workers) start together on a database main made: one migrates, the
    other waits for it and finds nothing left to do; both start, and the schema is the newest."""
    made_by_main(empty_url, 1)
    start = time.time() + 3  # past both processes' imports: they open the database together
    code = (
        "import sys, time; from server.db import Database; "
        "time.sleep(max(0, float(sys.argv[1]) - time.time())); Database(sys.argv[2])"
    )
    starting = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(start), empty_url], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    errors = [process.communicate(timeout=120)[1] for process in starting]
    assert [process.returncode for process in starting] == [0, 0], errors
    db = Database(empty_url, migrate=False)
    assert db.revision() == head() and differences(db) == []
    assert rows(empty_url, "passbacks", ["jti"]) == [{"jti": jti} for jti in KEPT_PASSBACKS]


def test_the_db_commands_say_the_revision_and_upgrade(tmp_path):
    url = f"sqlite:///{tmp_path / 'lti.sqlite3'}"
    made_by_main(url, 2)
    runner = create_app({"TESTING": True, "DATABASE_URL": url}).test_cli_runner()
    said = runner.invoke(args=["db", "current"]).output
    assert said == (
        "The database is at 0002, made before Alembic (schema_migrations); "
        f"the newest revision is {head()}: the playground upgrades it at start.\n"
    )
    assert runner.invoke(args=["db", "upgrade"]).output == f"The database is at {head()}.\n"
    assert runner.invoke(args=["db", "current"]).output == (
        f"The database is at {head()}, the newest revision: up to date.\n"
    )


def at_revision(url: str, revision: str) -> None:
    """Make an empty database as the playground left it at a revision (Alembic's upgrade to there)."""
    engine = create_engine(engine_url(url))
    with engine.connect() as conn:
        config = alembic_config()
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
        conn.commit()
    engine.dispose()


def test_the_checks_recorded_before_their_bounds_are_kept_each_with_the_bytes_of_its_code(empty_url):
    """0006_bounds: a database at 0005 with Checks keeps each, its code and results as they were, and
    counts the UTF-8 bytes of its code (a character of four bytes is four); a Check may then keep no code."""
    at_revision(empty_url, "0005")
    sources = ["def backward(out): ...", "# \U0001f600 é\ndef backward(out): pass"]
    engine = create_engine(engine_url(empty_url))
    with engine.connect() as conn:
        for n, source in enumerate(sources):
            attempt = {"issuer": "https://lms.example", "course": "c", "activity": "a", "sub": "s"}
            attempt |= {"time": float(n), "source": source, "source_sha256": f"s{n}", "shape_sha256": "h"}
            conn.execute(insert(attempts).values(attempt | {"rule": "seed", "state": "judged"}))
        conn.execute(insert(results).values(attempt_id=2, expr="neuron", passed=False, mistake="reversed"))
        conn.commit()
    engine.dispose()
    db = Database(empty_url)
    assert db.revision() == head() and differences(db) == []
    with db.connect() as conn:
        kept = conn.execute(select(attempts.c.source, attempts.c.source_bytes).order_by(attempts.c.id)).all()
        assert [tuple(r) for r in kept] == [(sources[0], 22), (sources[1], 33)]
        assert conn.execute(select(results.c.attempt_id, results.c.mistake)).all() == [(2, "reversed")]
        attempt = {"issuer": "i", "course": "c", "activity": "a", "sub": "s", "time": 3.0, "source": None}
        attempt |= {"source_sha256": "x", "shape_sha256": "h", "rule": "seed", "state": "skipped"}
        conn.execute(insert(attempts).values(attempt))  # a row kept without its code
    db.engine.dispose()


def test_pseudonyms_made_before_0010_are_remade_per_course_at_start_and_still_read_their_checks(
    empty_url, tmp_path
):
    """0011_pseudo: a database at 0009 whose learner has the pseudonym that was one for every course of
    the LMS (in two courses, and a Check in one): at the playground's start she has her pseudonym in each
    course, two, by which the class view reads her Check; the old one is gone; a second start remakes none."""
    at_revision(empty_url, "0009_small")
    issuer, key_file = "https://lms.example", tmp_path / "lti-tool-key.pem"
    keys = ToolKeys(key_file)  # the key the playground then starts with
    old = b64url(hmac.digest(keys.secret("learner"), f"{issuer}\nada".encode(), "sha256")[:12])  # 0009's
    now = time.time()  # recent: kept at start
    engine = create_engine(engine_url(empty_url))
    with engine.connect() as conn:
        for course in ("course-1", "course-2"):
            row = {"issuer": issuer, "course": course, "activity": "link-1", "sub": "ada", "learner": old}
            row |= {"name": None, "opened": now, "last_opened": now}  # the columns 0009 knows
            conn.execute(text(f"INSERT INTO learners ({', '.join(row)}) VALUES (:{', :'.join(row)})"), row)
        attempt = {"issuer": issuer, "course": "course-1", "activity": "link-1", "sub": "ada", "time": now}
        attempt |= {"source": "def backward(out): ...", "source_sha256": "s", "shape_sha256": "h"}
        conn.execute(insert(attempts).values(attempt | {"rule": "seed", "state": "judged", "passed": True}))
        conn.commit()
    engine.dispose()
    config = {"TESTING": True, "VERIFY": True, "LTI": True, "DATABASE_URL": empty_url, "QUEUE_WORKERS": 0}
    config |= {"LTI_KEY_FILE": str(key_file), "SIGNING_KEY_FILE": str(tmp_path / "signing-key.pem")}
    app = create_app(config)
    with app.app_context(), database().connect() as conn:
        kept = dict(conn.execute(select(learners.c.course, learners.c.learner)).all())
        assert kept == {course: keys.learner_id(issuer, course, "ada") for course in ("course-1", "course-2")}
        assert len(set(kept.values())) == 2 and old not in kept.values()
        checks = timeline(conn, issuer, "course-1", "link-1", kept["course-1"])
        assert [(c["time"], c["passed"]) for c in checks] == [(now, True)]
        assert remake_old(conn) == 0  # what a second start finds
    app.extensions["db"].engine.dispose()


FUTURE = "0099_from_a_newer_playground"  # a revision no migration here makes
NEWER = (
    "Error: the database (PLAYGROUND_DATABASE_URL's) was made by a newer version of the playground"
    f" (its revision {FUTURE} is not one this version knows; the newest here is {head()}): run that"
    " version, or restore the backup of the database taken before it was upgraded.\n"
)


def made_by_a_newer_playground(url: str) -> None:
    """A database as a newer playground leaves it: the newest schema here, stamped with a later revision."""
    db = Database(url)
    with db.engine.connect() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": FUTURE})
        conn.commit()
    db.engine.dispose()


def test_a_database_a_newer_playground_made_is_refused_and_left_as_it_is(empty_url):
    made_by_a_newer_playground(empty_url)
    with pytest.raises(NewerDatabase) as refused:
        Database(empty_url)
    assert f"Error: {refused.value}\n" == NEWER
    assert Database(empty_url, migrate=False).revision() == FUTURE  # nothing touched


def started(args: list[str], env: dict) -> subprocess.CompletedProcess:
    """A server or a command run as a host runs it, from the environment; it must stop by itself."""
    done = subprocess.run(
        args, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.slow  # starts server processes (flask run, gunicorn: 4 workers), 5 commands: not test-fast
def test_a_newer_database_stops_the_server_and_every_command_with_one_line(empty_url, tmp_path):
    """`flask run`, gunicorn with `make production`'s 4 processes and the `flask` commands (with records
    on, and the commands that open the database themselves): each stops with the one line, no traceback."""
    made_by_a_newer_playground(empty_url)
    bin_folder = Path(sys.executable).parent
    flask = [str(bin_folder / "flask"), "--app", "server"]
    settings = {
        "PLAYGROUND_DATABASE_URL": empty_url,
        "PLAYGROUND_INSTANCE_PATH": str(tmp_path),
        "PLAYGROUND_OFFLINE": "0",
    }
    records_on = settings | {"PLAYGROUND_LEARNER_TOKEN_SECRET": "a course's secret, 32 bytes or more!!"}
    for args in (
        [*flask, "run", "--port", "0"],
        [str(bin_folder / "gunicorn"), "--workers", "4", "--threads", "4", "--bind", "127.0.0.1:0"]
        + ["--no-control-socket", "server:create_app()"],
        [*flask, "db", "current"],
        [*flask, "lti", "export-attempts"],
    ):
        done = started(args, records_on)
        said = done.stderr.splitlines(keepends=True)
        # once: gunicorn's master says it before any worker starts (gunicorn.conf.py)
        assert said.count(NEWER) == 1 and set(said) - {NEWER} <= set(gunicorn_lines(said)), done.stderr
    for args in (  # records off: these commands open the database themselves
        [*flask, "db", "current"],
        [*flask, "db", "upgrade"],
        [*flask, "lti", "add-platform", "--issuer", "https://lms.example", "--client-id", "c"]
        + ["--deployment-id", "d", "--auth-login-url", "https://lms.example/a"]
        + ["--auth-token-url", "https://lms.example/t", "--key-set-url", "https://lms.example/k"],
    ):
        assert started(args, settings).stderr == NEWER, args
    assert Database(empty_url, migrate=False).revision() == FUTURE


def gunicorn_lines(lines: list[str]) -> list[str]:
    """gunicorn's own log lines ([date] [pid] [LEVEL] ...): its start, the worker that failed to boot, its
    stop."""
    return [each for each in lines if re.match(r"\[[^]]+\] \[\d+\] \[[A-Z]+\] ", each)]


def test_0010_adds_the_note_of_whose_records_were_deleted_and_a_delete_writes_it(empty_url):
    """A database at 0009 gains forgotten_learners (empty: a delete made before left no note); a delete
    from here notes the learner's pseudonym and when, and nothing of a learner who had no records."""
    from server.db.tables import forgotten_learners, learners
    from server.records.retention import forgetting

    db = Database(empty_url, migrate=False)
    config = alembic_config()
    with db.engine.connect() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0009_small")
        conn.commit()
    assert "forgotten_learners" not in table_names(db)
    db.engine.dispose()
    upgraded = Database(empty_url)
    assert upgraded.revision() == head() and differences(upgraded) == []
    with upgraded.connect() as conn:
        assert conn.execute(select(forgotten_learners)).all() == []
        row = {"issuer": "https://lms.example", "course": "course-1", "activity": "link", "sub": "s1"}
        conn.execute(insert(learners).values(row | {"learner": "Pabc", "opened": 1.0, "last_opened": 1.0}))
        forgetting(conn, "https://lms.example", "course-1", "Pabc")
        forgetting(conn, "https://lms.example", "course-1", "Pnobody")
        noted = conn.execute(select(forgotten_learners)).mappings().all()
    assert [(n["issuer"], n["course"], n["learner"]) for n in noted] == [
        ("https://lms.example", "course-1", "Pabc")
    ]
    assert time.time() - noted[0]["forgotten"] < 60


def test_0012_names_every_launch_and_check_made_before_the_seeds_and_the_class_view_is_unchanged(empty_url):
    """0012_exercise: a database as today's main leaves it (0011_pseudo), with a launch, a learner, Checks
    and their results, upgrades in place: each launch and Check is the seed's exercise's (`backward`),
    nothing else changes, and the class view reads the same summary, row and timeline as before."""
    at_revision(empty_url, "0011_pseudo")
    issuer, course, activity, now = "https://lms.example", "course-1", "link-1", time.time()
    engine = create_engine(engine_url(empty_url))
    with engine.connect() as conn:  # the columns 0011 knows, not tables.py's
        launch = {"id": "launch-1", "issuer": issuer, "client_id": "c", "deployment_id": "d", "sub": "ada"}
        launch |= {"resource_link_id": activity, "course": "ML 101", "created": now, "context_id": course}
        names = ", ".join(launch)
        conn.execute(text(f"INSERT INTO launches ({names}) VALUES (:{', :'.join(launch)})"), launch)
        row = {"issuer": issuer, "course": course, "activity": activity, "sub": "ada", "learner": "Pada"}
        row |= {"per_course": True, "opened": now, "last_opened": now}
        conn.execute(text(f"INSERT INTO learners ({', '.join(row)}) VALUES (:{', :'.join(row)})"), row)
        for n, (passed, mistake) in enumerate([(False, "reversed"), (False, "out-grad"), (True, None)]):
            attempt = {"issuer": issuer, "course": course, "activity": activity, "sub": "ada"}
            attempt |= {"time": now + n, "source": f"def backward(out): {n}", "source_bytes": 20}
            attempt |= {"source_sha256": f"s{n}", "shape_sha256": f"h{n}", "rule": "seed", "state": "judged"}
            attempt |= {"passed": passed, "mistake": mistake, "judged": now + n}
            names = ", ".join(attempt)
            attempt_id = conn.execute(
                text(f"INSERT INTO attempts ({names}) VALUES (:{', :'.join(attempt)}) RETURNING id"), attempt
            ).scalar()
            for expr in ("neuron", "reuse", "chain"):
                result = {"attempt_id": attempt_id, "expr": expr, "passed": passed, "mistake": mistake}
                into = "INSERT INTO results VALUES (:attempt_id, :expr, :passed, :mistake)"
                conn.execute(text(into), result)
        conn.commit()
    engine.dispose()

    def class_view(db: Database, exercise: str | None = "backward") -> tuple:
        with db.connect() as conn:
            return (
                class_summary(conn, issuer, course, activity, exercise),
                learner_row(conn, issuer, course, activity, "Pada", exercise),
                timeline(conn, issuer, course, activity, "Pada", exercise),
            )

    before = class_view(Database(empty_url, migrate=False), None)  # as it was read before: no exercise
    columns = ["id", "issuer", "course", "activity", "sub", "time", "source", "state", "passed", "mistake"]
    attempts_before = rows(empty_url, "attempts", columns)
    upgraded = Database(empty_url)
    assert upgraded.revision() == head() and differences(upgraded) == []
    assert rows(empty_url, "launches", ["id", "exercise"]) == [{"id": "launch-1", "exercise": "backward"}]
    assert rows(empty_url, "attempts", ["id", "exercise"]) == [
        {"id": r["id"], "exercise": "backward"} for r in attempts_before
    ]
    assert rows(empty_url, "attempts", columns) == attempts_before  # nothing else changed
    assert class_view(upgraded) == before and len(before[2]) == 3
    with upgraded.connect() as conn:  # the indexes the class view and the judge read name the exercise
        indexes = {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("attempts")}
    assert indexes["attempts_of_source"] == ["source_sha256", "exercise", "rule"]
    assert indexes["attempts_of_activity"][:5] == ["issuer", "course", "activity", "exercise", "time"]
    assert indexes["attempts_counted"][3:5] == ["exercise", "sub"]
    upgraded.engine.dispose()
