"""LTI under abuse, against the real platform (lti1p3platform): each hostile request, then an honest one.

Bounded login state, rate-limited login and launch, no request waiting on the LMS, a 409 as a final
answer, key sets fetched rarely, odd claims named, Deep Linking for teachers only, a 0600 database, a
GET to the launch URL, the teacher's command and settings. The browser's side is tests/browser/.
"""

import os
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import pytest
import requests
from sqlalchemy import select

from server.db.tables import once
from server.lti.claims import AGS, CONTEXT, DEEP_LINKING, ROLES
from server.lti.tool import LOGIN_LIFETIME_S
from tests.support import solutions
from tests.support.bodies import declared, unended
from tests.support.lti import ROOT, launch_form, login, rig
from tests.support.lti_launches import (
    LAUNCH_TOKEN,
    altered,
    form_of,
    grade,
    launched,
    put,
    refusal_title,
    settled,
    verify,
)
from tests.support.lti_platform import CLIENT_ID

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

FLOOD = 2_000_000


@pytest.fixture
def limited_lms(tmp_path):
    """The platform and a tool behind a proxy it trusts (PROXY_FIX), at 8 LTI requests a minute."""
    with rig(tmp_path) as made:
        made.tool, made.tool_url = made.start_tool(PROXY_FIX=1, LTI_RATE_LIMIT=8)
        made.register(made.tools[-1][1])
        yield made


def once_rows(lms) -> list[dict]:
    with lms.tools[0][1].extensions["db"].connect() as conn:
        return [dict(row) for row in conn.execute(select(once)).mappings()]


def at(address: str) -> dict:
    return {"X-Forwarded-For": address}


def test_a_login_stores_a_few_hundred_bytes_for_minutes_whatever_it_is_sent(limited_lms):
    query = {
        "iss": limited_lms.issuer,
        "login_hint": "x",
        "target_link_uri": limited_lms.tool_url,
        "client_id": CLIENT_ID,
    }
    for hint, status, said in ((FLOOD, 413, "bytes, more than an LMS sends"), (3000, 400, "hint is over")):
        flood = requests.post(
            limited_lms.tool_url + "lti/login",
            data={**query, "lti_message_hint": "x" * hint},
            verify=limited_lms.ca_file,
            allow_redirects=False,
            headers=at("203.0.113.1"),
        )
        assert flood.status_code == status and said in flood.text
    assert once_rows(limited_lms) == []
    for _ in range(4):  # the longest hints it takes: still only a nonce is kept
        big = {**query, "login_hint": "h" * 2048, "lti_message_hint": "m" * 2048}
        answer = requests.post(
            limited_lms.tool_url + "lti/login",
            data=big,
            verify=limited_lms.ca_file,
            allow_redirects=False,
            headers=at("203.0.113.1"),
        )
        assert answer.status_code == 302 and len(answer.headers["Set-Cookie"]) < 300
    rows = once_rows(limited_lms)
    assert len(rows) == 4
    for row in rows:
        assert len(row["key"]) + len(row["value"]) < 200
        assert row["expires"] - time.time() <= LOGIN_LIFETIME_S
    session, token = launched(limited_lms, "honest-learner")  # an honest launch goes through
    assert token


def test_login_and_launch_are_rate_limited_per_client(limited_lms):
    query = {
        "iss": limited_lms.issuer,
        "login_hint": "x",
        "target_link_uri": limited_lms.tool_url,
        "client_id": CLIENT_ID,
    }
    statuses = [
        requests.get(
            limited_lms.tool_url + "lti/login",
            params=query,
            verify=limited_lms.ca_file,
            allow_redirects=False,
            headers=at("198.51.100.4"),
        ).status_code
        for _ in range(10)
    ]
    assert statuses == [302] * 8 + [429] * 2
    refused = requests.post(
        limited_lms.tool_url + "lti/launch", data={}, verify=limited_lms.ca_file, headers=at("198.51.100.4")
    )
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refusal_title(refused) == "Too many launches from your network"
    session, token = launched(limited_lms, "next-learner")  # another client launches
    assert verify(limited_lms, session, token, solutions.CORRECT).json()["report"]["passed"] is True


