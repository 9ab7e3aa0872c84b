"""A course's roster from its LMS, for the class view's "who has not opened it yet": LTI Names and Role
Provisioning Services (NRPS) through pylti1p3.

The memberships URL is the launch's NRPS claim (`context_memberships_url`); the tool asks for a token
with the registration stored for the platform and the tool's key, as the grade passback does, then reads
the pages the LMS sends (its `Link: <...>; rel="next"` header), each request bounded by TimeoutSession's
limit and the whole by ROSTER_DEADLINE_S and ROSTER_PAGES. A member is kept as its `sub`, its name only
where the LMS gives one, and its roles; members the LMS marks Inactive or Deleted are left out. The
roster is kept ROSTER_S in the store's one-time values (every process shares it), keyed by the issuer,
the memberships URL (which names the course) and the resource link. Anything that goes wrong gives an
empty roster with one line saying what, logged, and is not kept: the next view asks again.
"""

import hashlib
import logging
import time
from dataclasses import dataclass, field

from pylti1p3.contrib.flask import FlaskServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.utils import add_param_to_url
from requests import RequestException

from server.lti.tool import TimeoutSession, registration_of

log = logging.getLogger(__name__)
ROSTER_S = 300  # a roster is kept this long: a class view's reloads ask the LMS once
ROSTER_DEADLINE_S = 30.0  # no new page is asked for after this long
ROSTER_PAGES = 200  # at most this many pages (an LMS's pages hold 10 to 100 members)


@dataclass(frozen=True)
class Roster:
    """The members an LMS lists for a course (sub, name or None, roles), or none and why (error)."""

    members: list[dict] = field(default_factory=list)
    error: str | None = None


class RosterError(Exception):
    """Why a roster could not be had, in one line."""


def roster_key(issuer: str, memberships_url: str, resource_link_id: str | None) -> str:
    digest = hashlib.sha256(f"{issuer}\n{memberships_url}\n{resource_link_id or ''}".encode()).hexdigest()
    return f"roster-{digest[:40]}"


def member(raw: dict) -> dict | None:
    """A member as the class view keeps it, or None: not active, or no user id."""
    if raw.get("status", "Active") != "Active" or not isinstance(raw.get("user_id"), str):
        return None
    parts = [raw.get(part) for part in ("given_name", "family_name")]
    name = raw.get("name") or " ".join(p for p in parts if isinstance(p, str) and p) or None
    roles = [r for r in raw.get("roles", []) if isinstance(r, str)]
    return {"sub": raw["user_id"], "name": name if isinstance(name, str) else None, "roles": roles}


def fetch(store, keys, issuer: str, client_id: str, memberships_url: str, resource_link_id: str | None):
    """Every active member the LMS lists, page after page (or RosterError)."""
    registration = store.registration(issuer, client_id)
    if registration is None:
        raise RosterError(f"no registration of {issuer} (client id {client_id})")
    url: str | None = memberships_url
    if resource_link_id:
        url = add_param_to_url(memberships_url, "rlid", resource_link_id)
    deadline, members = time.monotonic() + ROSTER_DEADLINE_S, []
    with TimeoutSession() as session:
        connector = FlaskServiceConnector(registration_of(registration, keys), requests_session=session)
        service = NamesRolesProvisioningService(connector, {"context_memberships_url": memberships_url})
        for _ in range(ROSTER_PAGES):
            if url is None:
                return members
            if time.monotonic() > deadline:
                break
            page, url = service.get_members_page(url)
            members += [m for m in map(member, page if isinstance(page, list) else []) if m]
    raise RosterError(
        f"the LMS's roster did not end within {ROSTER_PAGES} pages or {ROSTER_DEADLINE_S:.0f} s"
    )


def roster(issuer: str, client_id: str, memberships_url: str, resource_link_id: str | None) -> Roster:
    """The course's roster, kept ROSTER_S (see the module's docstring); a failure: no members, and why."""
    from server.lti import state

    parts = state()
    key = roster_key(issuer, memberships_url, resource_link_id)
    kept = parts["store"].get(key)
    if kept is not None:
        return Roster(members=kept)
    try:
        members = fetch(parts["store"], parts["keys"], issuer, client_id, memberships_url, resource_link_id)
    except LtiServiceException as exc:
        status = exc.response.status_code
        return failed(issuer, f"the LMS answered {status} to the roster request{said(exc.response)}")
    except (LtiException, RequestException, RosterError, ValueError, KeyError, TypeError) as exc:
        return failed(issuer, f"the LMS's roster could not be read: {type(exc).__name__}: {exc}")
    parts["store"].put(key, members, ROSTER_S)
    return Roster(members=members)


def said(response) -> str:
    """A platform's answer's first words, on the same line."""
    text = " ".join(response.text.split())[:120]
    return f": {text}" if text else ""


def failed(issuer: str, why: str) -> Roster:
    line = " ".join(why.split())[:300]
    log.warning("roster of %s: %s", issuer, line)
    return Roster(members=[], error=line)
