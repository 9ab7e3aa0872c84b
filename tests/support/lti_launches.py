"""LTI launches from the test platform as a learner's browser makes them, the tool's answers to them
(the launch token, verification, the grade), and launches altered as a forger would."""

import base64
import html
import json
import re
import time
from urllib.parse import urljoin

import jwt
import requests
from sqlalchemy import create_engine, select

from server.db.tables import attempts
from server.exercises.registry import LEGACY
from server.lti.deep_linking import WHOLE_COURSE
from tests.support.lti import launch_form, login

LAUNCH_TOKEN = re.compile(r'"launch": "(?P<token>[^"]+)"')


def launched(lms, user: str) -> tuple[requests.Session, str]:
    """Launch as user from the platform; return the session and the page's launch token."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, user))
    page = session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)
    assert page.status_code == 200, page.text
    return session, LAUNCH_TOKEN.search(page.text)["token"]


def launched_link(lms, user: str, link: str) -> tuple[requests.Session, requests.Response]:
    """Launch resource link link as user from the platform; return the session and the tool's answer."""
    session = requests.Session()
    form = launch_form(session, login(session, lms, lms.tool_url, user, lti_message_hint=link))
    return session, session.post(lms.tool_url + "lti/launch", data=form, verify=lms.ca_file)


def form_of(page: requests.Response) -> tuple[str, dict]:
    """The page's (first) form: its action and its hidden fields."""
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)"', page.text)[1])
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page.text)
    return action, {name: html.unescape(value) for name, value in hidden}


def deep_link(
    lms, user: str = "teacher-1", exercise: str = LEGACY, **choice: str
) -> tuple[requests.Session, requests.Response]:
    """A teacher's Deep Linking launch, their choice on the tool's pages posted back to the tool: the
    exercise (its id, on the first page), then its verdict and language (the page's defaults, and choice;
    choice's exercise or offer, where given, in place of the page's); return the session and the page that
    sends the signed response to the LMS (or the tool's refusal)."""
    session = requests.Session()
    auth = login(session, lms, lms.tool_url, user, lti_message_hint="deep-link")
    page = session.post(lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=lms.ca_file)
    assert page.status_code == 200, page.text
    action, fields = form_of(page)
    if 'type="radio" name="exercise"' in page.text:  # the served exercises offered: choose one first
        forged = {k: v for k, v in choice.items() if k == "offer"}
        step = fields | {"exercise": exercise} | forged
        page = session.post(urljoin(page.url, action), data=step, verify=lms.ca_file)
        if page.status_code != 200:
            return session, page
        action, fields = form_of(page)
    checked = dict(re.findall(r'name="(verdict|language)" value="([^"]*)" checked', page.text))
    chosen = session.post(urljoin(page.url, action), data=fields | checked | choice, verify=lms.ca_file)
    return session, chosen


def added(lms, **choice: str) -> str:
    """Add an activity by Deep Linking with choice (deep_link's); return its resource link id at the
    platform."""
    session, page = deep_link(lms, **choice)
    assert page.status_code == 200, page.text
    action, fields = form_of(page)
    assert session.post(action, data={"JWT": fields["JWT"]}).status_code == 200
    return list(lms.platform.links)[-1]


def first_page(lms, user: str = "teacher-1") -> tuple[requests.Session, requests.Response]:
    """A teacher's Deep Linking launch: the first page they get (the served exercises, and the course)."""
    session = requests.Session()
    auth = login(session, lms, lms.tool_url, user, lti_message_hint="deep-link")
    page = session.post(lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=lms.ca_file)
    assert page.status_code == 200, page.text
    return session, page


def post(lms, session, page: requests.Response, fields: dict) -> requests.Response:
    """Post the page's (first) form, its hidden fields and fields."""
    action, hidden = form_of(page)
    return session.post(urljoin(page.url, action), data=hidden | fields, verify=lms.ca_file)


def add_course(lms, language: str = "") -> list[str]:
    """Add the whole course by one Deep Linking; return the new activities' resource link ids, in order."""
    before = len(lms.platform.links)
    session, page = first_page(lms)
    page = post(lms, session, page, {"exercise": WHOLE_COURSE})
    assert page.status_code == 200, page.text
    page = post(lms, session, page, {"language": language})
    assert page.status_code == 200, page.text
    action, fields = form_of(page)
    assert session.post(action, data={"JWT": fields["JWT"]}).status_code == 200
    return list(lms.platform.links)[before:]


def table(lms, query) -> list[dict]:
    """The rows a query reads from the tool's database."""
    engine = create_engine(lms.database_url)
    try:
        with engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
    finally:
        engine.dispose()


def recorded_checks(lms, sub: str, timeout: float = 60) -> list[dict]:
    """sub's recorded Checks (the attempts' rows), once none is queued."""
    deadline = time.monotonic() + timeout
    query = select(attempts).where(attempts.c.sub == sub).order_by(attempts.c.id)
    found = table(lms, query)
    while any(r["state"] == "queued" for r in found):
        assert time.monotonic() < deadline, found
        time.sleep(0.05)
        found = table(lms, query)
    return found


def verify(lms, session: requests.Session, token: str, source: str) -> requests.Response:
    return session.post(lms.tool_url + "verify", json={"source": source, "launch": token}, verify=lms.ca_file)


def grade(lms, session: requests.Session, token: str, retry: bool = False) -> dict:
    """What lti/grade says of the launch's grade now (with retry: after asking to send it again)."""
    body = {"launch": token, "retry": retry}
    answer = session.post(lms.tool_url + "lti/grade", json=body, verify=lms.ca_file)
    assert answer.status_code == 200, answer.text
    return answer.json()


def settled(lms, session: requests.Session, token: str, timeout: float = 60) -> dict:
    """The grade's state once the queue is done with it (asked every 50 ms; the page asks every second)."""
    deadline = time.monotonic() + timeout
    while (state := grade(lms, session, token))["state"] == "sending":
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    return state


def altered(form: dict, lms, change) -> dict:
    """The form with its id_token's claims changed and signed again with the platform's key."""
    claims = jwt.decode(form["id_token"], options={"verify_signature": False})
    change(claims)
    return {**form, "id_token": lms.platform.sign(claims, expiration=None)}


def tampered(form: dict, lms) -> dict:
    """The form with its id_token's payload changed and the platform's signature kept."""
    header, payload, signature = form["id_token"].split(".")
    claims = jwt.decode(form["id_token"], options={"verify_signature": False})
    claims["sub"] = "someone-else"
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return {**form, "id_token": f"{header}.{payload}.{signature}"}


def drop(claim: str):
    return lambda claims: claims.pop(claim)


def put(claim: str, value):
    return lambda claims: claims.__setitem__(claim, value)


def refusal_title(page: requests.Response) -> str:
    return html.unescape(re.search(r"<h1>(.*?)</h1>", page.text)[1])
