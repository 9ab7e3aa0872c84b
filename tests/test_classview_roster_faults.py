"""A broken, hostile or slow LMS roster cannot take the class view, or the server, down (issue 48's
finding 5): every odd answer gives the whole view with one line about the roster; the class view never
waits on the LMS (the roster is fetched on the queue, once per activity at a time, and the last one kept
is shown); the roster's pages are followed only to the LMS's own memberships host, never to a private
address. Through the tests' LMS (tests/support/lti_platform.py), and `make production`'s 4 gunicorn
processes of 4 threads on each database, on loopback, bounded in time."""

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from server.classview import roster as rosters
from server.classview.token import teacher_token
from server.db import Database
from server.lti.tool import ToolKeys
from tests.support import servers
from tests.support.classes import START, Learner, build, timed
from tests.support.lti import Rig
from tests.support.lti_platform import CLIENT_ID

pytestmark = pytest.mark.slow  # a real LMS, the tool served, gunicorn, PostgreSQL

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
WAIT_S = 30  # a fetch on the queue is done well within this (a consumer polls SQLite every second)


def token(rig, activity: str, memberships: str | bool = True) -> str:
    """A teacher's token for course-1's activity, as a launch with the roster's service would give
    (memberships: its URL, the tests' LMS's by default; False: a launch without the service)."""
    view = {
        "issuer": rig.issuer,
        "course": "course-1",
        "activity": activity,
        "client_id": CLIENT_ID,
        "memberships": rig.platform.url + "memberships" if memberships is True else memberships or None,
    }
    return teacher_token(ToolKeys(Path(rig.folder) / "lti-tool-key.pem"), view, 600)


def roster_line(page: requests.Response) -> str | None:
    """The one line the overview says about the roster (fetched, being fetched, not read), or None."""
    found = re.search(r'data-testid="roster-(?:error|fetching|fetched)">([^<]*)<', page.text)
    return found[1] if found else None


def overview_once_fetched(base: str, t: str, verify, wanted: str) -> requests.Response:
    """The overview, loaded until its roster line is no longer "being fetched" (each load a 200)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        page = requests.get(base + "lti/class/", params={"t": t}, verify=verify, timeout=10)
        assert page.status_code == 200, page.text[:300]
        if 'data-testid="roster-fetching"' not in page.text:
            assert f'data-testid="{wanted}"' in page.text, page.text
            return page
        assert time.monotonic() < deadline, "the roster was never fetched"
        time.sleep(0.2)  # the queue's consumer fetches it meanwhile


@pytest.fixture(scope="module")
def odd_school(lms):
    database = Database(lms.database_url)
    with database.connect() as conn:
        for n in range(20):
            build(conn, lms.issuer, "course-1", f"link-odd-{n}", [Learner("ana", timed(["reversed"], START))])
    database.engine.dispose()
    return lms


@pytest.fixture
def odd_course(odd_school):
    platform = odd_school.platform
    platform.members = [{"user_id": "nina", "roles": [LEARNER], "name": "Nina Neu"}]
    platform.members_page_size = 10
    platform.members_requests.clear()
    yield odd_school
    platform.members_body = platform.members_link = platform.members_refusal = None


ODD_ANSWERS = [
    "[]",
    "null",
    "",  # an empty 200
    "not JSON at all",
    '"members"',
    "{}",
    '{"members": null}',
    '{"members": {"user_id": "nina"}}',
    '{"members": [1]}',
    '{"members": ["nina"]}',
    '{"members": [null]}',
    '{"members": [{"user_id": 7, "roles": []}]}',
    '{"members": [{"user_id": "nina"}]}',  # no roles
    '{"members": [{"user_id": "nina", "roles": "Learner"}]}',
    '{"members": [{"user_id": "nina", "roles": [3]}]}',
]


@pytest.mark.parametrize("n, answer", list(enumerate(ODD_ANSWERS)))
def test_an_odd_roster_answer_gives_the_whole_view_and_one_line(odd_course, n, answer):
    odd_course.platform.members_body = answer
    t = token(odd_course, f"link-odd-{n}")
    page = overview_once_fetched(odd_course.tool_url, t, odd_course.ca_file, "roster-error")
    assert roster_line(page).startswith("The course's list of members could not be read from the LMS")
    assert "the LMS answered" not in roster_line(page)  # the answer was read, and refused
    assert re.search(r'data-testid="opened">1<', page.text)  # the rest of the view
    assert "Nina" not in page.text
    timeline = requests.get(
        odd_course.tool_url + f"lti/class/learner/{Learner('ana').learner}",
        params={"t": t},
        verify=odd_course.ca_file,
        timeout=10,
    )
    assert timeline.status_code == 200 and timeline.text.count('data-testid="verdict"') == 1


def test_a_good_answer_is_shown_with_when_it_was_fetched(odd_course):
    t = token(odd_course, "link-odd-19")
    page = overview_once_fetched(odd_course.tool_url, t, odd_course.ca_file, "roster-fetched")
    assert "Nina Neu" in page.text and "UTC" in roster_line(page)


def test_a_link_to_another_host_is_not_followed(odd_course):
    platform = odd_course.platform
    platform.members_page_size = 1
    platform.members = [{"user_id": s, "roles": [LEARNER]} for s in ("nina", "noah")]
    port = platform.url.rsplit(":", 1)[1].rstrip("/")
    for n, link in enumerate(
        [
            f"http://localhost:{port}/memberships?page=2",  # the same server, by another name
            f"https://127.0.0.1:{port}/memberships?page=2",  # another scheme
            "http://127.0.0.1:9/memberships?page=2",  # another port
            "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
        ]
    ):
        platform.members_link = link
        platform.members_requests.clear()
        t = token(odd_course, f"link-odd-{15 + n}")
        page = overview_once_fetched(odd_course.tool_url, t, odd_course.ca_file, "roster-error")
        assert "another host" in roster_line(page), link
        assert [r.get("page", "1") for r in platform.members_requests] == ["1"]  # not the second page


def test_an_lms_at_a_private_address_is_not_asked_unless_the_host_allows_it(odd_course, monkeypatch):
    """The tests' LMS is on loopback: with LTI_PRIVATE_ADDRESSES off, the tool never asks it."""
    app = odd_course.tools[-1][1]
    monkeypatch.setitem(app.config, "LTI_PRIVATE_ADDRESSES", False)
    with app.app_context(), pytest.raises(rosters.RosterError, match="a private address"):
        rosters.fetch(odd_course.issuer, CLIENT_ID, odd_course.platform.url + "memberships", "link-1")
    assert odd_course.platform.members_requests == []
    monkeypatch.setitem(app.config, "LTI_PRIVATE_ADDRESSES", True)
    with app.app_context():
        assert rosters.fetch(odd_course.issuer, CLIENT_ID, odd_course.platform.url + "memberships", "link-1")