def test_no_request_waits_on_an_lms_that_hangs_and_the_pass_arrives_later(limited_lms):
    session, token = launched(limited_lms, "patient")
    limited_lms.platform.scores_delay = 60  # the LMS takes every score and sits on it

    def timed(call):
        start = time.monotonic()
        result = call()
        return result, time.monotonic() - start

    answer, verify_s = timed(lambda: verify(limited_lms, session, token, solutions.CORRECT).json())
    assert answer["grade"]["state"] == "sending"
    with ThreadPoolExecutor(8) as pool:
        retries = list(
            pool.map(lambda _: timed(lambda: grade(limited_lms, session, token, retry=True)), range(24))
        )
        page, page_s = timed(
            lambda: requests.get(limited_lms.tool_url, verify=limited_lms.ca_file, timeout=60)
        )
    assert {r["state"] for r, _ in retries} == {"sending"}
    assert page.status_code == 200
    assert max([verify_s, page_s, *(s for _, s in retries)]) < 5  # the LMS holds a score 60 s
    limited_lms.platform.scores_delay = 0
    limited_lms.platform.released.set()  # the LMS answers at last
    assert settled(limited_lms, session, token)["state"] == "sent"
    assert [s["userId"] for s in limited_lms.platform.scores_posted] == ["patient"]


def test_a_409_for_an_older_score_is_final(limited_lms):
    session, token = launched(limited_lms, "overridden")
    newer = {"userId": "overridden", "scoreGiven": 0.5, "timestamp": "2999-01-01T00:00:00.000Z"}
    limited_lms.platform.gradebook[("backprop", "overridden")] = newer  # the teacher set a grade later
    verify(limited_lms, session, token, solutions.CORRECT)
    state = settled(limited_lms, session, token)
    assert state["state"] == "kept" and "already has a newer grade" in state["message"]
    assert grade(limited_lms, session, token, retry=True)["state"] == "kept"  # Retry does not send it again
    store = limited_lms.tools[0][1].extensions["lti"]["store"]
    assert store.due(now=None) == []  # nothing left to try
    assert limited_lms.platform.gradebook[("backprop", "overridden")] == newer
    other, other_token = launched(limited_lms, "plain")
    verify(limited_lms, other, other_token, solutions.CORRECT)
    assert settled(limited_lms, other, other_token)["state"] == "sent"


def test_forged_launches_fetch_the_lms_key_set_once(limited_lms):
    session, token = launched(limited_lms, "first")  # fetches the key set
    fetched = limited_lms.platform.key_set_fetches
    from tests.support.lti_platform import rsa_pair

    other_private, _ = rsa_pair()
    for n in range(10):
        session = requests.Session()
        session.headers.update(at(f"192.0.2.{n + 1}"))  # from many addresses: no rate limit in the way
        form = launch_form(session, login(session, limited_lms, limited_lms.tool_url, f"forger-{n}"))
        claims = jwt.decode(form["id_token"], options={"verify_signature": False})
        forged = jwt.encode(claims, other_private, "RS256", headers={"kid": f"unknown-{n}"})
        page = session.post(
            limited_lms.tool_url + "lti/launch", data={**form, "id_token": forged}, verify=limited_lms.ca_file
        )
        assert page.status_code == 400
    assert limited_lms.platform.key_set_fetches - fetched <= 1  # once per minute at most, whoever asks
    session, token = launched(limited_lms, "after")
    assert verify(limited_lms, session, token, solutions.CORRECT).json()["report"]["passed"] is True


READ = "The launch could not be read"
ODD = {  # the claim changed, the page's title and the words that name the claim (None: launched)
    "ags-null": (put(AGS, None), None, None),  # none: a launch without grades
    "ags-text": (put(AGS, "https://lms.example/lineitems"), READ, AGS),
    "context-list": (put(CONTEXT, ["course-1"]), READ, CONTEXT),
    "roles-text": (put(ROLES, "Learner"), READ, ROLES),
    "sub-number": (put("sub", 42), "The launch could not be checked", "Subject must be a string"),  # PyJWT's
    "sub-surrogate": (put("sub", "learner-\ud800"), READ, "sub"),  # text no UTF-8 encoder takes
    "sub-nul": (put("sub", "learner\x00"), READ, "sub"),  # text PostgreSQL does not keep
    "title-surrogate": (put(CONTEXT, {"id": "course-1", "title": "Backprop \udfff"}), READ, CONTEXT),
}


@pytest.mark.parametrize("case", ODD)
def test_a_launch_whose_claims_do_not_parse_gets_a_400_naming_the_claim(limited_lms, case):
    change, title, claim = ODD[case]
    session = requests.Session()
    form = altered(
        launch_form(session, login(session, limited_lms, limited_lms.tool_url, f"odd-{case}")),
        limited_lms,
        change,
    )
    page = session.post(limited_lms.tool_url + "lti/launch", data=form, verify=limited_lms.ca_file)
    if claim is None:
        assert page.status_code == 200 and '"grades": false' in page.text
    else:
        assert (page.status_code, refusal_title(page)) == (400, title)
        assert claim in page.text and not LAUNCH_TOKEN.search(page.text)
    session, token = launched(limited_lms, f"honest-{case}")
    assert token


