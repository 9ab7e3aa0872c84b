"""The class view through the tests' LMS (lti1p3platform): who gets it, that it shows one course's
activity only, its pages and headers; and the refusals (a learner, a forged or expired token, a teacher of
another course or of another LMS).

The records are written straight into the tool's database (tests/support/classes.py): course 1's link-1
holds the counted class, course 2's link-1 two learners of its own, another LMS the same ids.
"""

import csv
import html
import io
import json
import re
import time
import types
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from sqlalchemy import select, update

from server.classview import kept
from server.classview.kept import Roster
from server.classview.token import teacher_token
from server.db import Database
from server.db.tables import attempts
from server.lti.claims import RESOURCE_LINK
from server.lti.store import Store
from server.lti.tool import ToolKeys
from tests.support import servers
from tests.support.class_records import source_sha256
from tests.support.classes import DAY, START, Learner, build, counted_class, timed
from tests.support.lti import launch_form, login
from tests.support.lti_launches import LAUNCH_TOKEN, launched, launched_link
from tests.support.lti_platform import CLIENT_ID

pytestmark = pytest.mark.slow  # a real LMS and the tool served over HTTPS

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
INSTRUCTOR = MEMBERSHIP + "#Instructor"
OTHER_LMS = "https://other-lms.example"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
ROSTER_URL = "https://lms.example/roster/course-1"


@pytest.fixture(scope="module")
def school(lms):
    """The LMS with its classes' records in the tool's database, and its teachers."""
    database = Database(lms.database_url)
    with database.connect() as conn:
        build(conn, lms.issuer, "course-1", "link-1", counted_class())
        late = START + 3 * DAY
        build(
            conn,
            lms.issuer,
            "course-2",
            "link-1",
            [Learner("zed", timed(["reversed"] * 3, late), "Zed Zorn")],
        )
        build(conn, lms.issuer, "course-2", "link-1", [Learner("yan", timed([None], late))])
        build(
            conn,
            OTHER_LMS,
            "course-1",
            "link-1",
            [Learner("wim", timed(["out-grad"] * 3, late), "Wim Other")],
        )
    database.engine.dispose()
    other = {"issuer": OTHER_LMS, "client_id": "x", "title": "Another LMS"}  # its teachers' tokens' LMS
    other |= dict.fromkeys(("auth_login_url", "auth_token_url", "key_set_url"), OTHER_LMS + "/")
    Store(Database(lms.database_url)).add_platform(other, None)
    lms.platform.people.update(
        {
            "teacher-1": {"roles": [INSTRUCTOR], "name": "Tess Teacher"},
            "teacher-2": {"roles": [INSTRUCTOR], "course": ("course-2", "Deep Learning 201")},
            "ta-canvas": {"roles": [INSTRUCTOR, MEMBERSHIP + "/Instructor#TeachingAssistant"]},
            "ta-only": {"roles": [MEMBERSHIP + "/Instructor#TeachingAssistant"]},
            "short-instructor": {"roles": ["Instructor"]},
            "course-admin": {"roles": [MEMBERSHIP + "#Administrator"]},
            # A learner and a site's administrator, launched into a course of their own: the counted class
            # (course-1) stays as built, whichever test runs first.
            "learner-9": {"course": ("course-9", "Other course")},
            "site-admin": {
                "roles": ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"],
                "course": ("course-9", "Other course"),
            },
            "lehrerin": {"roles": [INSTRUCTOR], "locale": "de-DE"},
            "teacher-nrps": {
                "roles": [INSTRUCTOR],
                "claims": {NRPS: {"context_memberships_url": ROSTER_URL}},
            },
        }
    )
    return lms


