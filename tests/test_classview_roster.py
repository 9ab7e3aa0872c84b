"""The class view's roster (server/classview/roster.py) from the tests' LMS's Names and Role Provisioning
Service (lti1p3platform's, behind tests/support/lti_platform.py): every page followed by its Link header,
each member as sub, name (only where given) and roles, kept a few minutes, a failure said in one line."""

import logging

import pytest

from server.classview import roster as rosters
from server.classview.roster import Roster, roster
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


@pytest.fixture
def course(lms):
    """The LMS with a course of six members, three to a page, nothing kept from an earlier test."""
    lms.platform.members = [dict(m) for m in MEMBERS]
    lms.platform.members_page_size = 3
    lms.platform.members_refusal = None
    lms.platform.members_requests.clear()
    app = lms.tools[-1][1]
    with app.app_context():
        for link in ("link-1", "link-2", None):
            app.extensions["lti"]["store"].take(rosters.roster_key(lms.issuer, memberships(lms), link))
        yield lms


def memberships(lms) -> str:
    return lms.platform.url + "memberships"


def test_the_roster_is_every_active_member_of_every_page_with_names_only_where_given(course):
    got = roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    assert got == Roster(
        members=[
            {"sub": "t1", "name": "Grace Hopper", "roles": [TEACHER]},
            {"sub": "s1", "name": "Ada Lovelace", "roles": [LEARNER]},
            {"sub": "s2", "name": None, "roles": [LEARNER]},
            {"sub": "s3", "name": "Alan Turing", "roles": [LEARNER]},
            {"sub": "s5", "name": "Edsger Dijkstra", "roles": [LEARNER]},
        ],
        error=None,
    )
    asked = course.platform.members_requests
    assert [r.get("page", "1") for r in asked] == ["1", "2"]  # the second page, from the Link header
    assert all(r["rlid"] == "link-1" for r in asked)  # the activity's members


def test_the_roster_is_kept_a_few_minutes_for_each_activity(course):
    first = roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    course.platform.members.append({"user_id": "s6", "roles": [LEARNER]})
    assert roster(course.issuer, CLIENT_ID, memberships(course), "link-1") == first  # kept: not asked again
    assert len(course.platform.members_requests) == 2
    other = roster(course.issuer, CLIENT_ID, memberships(course), "link-2")  # another activity: asked
    assert other.members[-1]["sub"] == "s6" and len(course.platform.members_requests) == 5


def test_the_roster_asks_again_once_its_minutes_are_over(course, monkeypatch):
    monkeypatch.setattr(rosters, "ROSTER_S", 0.05)
    roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    __import__("time").sleep(0.1)
    roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    assert len(course.platform.members_requests) == 4


@pytest.mark.parametrize("status", [403, 500])
def test_an_lms_that_refuses_gives_no_members_one_line_and_a_log_and_is_asked_again(course, status, caplog):
    course.platform.members_refusal = status
    with caplog.at_level(logging.WARNING, logger="server.classview.roster"):
        got = roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    assert got.members == []
    assert got.error == f"the LMS answered {status} to the roster request: " + (
        '{"message":"Names and roles are off for this course"}'
    )
    assert "\n" not in got.error and got.error in caplog.text
    course.platform.members_refusal = None
    assert len(roster(course.issuer, CLIENT_ID, memberships(course), "link-1").members) == 5  # not kept


def test_an_lms_that_cannot_be_reached_or_is_not_registered_gives_one_line(course):
    unreachable = roster(course.issuer, CLIENT_ID, "http://127.0.0.1:9/memberships", "link-1")
    assert unreachable.members == [] and unreachable.error.startswith(
        "the LMS's roster could not be read: ConnectionError:"
    )
    unknown = roster("https://unknown.example.edu", CLIENT_ID, memberships(course), "link-1")
    assert unknown == Roster(
        members=[],
        error=f"the LMS's roster could not be read: RosterError: no registration of https://unknown.example.edu"
        f" (client id {CLIENT_ID})",
    )


def test_a_roster_that_never_ends_is_cut_off(course, monkeypatch):
    monkeypatch.setattr(rosters, "ROSTER_PAGES", 2)
    course.platform.members_page_size = 1
    got = roster(course.issuer, CLIENT_ID, memberships(course), "link-1")
    assert got.members == [] and got.error.endswith("did not end within 2 pages or 30 s")