def test_deep_linking_is_for_teachers_only(limited_lms):
    session = requests.Session()
    auth = login(
        session, limited_lms, limited_lms.tool_url, "learner-dl", lti_message_hint="deep-link-learner"
    )
    page = session.post(
        limited_lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=limited_lms.ca_file
    )
    assert (page.status_code, refusal_title(page)) == (403, "Only a teacher can add the exercise")
    assert 'name="offer"' not in page.text and limited_lms.platform.content_items == []
    auth = login(session, limited_lms, limited_lms.tool_url, "teacher-dl", lti_message_hint="deep-link")
    page = session.post(
        limited_lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=limited_lms.ca_file
    )
    assert page.status_code == 200 and 'name="offer"' in page.text


def test_the_database_is_readable_by_its_owner_only(limited_lms):
    launched(limited_lms, "someone")
    path = limited_lms.folder / "lti.sqlite3"
    for each in (path, path.with_name("lti.sqlite3-wal"), path.with_name("lti.sqlite3-shm")):
        if each.exists():
            assert stat.S_IMODE(each.stat().st_mode) == 0o600, each


@pytest.mark.parametrize("agent", ["MoodleBot/1.0 (+http://moodle.org)", "Mozilla/5.0"])
def test_a_get_to_the_launch_url_gets_a_page_that_says_to_open_it_from_the_course(limited_lms, agent):
    page = requests.get(
        limited_lms.tool_url + "lti/launch", verify=limited_lms.ca_file, headers={"User-Agent": agent}
    )
    assert page.status_code == 200 and refusal_title(page) == "Open the exercise from your course"
    assert "cookie" not in page.text.lower()


def test_the_tools_pages_and_answers_speak_the_learners_language(limited_lms):
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    page = requests.get(limited_lms.tool_url + "lti/launch", verify=limited_lms.ca_file, headers=german)
    assert refusal_title(page) == "Öffne die Übung aus deinem Kurs" and '<html lang="de">' in page.text
    refused = requests.post(
        limited_lms.tool_url + "lti/launch", data={}, verify=limited_lms.ca_file, headers=german
    )
    assert (refused.status_code, refusal_title(refused)) == (400, "Das ist kein Start aus einem Kurs")
    grade = requests.post(
        limited_lms.tool_url + "lti/grade?lang=de", json={"launch": "x"}, verify=limited_lms.ca_file
    )
    assert grade.json()["error"] == "Dieser Start ist abgelaufen; öffne die Übung noch einmal aus dem Kurs."