def launch(lms, user: str) -> requests.Response:
    """The launch as user, its redirects followed (a teacher's: to the class view)."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, user))
    return session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)


def token_of(page: requests.Response) -> str:
    return parse_qs(urlsplit(page.url).query)["t"][0]


def get(lms, path: str, **params) -> requests.Response:
    return requests.get(lms.tool_url + path, params=params, verify=lms.ca_file)


def shown(page: requests.Response, testid: str) -> str:
    return re.search(rf'data-testid="{testid}">([^<]*)<', page.text)[1]


def tool_keys(lms) -> ToolKeys:
    return ToolKeys(Path(lms.folder) / "lti-tool-key.pem")


def test_a_teachers_launch_opens_the_class_view_of_their_course_and_activity(school):
    page = launch(school, "teacher-1")
    assert page.status_code == 200 and "/lti/class/" in page.url
    assert [shown(page, k) for k in ("opened", "tried", "passed", "checks")] == ["12", "11", "6", "33"]
    assert "Machine Learning 101" in page.text
    assert "Ana Alves" in page.text and "Fay Fischer" in page.text  # names the LMS shared
    assert Learner("ben").learner in page.text  # no name shared: the pseudonym
    assert "Zed Zorn" not in page.text and "Wim Other" not in page.text  # course 2's, the other LMS's
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
    assert "form-action 'self'" in page.headers["Content-Security-Policy"]
    assert LAUNCH_TOKEN.search(page.text) is None  # not the exercise


@pytest.mark.parametrize("user", ["ta-canvas", "ta-only", "short-instructor", "course-admin"])
def test_teaching_assistants_and_the_courses_administrators_get_it_too(school, user):
    page = launch(school, user)
    assert "/lti/class/" in page.url and shown(page, "opened") == "12"


@pytest.mark.parametrize("user", ["learner-9", "site-admin"])
def test_a_learner_and_a_site_role_get_the_exercise_and_nothing_of_the_class_view(school, user):
    """A site's administrator is no member of the course: the roles read are membership roles only."""
    session, token = launched(school, user)
    assert token
    for path in ("lti/class/", f"lti/class/learner/{Learner('ana').learner}"):
        refused = session.get(school.tool_url + path, params={"t": token}, verify=school.ca_file)
        assert refused.status_code == 403 and "Ana" not in refused.text


def test_the_teacher_of_another_course_sees_their_own_only(school):
    page = launch(school, "teacher-2")
    assert [shown(page, k) for k in ("opened", "tried", "passed", "checks")] == ["2", "2", "1", "4"]
    assert "Zed Zorn" in page.text and "Ana Alves" not in page.text
    token = token_of(page)
    for learner in ("ana", "ben"):  # course 1's learners: not found with course 2's token
        missing = get(school, f"lti/class/learner/{Learner(learner).learner}", t=token)
        assert missing.status_code == 404 and "No such learner in this class" in missing.text
        assert get(school, f"lti/class/learner/{Learner(learner).learner}/delete", t=token).status_code == 404


def test_the_teacher_of_another_lms_with_the_same_course_id_sees_its_own_only(school):
    """A launch from another LMS names its own issuer: the same context and link ids show its records only."""
    view = {"issuer": OTHER_LMS, "course": "course-1", "activity": "link-1", "client_id": "x"}
    page = get(school, "lti/class/", t=teacher_token(tool_keys(school), view, 600))
    assert [shown(page, k) for k in ("opened", "tried", "passed", "checks")] == ["1", "1", "0", "3"]
    assert "Wim Other" in page.text and "Ana Alves" not in page.text


def test_a_forged_altered_or_expired_token_gets_a_403_page(school):
    good = token_of(launch(school, "teacher-1"))
    header, claims, signature = good.split(".")
    view = {"issuer": school.issuer, "course": "course-1", "activity": "link-1", "client_id": "x"}
    other_key = ToolKeys(Path(school.folder) / "another-key.pem")
    for token in (
        "",
        "nonsense",
        f"{header}.{claims}.{signature[:-4]}AAAA",  # the signature altered
        teacher_token(other_key, view, 600),  # signed by another key
        teacher_token(tool_keys(school), view, -60),  # expired
    ):
        page = get(school, "lti/class/", t=token)
        assert page.status_code == 403, token
        assert "This class view is not open to you" in page.text and "Ana" not in page.text
        assert page.headers["Cache-Control"] == "no-store"
    assert get(school, "lti/class/").status_code == 403  # no token at all


