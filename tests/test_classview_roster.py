"""The class view's roster (server/classview/roster.py, kept.py) from the tests' LMS's Names and Role
Provisioning Service (lti1p3platform's, behind tests/support/lti_platform.py): every page followed by its
Link header, each member as sub, name (only where given) and roles; read on the queue and kept, one fetch
per activity at a time; a failure said in one line."""

import threading
import time

import pytest
from sqlalchemy import select, update

from server.classview import kept, roster
from server.classview.kept import roster_of
from server.classview.roster import RosterError, fetch
from server.db import Database
from server.db.tables import rosters
from tests.support.lti_platform import CLIENT_ID

pytestmark = pytest.mark.slow  # real servers: the LMS and the tool

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
TEACHER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
MEMBERS = [
    {"user_id": "t1", "roles": [TEACHER], "name": "Grace Hopper", "email": "grace@example.edu"},
    {"user_id": "s1", "roles": [LEARNER], "name": "Ada Lovelace", "given_name": "Ada"},
    {"user_id": "s2", "roles": [LEARNER]},  # the LMS shares no name
    {"user_id": "s3", "roles": [LEARNER], "given_name": "Alan", "family_name": "Turing"},
    {"user_id": "s4", "roles": [LEARNER], "status": "Inactive"},  # left the course
    {"user_id": "s5", "roles": [LEARNER], "name": "Edsger Dijkstra"},
]
FETCHED = [
    {"sub": "t1", "name": "Grace Hopper", "roles": [TEACHER]},
    {"sub": "s1", "name": "Ada Lovelace", "roles": [LEARNER]},
    {"sub": "s2", "name": None, "roles": [LEARNER]},
    {"sub": "s3", "name": "Alan Turing", "roles": [LEARNER]},
    {"sub": "s5", "name": "Edsger Dijkstra", "roles": [LEARNER]},
]


@pytest.fixture
def course(lms):
    """The LMS with a course of six members, three to a page, no roster kept from an earlier test; the
    tool's app context (its queue's consumer reads the rosters)."""
    lms.platform.members = [dict(m) for m in MEMBERS]
    lms.platform.members_page_size = 3
    lms.platform.members_refusal = None
    lms.platform.members_requests.clear()
    app = lms.tools[-1][1]
    with app.app_context():
        with app.extensions["db"].connect() as conn:
            conn.execute(rosters.delete())
        yield lms


def memberships(lms) -> str:
    return lms.platform.url + "memberships"


def view(lms, activity: str = "link-1", url: str | None = None) -> dict:
    return {
        "issuer": lms.issuer,
        "course": "course-1",
        "activity": activity,
        "client_id": CLIENT_ID,
        "memberships": url or memberships(lms),
    }


def once_fetched(lms, activity: str = "link-1") -> kept.Roster:
    """The kept roster once no fetch is under way (the queue's consumer reads it meanwhile)."""
    deadline = time.monotonic() + 30
    while (found := roster_of(view(lms, activity))).fetching:
        assert time.monotonic() < deadline, "the roster was never fetched"
        time.sleep(0.05)
    return found


def test_the_roster_is_every_active_member_of_every_page_with_names_only_where_given(course):
    assert fetch(course.issuer, CLIENT_ID, memberships(course), "link-1") == FETCHED
    asked = course.platform.members_requests
    assert [r.get("page", "1") for r in asked] == ["1", "2"]  # the second page, from the Link header
    assert all(r["rlid"] == "link-1" for r in asked)  # the activity's members


def test_the_class_view_shows_what_is_kept_and_reads_it_on_the_queue(course):
    first = roster_of(view(course))
    assert first == kept.Roster(members=[], fetched=None, fetching=True, error=None)  # at once: nothing yet
    found = once_fetched(course)
    assert found.members == FETCHED and found.error is None and time.time() - found.fetched < 30


def test_the_roster_is_kept_a_few_minutes_for_each_activity(course):
    first = once_fetched(course)
    course.platform.members.append({"user_id": "s6", "roles": [LEARNER]})
    assert roster_of(view(course)) == first  # kept: not asked again
    assert len(course.platform.members_requests) == 2
    other = once_fetched(course, "link-2")  # another activity: asked
    assert other.members[-1]["sub"] == "s6" and len(course.platform.members_requests) == 5  # 3 pages