def test_a_slow_lms_holds_neither_the_class_views_nor_the_server(tmp_path, database_url):
    """`make production`'s shape: 4 gunicorn processes of 4 threads. The LMS answers its roster after 20 s:
    16 teachers' class views of one activity at once each answer at once (the roster being fetched), an
    exercise page meanwhile too, the LMS is asked once for them all, and once fetched the roster is shown."""
    rig = Rig(tmp_path, database_url)
    try:
        rig.platform.members = [{"user_id": "nina", "roles": [LEARNER], "name": "Nina Neu"}]
        rig.platform.members_page_size = 10
        rig.platform.members_delay = 20.0
        Database(database_url).engine.dispose()  # made and migrated, for the registration
        rig.register()
        env = {
            "PLAYGROUND_LTI": "1",
            "PLAYGROUND_VERIFY": "1",
            "PLAYGROUND_LTI_PRIVATE_ADDRESSES": "1",
            "PLAYGROUND_DATABASE_URL": database_url,
            "PLAYGROUND_LTI_KEY_FILE": str(tmp_path / "lti-tool-key.pem"),
            "PLAYGROUND_SIGNING_KEY_FILE": str(tmp_path / "signing-key.pem"),
            "PLAYGROUND_VERIFY_SLOTS_DIR": str(tmp_path / "slots"),
            "PLAYGROUND_OFFLINE": "0",
        }
        with servers.gunicorn(workers=4, threads=4, env=env) as base:
            rig.platform.tool_url = base  # where the LMS reads the tool's keys
            t = token(rig, "link-1")
            plain = token(rig, "link-1", memberships=False)  # a launch that offered no roster
            with ThreadPoolExecutor(16) as pool:  # every process is up, its pages made once
                warm = [base] * 32 + [f"{base}lti/class/?t={plain}"] * 32
                assert set(pool.map(lambda url: requests.get(url, timeout=60).status_code, warm)) == {200}

            def load(path: str, params: dict) -> tuple[float, requests.Response]:
                start = time.monotonic()
                answer = requests.get(base + path, params=params, timeout=10)
                return time.monotonic() - start, answer

            with ThreadPoolExecutor(17) as pool:
                views = [pool.submit(load, "lti/class/", {"t": t}) for _ in range(16)]
                exercise = pool.submit(load, "", {})
                timed_views = [v.result() for v in views]
                exercise_s, page = exercise.result()
            assert [a.status_code for _, a in timed_views] == [200] * 16
            assert all("being fetched" in roster_line(a) for _, a in timed_views)
            assert max(s for s, _ in timed_views) < 5 and page.status_code == 200 and exercise_s < 5
            assert len(rig.platform.members_requests) <= 1  # asked once (or not yet) for the 16
            rig.platform.members_released.set()  # the LMS answers now
            shown = overview_once_fetched(base, t, True, "roster-fetched")
            assert "Nina Neu" in shown.text
            assert len(rig.platform.members_requests) == 1
    finally:
        rig.close()
