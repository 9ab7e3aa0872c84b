"""Grade passback under trouble, against the real platform (lti1p3platform): an LMS that never answers
beside a healthy one, an LMS that refuses a score, one that is down for good, and a second pass.

The queue's tries (one platform's turn at a time), the final answers and one score per launch:
server/lti/passback.py.
"""

import logging
import socket
import threading
import time

import pytest
import requests

from server.lti import tool
from tests.support import solutions
from tests.support.lti import rig
from tests.support.lti_launches import grade, launched, settled, verify
from tests.support.lti_platform import CLIENT_ID, COURSE, DEPLOYMENT_ID, LINEITEM
from tests.support.sockets import Loopback

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


class Silent(Loopback):
    """An LMS that takes every connection and never answers: it counts them (each is one try of the
    passbacks') and holds them until closed."""

    def __init__(self) -> None:
        self.tries = 0
        self.held: list[socket.socket] = []
        self.changed = threading.Condition()
        super().__init__()
        self.url = f"http://127.0.0.1:{self.port}/"

    def answer(self, conn: socket.socket) -> None:
        with self.changed:
            self.tries += 1
            self.held.append(conn)
            self.changed.notify_all()

    def close(self) -> None:
        self.stop()
        with self.changed:
            for connection in self.held:
                connection.close()


@pytest.fixture
def own_lms(tmp_path):
    """A platform and a tool of its own for each test (they change how the platform answers)."""
    with rig(tmp_path) as made:
        made.tool, made.tool_url = made.start_tool()
        made.register(made.tools[-1][1])
        yield made


def tool_part(own_lms, name: str):
    return own_lms.tools[-1][1].extensions["lti"][name]


def queue_silent_passes(own_lms, silent: Silent, count: int) -> None:
    """Register the silent LMS and queue count passes of its learners, as its launches would have."""
    store = tool_part(own_lms, "store")
    issuer = silent.url.rstrip("/")
    registration = {
        "issuer": issuer,
        "client_id": CLIENT_ID,
        "title": "The silent LMS",
        "auth_login_url": silent.url + "authorize",
        "auth_token_url": silent.url + "token",
        "key_set_url": silent.url + "jwks",
    }
    store.add_platform(registration, DEPLOYMENT_ID)
    for n in range(count):
        launch_id = f"silent-launch-{n}"
        ags = {"scope": [SCORE_SCOPE], "lineitem": silent.url + "lineitems/1"}
        store.add_launch(
            {
                "id": launch_id,
                "issuer": issuer,
                "client_id": CLIENT_ID,
                "deployment_id": DEPLOYMENT_ID,
                "sub": f"stuck-{n}",
                "resource_link_id": "link-1",
                "course": "Another course",
                "ags": ags,
                "created": time.time(),
            }
        )
        store.add_passback(f"silent-pass-{n}", launch_id, 1.0, 1.0, "2026-01-01T00:00:00.000Z")
        tool_part(own_lms, "passbacks").send(f"silent-pass-{n}")


def test_an_lms_that_never_answers_delays_no_other_courses_grade(own_lms, monkeypatch):
    monkeypatch.setattr(tool, "HTTP_TIMEOUT_S", 30)  # each try of the silent LMS holds a worker 30 s
    silent = Silent()
    try:
        session, token = launched(own_lms, "healthy")
        queue_silent_passes(own_lms, silent, 12)  # 12 stuck passes to another LMS, ahead of the healthy one
        with silent.changed:
            assert silent.changed.wait_for(lambda: silent.tries >= 1, 30)  # its first try is held
        assert verify(own_lms, session, token, solutions.CORRECT).json()["grade"]["state"] == "sending"

        def healthy_or_second_try():
            with own_lms.platform.changed:
                return (LINEITEM, "healthy") in own_lms.platform.gradebook or silent.tries >= 2

        deadline = time.monotonic() + 120  # a guard against a hung test only: the order is the check
        while not healthy_or_second_try():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # The healthy course's grade arrived while the silent LMS's first try still waited, its other
        # tries asking again for its turn: not after the 12 stuck passes (12 timeouts), and not after a
        # second worker took another of them.
        assert (LINEITEM, "healthy") in own_lms.platform.gradebook and silent.tries == 1
        assert settled(own_lms, session, token)["state"] == "sent"
    finally:
        silent.close()


