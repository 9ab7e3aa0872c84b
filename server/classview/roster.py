"""A course's roster from its LMS, for the class view's "who has not opened it yet": LTI Names and Role
Provisioning Services (NRPS) through pylti1p3, read by a task on the queue (kept.py keeps it).

The memberships URL is the launch's NRPS claim (`context_memberships_url`); the tool asks for a token
with the registration stored for the platform and the tool's key, as the grade passback does, then reads
the pages the LMS sends (its `Link: <...>; rel="next"` header), each request bounded by TimeoutSession's
limit and ROSTER_PAGE_BYTES, no redirect followed, the whole by ROSTER_DEADLINE_S and ROSTER_PAGES. A
next page is asked for only at the memberships URL's own scheme, host and port, and no page at an
address server/http/addresses.py refuses (a private one, unless LTI_PRIVATE_ADDRESSES). Every page must be a
JSON object whose `members` is a list of objects, each with a string `user_id` and a list of string
`roles`: anything else is a roster that could not be read, never a partial one. A member is kept as its
`sub`, its name only where the LMS gives one, and its roles; members the LMS marks Inactive or Deleted
are left out. What goes wrong is a RosterError whose message says what, in one line.
"""

import time

from flask import current_app
from pylti1p3.contrib.flask import FlaskServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.utils import add_param_to_url
from requests import RequestException

from server.http.addresses import origin, refusal
from server.lti.tool import TimeoutSession, registration_of

ROSTER_DEADLINE_S = 30.0  # no new page is asked for after this long
ROSTER_PAGES = 200  # at most this many pages (an LMS's pages hold 10 to 100 members)
ROSTER_PAGE_BYTES = 4_000_000  # a page's body, at most (100 members are some 30 kB)
SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
ACCEPT = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"


class RosterError(Exception):
    """Why a roster could not be had, in one line."""


class RosterSession(TimeoutSession):
    """The roster's requests: no redirect followed, a body of ROSTER_PAGE_BYTES at most."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        kwargs["stream"] = True
        response = super().request(*args, **kwargs)
        with response:
            body = response.raw.read(ROSTER_PAGE_BYTES + 1, decode_content=True)
        if len(body) > ROSTER_PAGE_BYTES:
            raise RosterError(f"a page of the LMS's roster is over {ROSTER_PAGE_BYTES:,} bytes")
        response._content, response._content_consumed = body, True
        return response


def member(raw: object) -> dict | None:
    """A member as the class view keeps it, or None (not active); RosterError: not a member at all."""
    if not isinstance(raw, dict) or not isinstance(raw.get("user_id"), str):
        raise RosterError("a member is not an object with a string user_id")
    roles = raw.get("roles")
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise RosterError("a member's roles are not a list of strings")
    if raw.get("status", "Active") != "Active":
        return None
    parts = [raw.get(part) for part in ("given_name", "family_name")]
    name = raw.get("name") or " ".join(p for p in parts if isinstance(p, str) and p) or None
    return {"sub": raw["user_id"], "name": name if isinstance(name, str) else None, "roles": roles}


def members_of(page: object) -> list[dict]:
    """A page's active members (RosterError: the page is not NRPS's membership container)."""
    if not isinstance(page, dict) or not isinstance(page.get("members"), list):
        raise RosterError("a page is not a JSON object with a list of members")
    return [m for m in map(member, page["members"]) if m]


def checked(url: str, memberships_url: str) -> str:
    """The URL, if a page may be asked for there (else RosterError)."""
    if origin(url) != origin(memberships_url):
        raise RosterError(f"the LMS named its next page at another host ({url[:100]}): not followed")
    if why := refusal(url, bool(current_app.config["LTI_PRIVATE_ADDRESSES"])):
        raise RosterError(f"not asked: {why}")
    return url


def read_pages(issuer: str, client_id: str, memberships_url: str, resource_link_id: str | None):
    """Every active member the LMS lists, page after page (RosterError, or what requests and pylti1p3
    raise)."""
    from server.lti import state

    parts = state()
    registration = parts["store"].registration(issuer, client_id)
    if registration is None:
        raise RosterError(f"no registration of {issuer} (client id {client_id})")
    url: str | None = memberships_url
    if resource_link_id:
        url = add_param_to_url(memberships_url, "rlid", resource_link_id)
    deadline, members = time.monotonic() + ROSTER_DEADLINE_S, []
    with RosterSession() as session:
        tool = registration_of(registration, parts["keys"])
        connector = FlaskServiceConnector(tool, requests_session=session)
        for _ in range(ROSTER_PAGES):
            if url is None:
                return members
            if time.monotonic() > deadline:
                break
            page = connector.make_service_request([SCOPE], checked(url, memberships_url), accept=ACCEPT)
            members += members_of(page["body"])  # None: an empty body
            url = page["next_page_url"]
    raise RosterError(f"it did not end within {ROSTER_PAGES} pages or {ROSTER_DEADLINE_S:.0f} s")


def fetch(issuer: str, client_id: str, memberships_url: str, resource_link_id: str | None) -> list[dict]:
    """The course's active members from the LMS (RosterError, in one line, whatever went wrong)."""
    try:
        return read_pages(issuer, client_id, memberships_url, resource_link_id)
    except RosterError as exc:
        raise RosterError(line(f"the LMS's roster could not be read: {exc}")) from None
    except LtiServiceException as exc:
        status = exc.response.status_code
        why = f"the LMS answered {status} to the roster request{said(exc.response)}"
        raise RosterError(line(why)) from None
    except (LtiException, RequestException, ValueError, KeyError, TypeError) as exc:
        raise RosterError(line(f"the LMS's roster could not be read: {type(exc).__name__}: {exc}")) from None


def said(response) -> str:
    """A platform's answer's first words, on the same line."""
    text = " ".join(response.text.split())[:120]
    return f": {text}" if text else ""


def line(why: str) -> str:
    return " ".join(why.split())[:300]