def run_command(args: list[str], env: dict) -> subprocess.CompletedProcess:
    flask = str(os.path.dirname(sys.executable) + "/flask")
    return subprocess.run(
        [flask, "--app", "server", *args],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_add_platform_takes_or_derives_the_public_url_and_says_which(tmp_path):
    env = {
        "PLAYGROUND_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PLAYGROUND_LTI_KEY_FILE": str(tmp_path / "k.pem"),
    }
    args = [
        "lti",
        "add-platform",
        "--issuer",
        "https://lms.example",
        "--client-id",
        "c",
        "--deployment-id",
        "1",
    ]
    args += ["--auth-login-url", "https://lms.example/auth", "--auth-token-url", "https://lms.example/token"]
    args += ["--key-set-url", "https://lms.example/jwks"]
    unknown = run_command(args, env).stdout
    assert (
        "127.0.0.1" not in unknown
        and "--tool-url" in unknown
        and "<the playground's public URL>/lti/login" in unknown
    )
    derived = run_command(
        args, {**env, "PLAYGROUND_SERVER_NAME": "play.example.org", "PLAYGROUND_APPLICATION_ROOT": "/ml/"}
    )
    assert (
        "https://play.example.org/ml/lti/login" in derived.stdout
        and "from PLAYGROUND_SERVER_NAME" in derived.stdout
    )
    given = run_command([*args, "--tool-url", "https://given.example/x"], env).stdout
    assert "https://given.example/x/lti/jwks.json" in given and "from --tool-url" in given


def test_lti_without_verification_says_what_to_set_in_one_line(tmp_path):
    env = {"PLAYGROUND_LTI": "1", "PLAYGROUND_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    done = run_command(["run", "--port", "0"], env)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "PLAYGROUND_LTI=1 needs PLAYGROUND_VERIFY=1" in line


def test_a_body_past_its_routes_limit_is_refused_at_once_in_the_routes_way(limited_lms):
    url, ca = limited_lms.tool_url, limited_lms.ca_file
    for path in ("/lti/login", "/lti/launch"):  # 200 MB said and none sent: a page, before anything is read
        status, kind, text = declared(url, path, 200 * 2**20, ca_file=ca, headers=at("203.0.113.30"))
        assert (status, kind.split(";")[0]) == (413, "text/html"), path
        assert "This request is not one an LMS sends" in text, path
    status, kind, text = unended(url, "/lti/grade", 64 * 2**10, ca_file=ca)  # chunked, no length said
    assert (status, kind) == (413, "application/json") and "limit of 4,096 bytes" in text
    session, token = launched(limited_lms, "after-a-flood")
    assert verify(limited_lms, session, token, solutions.CORRECT).json()["report"]["passed"] is True
    assert grade(limited_lms, session, token)["state"] in ("sending", "sent")


ODD_GRADE_BODIES = {  # a launch token no parser or database takes, or JSON no parser reads
    "surrogate": ('{"launch": "ey\\ud800"}', 400, "not text"),
    "nul": ('{"launch": "ey\\u0000"}', 400, "not text"),
    "nested-1500": ('{"launch": ' + "[" * 1_500 + "]" * 1_500 + "}", 400, "nested too deep"),  # in 4 kB
    "nested-50000": ('{"launch": ' + "[" * 50_000 + "]" * 50_000 + "}", 413, "limit of 4,096 bytes"),
}


def test_odd_json_at_lti_grade_is_a_400_that_says_why(limited_lms):
    for case, (body, status, said) in ODD_GRADE_BODIES.items():
        answer = requests.post(
            limited_lms.tool_url + "lti/grade",
            data=body,
            headers={"Content-Type": "application/json"},
            verify=limited_lms.ca_file,
        )
        assert (answer.status_code, answer.headers["Content-Type"]) == (status, "application/json"), case
        assert said in answer.json()["error"], case
    session, token = launched(limited_lms, "after-odd-json")
    assert grade(limited_lms, session, token)["state"] == "none"


def test_a_forged_launch_with_a_nonce_no_database_keeps_gets_a_page(limited_lms):
    from tests.support.lti_platform import rsa_pair

    other_private, _ = rsa_pair()
    for n, nonce in enumerate(["\ud800-nonce", "nonce-\x00"]):
        session = requests.Session()
        session.headers.update(at(f"192.0.2.{n + 50}"))
        form = launch_form(session, login(session, limited_lms, limited_lms.tool_url, f"nonce-{n}"))
        claims = jwt.decode(form["id_token"], options={"verify_signature": False})
        forged = jwt.encode({**claims, "nonce": nonce}, other_private, "RS256")  # not the platform's key
        page = session.post(
            limited_lms.tool_url + "lti/launch", data={**form, "id_token": forged}, verify=limited_lms.ca_file
        )
        assert (page.status_code, refusal_title(page)) == (400, READ) and "nonce" in page.text
    session, token = launched(limited_lms, "after-odd-nonces")
    assert token


BAD_RETURN_URLS = [
    "/lms/deep-link-return",  # relative: form-action would name no origin
    "https://lms.example;script-src *",  # a ; would add a directive to the CSP
    "https://lms.example\\@evil.example/",  # a backslash: the browser and a parser disagree on the host
    "https://someone@lms.example/return",  # user info before the host
    "javascript:alert(1)",
    "ftp://lms.example/return",
]


def test_a_deep_linking_return_url_must_be_a_web_address_and_the_csp_names_its_origin(limited_lms):
    session = requests.Session()

    def deep_link_launch(n: int, change=None) -> requests.Response:
        session.headers.update(at(f"198.51.100.{n + 60}"))
        auth = login(session, limited_lms, limited_lms.tool_url, f"teacher-{n}", lti_message_hint="deep-link")
        form = launch_form(session, auth)
        if change is not None:
            form = altered(form, limited_lms, change)
        return session.post(limited_lms.tool_url + "lti/launch", data=form, verify=limited_lms.ca_file)

    def returning(url: str):
        return lambda claims: claims[DEEP_LINKING].__setitem__("deep_link_return_url", url)

    for n, url in enumerate(BAD_RETURN_URLS):
        page = deep_link_launch(n, returning(url))
        assert (page.status_code, refusal_title(page)) == (400, READ), url
        assert DEEP_LINKING in page.text and 'name="offer"' not in page.text, url
    good = limited_lms.platform.url + "deep-link-return?a=1;b"  # a ; in its query: no directive
    page = deep_link_launch(len(BAD_RETURN_URLS), returning(good))
    assert page.status_code == 200 and 'name="offer"' in page.text
    policy = page.headers["Content-Security-Policy"].split("; ")
    assert [d for d in policy if d.startswith("form-action")] == ["form-action 'self'"]  # the choice: here
    _, fields = form_of(page)
    choice = fields | {
        "exercise": "backward",
        "verdict": "seed",
        "language": "",
    }  # the first page's, then these
    page = session.post(limited_lms.tool_url + "lti/deep-link", data=choice, verify=limited_lms.ca_file)
    assert page.status_code == 200 and 'name="JWT"' in page.text
    policy = page.headers["Content-Security-Policy"].split("; ")
    assert [d for d in policy if d.startswith("form-action")] == [f"form-action {limited_lms.issuer}"]