def test_a_learners_timeline_and_one_click_back_to_the_class_and_to_the_exercise(school):
    page = launch(school, "teacher-1")
    token = token_of(page)
    link = re.search(r'<a href="([^"]*)">Cem Çelik</a>', page.text)[1]  # the class's link to cem's Checks
    assert link.startswith(f"/lti/class/learner/{Learner('cem').learner}?")
    cem = requests.get(school.tool_url.rstrip("/") + html.unescape(link), verify=school.ca_file)
    assert cem.status_code == 200 and "Cem Çelik" in cem.text
    assert cem.text.count('data-testid="verdict"') == 3
    assert "+    queue, seen = deque([out]), {out}" in cem.text  # what changed from the Check before
    assert f"/lti/class/?t={token}" in cem.text  # back to the class, with the token
    exercise = re.search(r'href="([^"]*)" data-testid="to-exercise"', page.text)[1]
    tried = requests.get(school.tool_url.rstrip("/") + html.unescape(exercise), verify=school.ca_file)
    assert tried.status_code == 200 and 'id="editor"' in tried.text
    record = {"source": "x = 1", "launch": LAUNCH_TOKEN.search(tried.text)["token"]}
    recorded = requests.post(school.tool_url + "record", json=record, verify=school.ca_file)
    assert recorded.status_code == 204  # the teacher's Checks there: not recorded


def test_deleting_asks_first_and_needs_the_token(school):
    token = token_of(launch(school, "teacher-1"))
    dora = Learner("dora").learner
    confirm = get(school, f"lti/class/learner/{dora}/delete", t=token)
    assert (
        confirm.status_code == 200 and 'method="post"' in confirm.text and f'value="{token}"' in confirm.text
    )
    refused = requests.post(school.tool_url + f"lti/class/learner/{dora}/delete", verify=school.ca_file)
    assert refused.status_code == 403


def test_the_class_view_in_german_when_the_lms_says_so_and_it_says_whose_language_it_is(school):
    page = launch(school, "lehrerin")
    assert '<html lang="de">' in page.text and "Klassenansicht" in page.text
    assert "Diese Ansicht ist in der Sprache, die Ihr LMS für Sie angibt" in page.text
    page = launch(school, "teacher-1")  # their LMS sent no locale
    assert "Your LMS gave no language for you: this view is in the server's or your browser's." in page.text


@pytest.fixture
def roster(monkeypatch):
    """The LMS's roster as the class view would find it kept (kept.roster_of): set .answer; .asked has each
    call's view's LMS, client, memberships URL and activity."""
    lms = types.SimpleNamespace(answer=Roster(), asked=[])

    def kept_roster(view):
        lms.asked.append((view["issuer"], view["client_id"], view["memberships"], view["activity"]))
        return lms.answer

    monkeypatch.setattr(kept, "roster_of", kept_roster)
    return lms


def test_the_roster_names_who_has_not_opened_it_and_names_those_the_launch_did_not(school, roster):
    learner = [MEMBERSHIP + "#Learner"]
    roster.answer = Roster(
        [
            {"sub": "ana", "name": None, "roles": learner},
            {"sub": "ben", "name": "Ben Brandt", "roles": learner},  # his launches shared no name
            {"sub": "nina", "name": "Nina Neu", "roles": learner},
            {"sub": "pat", "name": None, "roles": ["Learner"]},
            {"sub": "teacher-nrps", "name": "Tina Teacher", "roles": [INSTRUCTOR]},
        ],
        fetched=START,
    )
    page = launch(school, "teacher-nrps")
    assert roster.asked == [(school.issuer, "playground-client", ROSTER_URL, "link-1")]
    assert shown(page, "waiting-count") == "2"
    waiting = re.search(r'<ul class="waiting" data-testid="waiting">(.*?)</ul>', page.text, re.S)[1]
    assert "Nina Neu" in waiting and tool_keys(school).learner_id(school.issuer, "course-1", "pat") in waiting
    assert "Tina Teacher" not in page.text and "Ana Alves" not in waiting
    assert "Ben Brandt" in page.text and f">{Learner('ben').learner}<" not in page.text  # in links only


def test_a_roster_that_cannot_be_fetched_is_said_in_one_line_and_the_rest_is_shown(school, roster):
    roster.answer = Roster(error="the LMS answered 403 Forbidden")
    page = launch(school, "teacher-nrps")
    assert "the LMS answered 403 Forbidden" in shown(page, "roster-error")
    assert shown(page, "opened") == "12" and 'data-testid="waiting"' not in page.text