def test_the_roster_is_read_again_once_its_minutes_are_over_and_shown_meanwhile(course, monkeypatch):
    first = once_fetched(course)
    monkeypatch.setattr(kept, "ROSTER_S", 0)
    course.platform.members.append({"user_id": "s6", "roles": [LEARNER]})
    meanwhile = roster_of(view(course))
    assert meanwhile.members == first.members and meanwhile.fetching  # the kept one, while read again
    monkeypatch.setattr(kept, "ROSTER_S", 300)
    again = once_fetched(course)
    assert again.members[-1]["sub"] == "s6" and again.fetched > first.fetched


@pytest.mark.parametrize("status", [403, 500])
def test_an_lms_that_refuses_gives_one_line_and_a_log_and_is_asked_again(course, status, caplog, monkeypatch):
    course.platform.members_refusal = status
    found = once_fetched(course)
    assert found.members == [] and found.fetched is None
    assert found.error == f"the LMS answered {status} to the roster request: " + (
        '{"message":"Names and roles are off for this course"}'
    )
    assert "\n" not in found.error and found.error in caplog.text
    course.platform.members_refusal = None
    assert roster_of(view(course)) == found  # not asked again at once
    monkeypatch.setattr(kept, "RETRY_S", 0)
    assert once_fetched(course).members == FETCHED  # but after RETRY_S


def test_an_lms_that_cannot_be_reached_or_is_not_registered_gives_one_line(course):
    with pytest.raises(RosterError, match="^the LMS's roster could not be read: ConnectionError:"):
        fetch(course.issuer, CLIENT_ID, "http://127.0.0.1:9/memberships", "link-1")
    with pytest.raises(RosterError) as unknown:
        fetch("https://unknown.example.edu", CLIENT_ID, memberships(course), "link-1")
    assert str(unknown.value) == (
        "the LMS's roster could not be read: no registration of https://unknown.example.edu"
        f" (client id {CLIENT_ID})"
    )


def test_a_roster_that_never_ends_is_cut_off(course, monkeypatch):
    monkeypatch.setattr(roster, "ROSTER_PAGES", 2)
    course.platform.members_page_size = 1
    with pytest.raises(RosterError, match="did not end within 2 pages or 30 s$"):
        fetch(course.issuer, CLIENT_ID, memberships(course), "link-1")


def test_a_roster_kept_a_day_is_forgotten(course):
    once_fetched(course)
    with course.tools[-1][1].extensions["db"].connect() as conn:
        assert kept.forget_old(conn, time.time()) == 0
        conn.execute(update(rosters).values(tried=time.time() - kept.KEEP_S - 1))
        assert kept.forget_old(conn, time.time()) == 1
        assert conn.execute(select(rosters)).all() == []


def test_sixteen_views_at_once_claim_one_fetch(database_url):
    """On each database: 16 class views of one activity at once (each its own connection), one claim;
    none again while it is under way, nor once read within ROSTER_S; again once it died (CLAIM_S)."""
    db = Database(database_url)
    now = time.time()
    start = threading.Barrier(16)

    def claims(_: int) -> bool:
        start.wait()
        with db.connect() as conn:
            return kept.claim(conn, "https://lms.example", "course-1", "link-1", now)

    results = []
    threads = [threading.Thread(target=lambda n=n: results.append(claims(n))) for n in range(16)]
    for each in threads:
        each.start()
    for each in threads:
        each.join(60)
    assert sorted(results) == [False] * 15 + [True]
    with db.connect() as conn:
        assert not kept.claim(conn, "https://lms.example", "course-1", "link-1", now + 1)  # under way
        assert kept.claim(conn, "https://lms.example", "course-1", "link-2", now)  # another activity
        assert kept.claim(conn, "https://lms.example", "course-1", "link-1", now + kept.CLAIM_S + 1)
        conn.execute(update(rosters).values(claimed_until=0, tried=now, error=None))
        assert not kept.claim(conn, "https://lms.example", "course-1", "link-1", now + 10)  # read: kept
    db.engine.dispose()
