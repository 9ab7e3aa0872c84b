"""A class in one lab, behind one address: every honest pass verified (and graded), while strangers with
endless loops try to stop it, across a real multi-process server, and with a Redis that fails.

Holds and limits count per learner where the learner is known (a learner token, an LTI launch), per
address for the anonymous; a request that finds every sandbox busy waits in the instance's queue
(server/sandbox/holds.py). Real sandboxes, real gunicorn and Redis, on loopback, bounded in count and time.
"""

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import pytest
import redis
import requests

from server.http.limits import Limits
from tests.support import servers, solutions
from tests.support.lti_launches import launched, settled, verify
from tests.support.redis import redis_server
from tests.support.verifying import ENDLESS, at, verifying_app

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

SECRET = "a course's secret, shared with the playground, 32 bytes or more"
LAB = "198.51.100.20"  # the lab's one address


def token(sub: str) -> str:
    """A learner token the course signs for sub."""
    return jwt.encode({"sub": sub, "exp": int(time.time()) + 300}, SECRET, "HS256")


def learners_app(tmp_path, **config):
    """A 2-slot server in this process, whose threads wait as `make production`'s 4 processes' would
    (VERIFY_QUEUE_PER_PROCESS 2 each)."""
    settings = {"VERIFY_SLOTS": 2, "VERIFY_QUEUE_PER_PROCESS": 8, "LEARNER_TOKEN_SECRET": SECRET}
    return verifying_app(tmp_path, **{**settings, **config})


def pass_of(client, sub: str, address: str = LAB, source: str = solutions.CORRECT):
    """One learner's pass, sent as the page sends it, from the lab (or another address)."""
    body = {"source": source, "learner": token(sub)}
    return client.post("/verify", json=body, headers=at(address))


def verified(response) -> bool:
    return response.status_code == 200 and response.get_json()["report"]["passed"] is True


def test_a_class_of_30_behind_one_address_gets_every_pass_verified(tmp_path):
    """30 learners in five waves of six passing in the same second, on a 2-slot server: each answered
    at once with its verification, none refused (on one address, none of them has one running)."""
    client = learners_app(tmp_path).test_client()
    answers = []
    with ThreadPoolExecutor(6) as pool:
        for wave in range(5):
            subs = [f"learner-{wave}-{n}" for n in range(6)]
            answers += pool.map(lambda sub: pass_of(client, sub), subs)
    refused = [a.get_json().get("error") for a in answers if not verified(a)]
    assert refused == [] and len(answers) == 30


def sent_as_the_page_sends(lms, launch: tuple, deadline: float) -> requests.Response:
    """A launched learner's pass, sent again after the Retry-After while the server cannot take it now
    (a 503 or 429 with Retry-After), as the page does (static/js/page/verify.js)."""
    while True:
        answer = verify(lms, *launch, solutions.CORRECT)
        again = answer.headers.get("Retry-After")
        if answer.status_code not in (429, 503) or not again:
            return answer
        assert time.monotonic() < deadline, answer.text
        time.sleep(float(again))


def test_a_class_of_30_launched_from_one_address_gets_every_pass_to_the_lms(lms):
    """30 LTI launches from one address (the test platform's learners, all on loopback) passing in five
    waves of six within a minute, on the tool's one process (two slots, two places in its queue): each
    verified, sent again by itself where the server could not take it at once, and its grade sent."""
    users = [f"lab-learner-{n}" for n in range(30)]
    launches = [launched(lms, user) for user in users]
    deadline = time.monotonic() + 60
    answers = []
    with ThreadPoolExecutor(6) as pool:
        for wave in range(5):
            wave_of = launches[wave::5]
            answers += pool.map(sent_as_the_page_sends, [lms] * 6, wave_of, [deadline] * 6)
    assert [a.status_code for a in answers] == [200] * 30, [a.text[:200] for a in answers]
    assert all(a.json()["report"]["passed"] for a in answers)
    assert [settled(lms, *launch)["state"] for launch in launches] == ["sent"] * 30
    assert all(lms.platform.gradebook[("backprop", user)]["scoreGiven"] == 1 for user in users)


def test_strangers_with_endless_loops_do_not_starve_a_class(tmp_path):
    """Three learners at three other addresses send endless loops back to back (the course names its
    learners, so a stranger without a token gets no sandbox at all), each holding a slot for the time
    limit; a class of eight behind one address passes meanwhile: each waits its turn and is verified."""
    client = learners_app(tmp_path, VERIFY_TIME_LIMIT_MS=1000).test_client()
    done = threading.Event()
    loops = []

    def stranger(n: int) -> None:
        while not done.is_set():
            loops.append(pass_of(client, f"stranger-{n}", f"203.0.113.{n}", ENDLESS))

    with ThreadPoolExecutor(7) as pool:
        strangers = [pool.submit(stranger, n) for n in (1, 2, 3)]
        time.sleep(0.5)  # the strangers hold both slots
        answers = []
        for wave in ("a", "b"):
            answers += pool.map(pass_of, [client] * 4, [f"learner-{wave}-{n}" for n in range(4)])
        done.set()
        for s in strangers:
            s.result()
    assert [a.get_json().get("error") for a in answers if not verified(a)] == []
    timeouts = [
        a for a in loops if a.status_code == 200 and a.get_json()["report"]["error"]["kind"] == "timeout"
    ]
    assert len(timeouts) >= 3  # the strangers were served too, in their turn