def test_deleting_a_learners_records_after_the_confirm_step(school):
    database = Database(school.database_url)
    with database.connect() as conn:
        build(conn, school.issuer, "course-3", "link-1", [Learner("gone", timed(["early"] * 2, START))])
    database.engine.dispose()
    view = {"issuer": school.issuer, "course": "course-3", "activity": "link-1", "client_id": CLIENT_ID}
    token = teacher_token(tool_keys(school), view, 600)
    gone = Learner("gone").learner
    answer = requests.post(
        school.tool_url + f"lti/class/learner/{gone}/delete", data={"t": token}, verify=school.ca_file
    )
    assert answer.status_code == 200 and "forgotten=1" in answer.url
    assert 'data-testid="forgotten"' in answer.text and shown(answer, "opened") == "0"
    assert get(school, f"lti/class/learner/{gone}", t=token).status_code == 404


def test_the_downloads_hold_the_activitys_checks_and_learners_only(school):
    token = token_of(launch(school, "teacher-1"))
    lines = get(school, "lti/class/checks.jsonl", t=token)
    assert lines.status_code == 200 and lines.headers["Cache-Control"] == "no-store"
    assert len(lines.text.splitlines()) == 33
    assert {json.loads(line)["course"] for line in lines.text.splitlines()} == {"course-1"}
    table = get(school, "lti/class/learners.csv", t=token)
    assert table.status_code == 200 and len(table.text.splitlines()) == 1 + 12
    assert get(school, "lti/class/checks.jsonl", t="forged").status_code == 403
    # each named by the course and the activity (its id: the tests' LMS sends the link no title)
    assert (
        lines.headers["Content-Disposition"]
        == 'attachment; filename="machine-learning-101-link-1-checks.jsonl"'
    )
    assert (
        table.headers["Content-Disposition"]
        == 'attachment; filename="machine-learning-101-link-1-learners.csv"'
    )


def test_a_downloads_name_keeps_a_titles_letters_for_browsers_that_read_them(school):
    school.platform.people["lehrer-umlaut"] = {
        "roles": [INSTRUCTOR],
        "course": ("course-1", "Maschinelles Lernen für Anfänger/innen: Übung"),
    }
    lines = get(school, "lti/class/checks.jsonl", t=token_of(launch(school, "lehrer-umlaut")))
    assert lines.headers["Content-Disposition"] == (
        'attachment; filename="maschinelles-lernen-fur-anfanger-innen-link-1-checks.jsonl"; '
        "filename*=UTF-8''maschinelles-lernen-f%C3%BCr-anf%C3%A4nger-innen-link-1-checks.jsonl"
    )


def test_the_roster_through_the_lms_names_and_roles_service(school):
    """End to end with the tests' LMS's roster (Names and Role Provisioning Services)."""
    learner = MEMBERSHIP + "#Learner"
    school.platform.members = [
        {"user_id": "cem", "roles": [learner], "name": "Cem Çelik"},
        {"user_id": "ben", "roles": [learner], "name": "Ben Brandt"},
        {"user_id": "nora", "roles": [learner], "name": "Nora Neu"},
        {"user_id": "teacher-lms", "roles": [INSTRUCTOR], "name": "Tom Teacher"},
    ]
    memberships = {
        "context_memberships_url": school.platform.url + "memberships",
        "service_versions": ["2.0"],
    }
    school.platform.people["teacher-lms"] = {"roles": [INSTRUCTOR], "claims": {NRPS: memberships}}
    page = launch(school, "teacher-lms")
    assert "being fetched" in shown(page, "roster-fetching")  # at once, the LMS asked meanwhile
    deadline = time.monotonic() + 30
    while 'data-testid="roster-fetching"' in page.text:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        page = requests.get(page.url, verify=school.ca_file)
    assert "UTC" in shown(page, "roster-fetched")
    assert shown(page, "waiting-count") == "1"
    waiting = re.search(r'<ul class="waiting" data-testid="waiting">(.*?)</ul>', page.text, re.S)[1]
    assert "Nora Neu" in waiting and "Tom Teacher" not in waiting
    assert "Ben Brandt" in page.text  # the roster's name, where his launches shared none


