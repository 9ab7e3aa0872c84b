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


def deep_link(lms, user: str = "teacher-1", **choice: str) -> tuple[requests.Session, requests.Response]:
    """A teacher's Deep Linking launch, their choice on the tool's page (its defaults, and choice) posted
    back to the tool; return the session and the page that sends the signed response to the LMS."""
    session = requests.Session()
    auth = login(session, lms, lms.tool_url, user, lti_message_hint="deep-link")
    page = session.post(lms.tool_url + "lti/launch", data=launch_form(session, auth), verify=lms.ca_file)
    assert page.status_code == 200, page.text
    action, fields = form_of(page)
    checked = dict(re.findall(r'name="(verdict|language)" value="([^"]*)" checked', page.text))
    chosen = session.post(urljoin(page.url, action), data=fields | checked | choice, verify=lms.ca_file)
    return session, chosen


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