# Alone (make test runs it away from the rest): its four loops must arrive within one loop's 2 s limit, or
# the first is over and the next one takes its place (seen on a fresh clone's run, on a busy machine).
@pytest.mark.alone
def test_one_address_against_four_processes_without_redis_holds_one_sandbox(tmp_path):
    """`make production`'s shape (gunicorn, 4 processes, no Redis): one address sending four endless
    loops at once gets one sandbox (the others: still running), and an honest pass from elsewhere is
    verified meanwhile."""
    env = {
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_PROXY_FIX": "1",
        "PLAYGROUND_VERIFY_SLOTS": "2",
        "PLAYGROUND_VERIFY_TIME_LIMIT_MS": "2000",
        "PLAYGROUND_SIGNING_KEY_FILE": str(tmp_path / "k.pem"),
        "PLAYGROUND_VERIFY_SLOTS_DIR": str(tmp_path / "slots"),
        "PLAYGROUND_OFFLINE": "0",
    }
    with servers.gunicorn(workers=4, threads=1, env=env) as base:

        def post(source: str, address: str) -> requests.Response:
            return requests.post(base + "verify", json={"source": source}, headers=at(address), timeout=60)

        with ThreadPoolExecutor(4) as pool:
            loops = list(pool.map(lambda _: post(ENDLESS, "203.0.113.5"), range(4)))
        ran = [a for a in loops if a.status_code == 200]
        held = [a for a in loops if a.status_code == 429 and "still running" in a.json()["error"]]
        assert len(ran) == 1 and len(held) == 3, [a.text[:200] for a in loops]
        with ThreadPoolExecutor(3) as pool:
            loops = [pool.submit(post, ENDLESS, "203.0.113.5") for _ in range(2)]
            time.sleep(0.5)
            honest = post(solutions.CORRECT, "192.0.2.8")
            assert honest.status_code == 200 and honest.json()["report"]["passed"] is True
            assert sorted(f.result().status_code for f in loops) == [200, 429]


@pytest.fixture
def redis_url():
    with redis_server() as url:
        yield url


def redis_pid(url: str) -> int:
    return redis.Redis(unix_socket_path=url.removeprefix("redis+unix://")).info()["process_id"]


def test_a_redis_that_is_down_leaves_the_holds_to_the_instance(tmp_path, redis_url):
    app = learners_app(tmp_path, RATELIMIT_STORAGE_URL=redis_url, VERIFY_TIME_LIMIT_MS=1500)
    client = app.test_client()
    assert verified(pass_of(client, "ada"))  # counted in Redis
    os.kill(redis_pid(redis_url), signal.SIGKILL)
    with ThreadPoolExecutor(1) as pool:
        loop = pool.submit(pass_of, client, "mallory", "203.0.113.5", ENDLESS)
        time.sleep(0.5)
        again = pass_of(client, "mallory", "203.0.113.5", ENDLESS)
        assert again.status_code == 429 and "still running" in again.get_json()["error"]  # held here
        assert verified(pass_of(client, "ada")) and verified(pass_of(client, "grace"))
        assert loop.result().get_json()["report"]["error"]["kind"] == "timeout"
    start = time.monotonic()  # LTI logins and launches count with hit(): answered, in this process
    assert Limits(redis_url).hit("lti", 3, 60, "203.0.113.5") == 0.0 and time.monotonic() - start < 5


def test_a_paused_redis_holds_no_request(tmp_path, redis_url):
    app = learners_app(tmp_path, RATELIMIT_STORAGE_URL=redis_url)
    client = app.test_client()
    assert verified(pass_of(client, "ada"))
    pid = redis_pid(redis_url)
    pool = ThreadPoolExecutor(3)
    os.kill(pid, signal.SIGSTOP)  # it takes connections and never answers
    try:
        start = time.monotonic()
        sent = [pool.submit(pass_of, client, sub) for sub in ("ada", "grace", "alan")]
        answers = [f.result(timeout=20) for f in sent]
        assert time.monotonic() - start < 15
        assert all(verified(a) for a in answers), [a.get_json() for a in answers]
    finally:
        os.kill(pid, signal.SIGCONT)  # before the pool waits for its threads
        pool.shutdown()