def test_with_no_names_shared_the_class_view_and_its_downloads_work_with_pseudonyms(school):
    """An LMS told to share no names (Moodle's "Share launcher's name with tool": Never, Canvas's privacy
    level anonymous): no launch names anyone, the teacher's neither; the class view counts and links each
    learner by their pseudonym, and learners.csv has their pseudonyms and no names."""
    database = Database(school.database_url)
    with database.connect() as conn:
        unnamed = [Learner("kim", timed(["reversed", None], START)), Learner("lou", timed(["early"], START))]
        build(conn, school.issuer, "course-anonymous", "link-1", unnamed)
    database.engine.dispose()
    school.platform.people["teacher-anonymous"] = {
        "roles": [INSTRUCTOR],
        "course": ("course-anonymous", "Anonymous 301"),
    }
    page = launch(school, "teacher-anonymous")
    assert page.status_code == 200 and "/lti/class/" in page.url
    assert [shown(page, k) for k in ("opened", "tried", "passed", "checks")] == ["2", "2", "1", "3"]
    kim, lou = Learner("kim").learner, Learner("lou").learner
    for learner in (kim, lou):  # each row's link says the pseudonym
        assert re.search(rf'<a href="[^"]*/lti/class/learner/{learner}[^"]*">{learner}</a>', page.text)
    token = token_of(page)
    timeline = get(school, f"lti/class/learner/{kim}", t=token)
    assert timeline.status_code == 200 and f"<h1>{kim}</h1>" in timeline.text
    table = get(school, "lti/class/learners.csv", t=token)
    rows = sorted((row["learner"], row["name"]) for row in csv.DictReader(io.StringIO(table.text)))
    assert rows == sorted([(kim, ""), (lou, "")])


def test_a_check_whose_code_was_not_kept_says_so_and_the_same_code_again_shows_it(school):
    """Past what the server keeps of one learner (server/records/quota.py), a Check keeps its row but
    not its code: its timeline says so, and shows no diff; a Check whose code was not kept again (the
    same as one kept before) shows that code."""
    kim = Learner("kim", timed(["reversed", "reversed", "out-grad"], START + 3 * DAY))
    database = Database(school.database_url)
    with database.connect() as conn:
        build(conn, school.issuer, "course-3", "link-1", [kim])
        ids = conn.execute(
            select(attempts.c.id, attempts.c.source)
            .where(attempts.c.course == "course-3")
            .order_by(attempts.c.id)
        ).all()
        kept = ids[0].source
        conn.execute(  # the second: the first's code again; the third: past the bytes
            update(attempts)
            .where(attempts.c.id == ids[1].id)
            .values(source=None, source_bytes=0, source_sha256=source_sha256(kept))
        )
        conn.execute(update(attempts).where(attempts.c.id == ids[2].id).values(source=None, source_bytes=0))
    database.engine.dispose()
    school.platform.people["teacher-3"] = {"roles": [INSTRUCTOR], "course": ("course-3", "Course 3")}
    page = launch(school, "teacher-3")
    link = re.search(rf'<a href="([^"]*/learner/{kim.learner}\?[^"]*)"', page.text)[1]
    timeline = requests.get(school.tool_url.rstrip("/") + html.unescape(link), verify=school.ca_file).text
    assert timeline.count('data-testid="verdict"') == 3
    assert timeline.count('data-testid="not-kept"') == 1
    assert "Its code was not kept: past what the server keeps of one learner." in timeline
    assert timeline.count(html.escape(kept, quote=False)) == 2  # the first's code, shown for the second
    assert "The same code as the Check before." in timeline


LONG_COURSE = "深層学習入門・誤差逆伝播法の演習" * 64  # 1,024 characters (the most a launch may give)
LONG_ACTIVITY = "ニューロンの勾配を計算する" * 154  # 2,002 characters, each 3 bytes of UTF-8