def test_a_refusal_from_the_lms_is_final_and_said_in_the_page_and_the_log(own_lms, caplog):
    caplog.set_level(logging.WARNING, logger="server.lti.passback")
    session, token = launched(own_lms, "unknown-here")
    own_lms.platform.scores_refusal = 403  # the LMS refuses the score: it will not take it later either
    verify(own_lms, session, token, solutions.CORRECT)
    assert settled(own_lms, session, token) == {
        "state": "failed",
        "course": COURSE,
        "message": f"{COURSE} refused this grade (error 403); tell your teacher.",
    }
    assert grade(own_lms, session, token, retry=True)["state"] == "failed"  # Retry does not send it again
    assert tool_part(own_lms, "store").due(now=None) == []  # nothing left to try
    time.sleep(1)  # five retry waits (0.2 s): none sends it
    assert own_lms.platform.score_requests == 1
    german = requests.post(
        own_lms.tool_url + "lti/grade?lang=de", json={"launch": token}, verify=own_lms.ca_file
    ).json()
    assert (
        german["message"] == f"{COURSE} hat diese Bewertung abgelehnt (Fehler 403); sag es deiner Lehrkraft."
    )
    said = [r.getMessage() for r in caplog.records if r.name == "server.lti.passback"]
    assert any("failed for good" in line and "403" in line for line in said), said


def test_a_429_is_tried_again_up_to_the_last_try_and_then_said(tmp_path):
    with rig(tmp_path) as own_lms:
        own_lms.tool, own_lms.tool_url = own_lms.start_tool(LTI_RETRY_S=0.05, LTI_RETRY_TRIES=3)
        own_lms.register(own_lms.tools[-1][1])
        session, token = launched(own_lms, "patient")
        own_lms.platform.scores_refusal = 429  # "later", every time: tried again, up to the last try
        verify(own_lms, session, token, solutions.CORRECT)
        deadline = time.monotonic() + 60
        while (state := grade(own_lms, session, token))["state"] != "failed":
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        assert state["message"] == f"This grade could not be sent to {COURSE}; tell your teacher."
        (row,) = tool_part(own_lms, "store").passbacks_of(tool_part(own_lms, "keys").launch_of(token))
        assert row["attempts"] == 3 and "gave up after 3 tries" in row["error"] and row["status"] == 429
        time.sleep(1.5)  # thirty retry waits, the queue's schedule read at least once: none sends it again
        assert own_lms.platform.score_requests == 3


def test_a_second_verified_pass_of_a_launch_sends_nothing_more(own_lms):
    session, token = launched(own_lms, "twice")
    verify(own_lms, session, token, solutions.CORRECT)
    assert settled(own_lms, session, token)["state"] == "sent"
    posted = own_lms.platform.score_requests
    again = verify(own_lms, session, token, solutions.ITERATIVE).json()  # another right answer, same launch
    assert again["report"]["passed"] is True
    assert again["grade"] == {"state": "sent", "course": COURSE, "message": f"Sent to {COURSE}."}
    store = tool_part(own_lms, "store")
    launch_id = tool_part(own_lms, "keys").launch_of(token)
    assert [row["state"] for row in store.passbacks_of(launch_id)] == ["sent"]  # one score per launch
    assert store.due(now=None) == [] and own_lms.platform.score_requests == posted
    other, other_token = launched(own_lms, "twice")  # a new launch of the same learner: a score of its own
    verify(own_lms, other, other_token, solutions.CORRECT)
    assert settled(own_lms, other, other_token)["state"] == "sent"
    assert own_lms.platform.score_requests == posted + 1


def test_a_retry_tries_at_once_and_tries_enqueued_together_send_once(tmp_path):
    with rig(tmp_path) as own_lms:
        own_lms.tool, own_lms.tool_url = own_lms.start_tool(LTI_RETRY_S=3600)  # no try of its own for an hour
        own_lms.register(own_lms.tools[-1][1])
        session, token = launched(own_lms, "retrying")
        own_lms.platform.scores_refusal = 429
        verify(own_lms, session, token, solutions.CORRECT)
        assert settled(own_lms, session, token)["state"] == "pending" and own_lms.platform.score_requests == 1
        (row,) = tool_part(own_lms, "store").passbacks_of(tool_part(own_lms, "keys").launch_of(token))
        for _ in range(5):  # five tasks for its second try (a Retry and a restart's catch-up at once...)
            tool_part(own_lms, "passbacks").send(row["jti"], row["attempts"])
        deadline = time.monotonic() + 30
        while own_lms.platform.score_requests < 2 or grade(own_lms, session, token)["state"] == "sending":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1.5)  # the other four, had they not found it tried, would have tried it by now
        assert own_lms.platform.score_requests == 2  # one more try, not five
        own_lms.platform.scores_refusal = None  # the LMS takes scores again: the learner's Retry sends now
        assert grade(own_lms, session, token, retry=True)["state"] == "sending"
        assert settled(own_lms, session, token) == {
            "state": "sent",
            "course": COURSE,
            "message": f"Sent to {COURSE}.",
        }
        assert own_lms.platform.score_requests == 3