def test_long_non_latin_titles_stay_out_of_the_address_through_gunicorn(school, tmp_path):
    """A course and an activity with long Japanese titles (1,024 and 2,002 characters; in a signed token
    each character takes 8 bytes of the address): the class view's address and every link on it stay
    short (the titles are looked up from the launch, not carried in the token), so `make production`'s
    gunicorn (4 processes; a request line of 4,094 bytes at most) serves each page."""
    school.platform.people["teacher-long"] = {
        "roles": [INSTRUCTOR],
        "course": ("course-1", LONG_COURSE),
        "claims": {RESOURCE_LINK: {"id": "link-1", "title": LONG_ACTIVITY}},
    }
    session = requests.Session()
    form = launch_form(session, login(session, school, school.tool_url, "teacher-long"))
    answer = session.post(
        school.tool_url + "lti/launch", data=form, verify=school.ca_file, allow_redirects=False
    )
    assert answer.status_code == 303, answer.text[-1500:]
    where = urlsplit(answer.headers["Location"])
    address = f"{where.path}?{where.query}"
    env = {
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_LTI": "1",
        "PLAYGROUND_DATABASE_URL": school.database_url,
        "PLAYGROUND_LTI_KEY_FILE": str(Path(school.folder) / "lti-tool-key.pem"),
        "PLAYGROUND_SIGNING_KEY_FILE": str(Path(school.folder) / "signing-key.pem"),
        "PLAYGROUND_INSTANCE_PATH": str(tmp_path),
        "PLAYGROUND_OFFLINE": "0",
        "PLAYGROUND_QUEUE_WORKERS": "0",
    }
    with servers.gunicorn(workers=4, threads=4, env=env) as base:
        page = requests.get(base.rstrip("/") + address, timeout=60)
        assert page.status_code == 200, (page.status_code, len(address))
        assert len(address) < 1000, len(address)  # whatever the titles
        assert LONG_COURSE in page.text and LONG_ACTIVITY in page.text and shown(page, "opened") == "12"
        links = {html.unescape(href) for href in re.findall(r'href="(/lti/class/[^"]*)"', page.text)}
        assert len(links) >= 12 + 2  # every learner's timeline, the downloads, the class view itself
        for link in sorted(links):
            followed = requests.get(base.rstrip("/") + link, timeout=60)
            assert followed.status_code == 200, (link, followed.status_code)
            if "/learner/" in link:
                assert LONG_ACTIVITY in followed.text


# Moodle 4.5, as observed: a non-editing teacher launches as plain Instructor (its default roles give them
# mod/lti:manage) while its roster lists the same person as Learner.
MOODLE_TUTOR = {
    "roles": [INSTRUCTOR],
    "name": "Theo Tutor",
    "claims": {NRPS: {"context_memberships_url": ROSTER_URL}},
}


def moodle_roster(*extra: dict) -> Roster:
    learner = [MEMBERSHIP + "#Learner"]
    members = [
        {"sub": "moodle-tutor", "name": "Theo Tutor", "roles": learner},  # Instructor at launch
        {"sub": "teacher-nrps", "name": "Tina Teacher", "roles": [INSTRUCTOR]},
        {"sub": "nina", "name": "Nina Neu", "roles": learner},
        *extra,
    ]
    return Roster(members, fetched=START)


def test_a_moodle_tutor_sees_the_class_with_names_and_code_but_cannot_delete(school, roster):
    school.platform.people["moodle-tutor"] = MOODLE_TUTOR
    roster.answer = moodle_roster()
    page = launch(school, "moodle-tutor")
    assert "/lti/class/" in page.url and shown(page, "opened") == "12"
    assert "Ana Alves" in page.text  # names
    token, ana = token_of(page), Learner("ana").learner
    timeline = get(school, f"lti/class/learner/{ana}", t=token)
    assert timeline.status_code == 200 and "def backward" in timeline.text  # code
    assert 'data-testid="delete"' not in timeline.text and 'data-testid="no-delete"' in timeline.text
    assert get(school, f"lti/class/learner/{ana}/delete", t=token).status_code == 403
    refused = requests.post(
        school.tool_url + f"lti/class/learner/{ana}/delete", data={"t": token}, verify=school.ca_file
    )
    assert refused.status_code == 403 and "tutor" in refused.text
    assert get(school, f"lti/class/learner/{ana}", t=token).status_code == 200  # nothing deleted
    # the course's teacher, whom the same roster lists as Instructor, may
    teacher = token_of(launch(school, "teacher-nrps"))
    assert 'data-testid="delete"' in get(school, f"lti/class/learner/{ana}", t=teacher).text
    assert get(school, f"lti/class/learner/{ana}/delete", t=teacher).status_code == 200


def test_a_canvas_teaching_assistant_sees_the_class_but_cannot_delete(school):
    token, ana = token_of(launch(school, "ta-canvas")), Learner("ana").learner
    timeline = get(school, f"lti/class/learner/{ana}", t=token)
    assert timeline.status_code == 200 and 'data-testid="delete"' not in timeline.text
    assert get(school, f"lti/class/learner/{ana}/delete", t=token).status_code == 403


def test_a_member_who_launched_as_a_teacher_is_never_listed_as_not_having_opened_it(school, roster):
    """Whatever the roster says: a tutor the roster calls a Learner, once they launched as Instructor (in
    this activity or another of the course), is not listed; before, nothing tells them apart."""
    school.platform.people["tutor-b"] = MOODLE_TUTOR | {"name": "Bea Tutor"}
    school.platform.people["tutor-elsewhere"] = {"roles": [INSTRUCTOR]}  # course-1
    assert launched_link(school, "tutor-elsewhere", "link-2")[1].status_code == 200  # another activity
    learner = [MEMBERSHIP + "#Learner"]
    roster.answer = Roster(
        [
            {"sub": "tutor-b", "name": "Bea Tutor", "roles": learner},
            {"sub": "tutor-elsewhere", "name": "Ulla Other", "roles": ["Learner"]},
            {"sub": "nina", "name": "Nina Neu", "roles": learner},
        ],
        fetched=START,
    )
    page = launch(school, "teacher-nrps")
    waiting = re.search(r'<ul class="waiting" data-testid="waiting">(.*?)</ul>', page.text, re.S)[1]
    assert "Nina Neu" in waiting and "Bea Tutor" in waiting and "Ulla Other" not in waiting
    assert shown(page, "waiting-count") == "2"
    tutor = launch(school, "tutor-b")  # the tutor opens it: a teacher's launch, never the class's
    assert "/lti/class/" in tutor.url
    page = launch(school, "teacher-nrps")
    assert shown(page, "waiting-count") == "1" and "Bea Tutor" not in page.text


def test_a_learner_whose_records_were_deleted_is_listed_apart_with_when(school, roster):
    school.platform.people["lea"] = {"course": ("course-5", "Course five")}
    school.platform.people["teacher-5"] = {
        "roles": [INSTRUCTOR],
        "course": ("course-5", "Course five"),
        "claims": {NRPS: {"context_memberships_url": ROSTER_URL}},
    }
    launched(school, "lea")  # she opened it
    learner = [MEMBERSHIP + "#Learner"]
    roster.answer = Roster(
        [
            {"sub": "lea", "name": "Lea Lang", "roles": learner},
            {"sub": "max", "name": "Max Maier", "roles": learner},
        ],
        fetched=START,
    )
    token = token_of(launch(school, "teacher-5"))
    lea = tool_keys(school).learner_id(school.issuer, "course-5", "lea")
    answer = requests.post(
        school.tool_url + f"lti/class/learner/{lea}/delete", data={"t": token}, verify=school.ca_file
    )
    assert answer.status_code == 200 and shown(answer, "opened") == "0"
    assert shown(answer, "waiting-count") == "1"
    waiting = re.search(r'<ul class="waiting" data-testid="waiting">(.*?)</ul>', answer.text, re.S)[1]
    assert "Max Maier" in waiting and "Lea Lang" not in waiting
    deleted = re.search(r'<ul class="waiting" data-testid="deleted">(.*?)</ul>', answer.text, re.S)[1]
    assert "Lea Lang" in deleted and "UTC" in deleted
    launched(school, "lea")  # she opens it again: one of the class again, listed in neither
    page = requests.get(answer.url, verify=school.ca_file)
    assert shown(page, "opened") == "1" and 'data-testid="deleted"' not in page.text
