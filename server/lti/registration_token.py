"""A registration URL's one-time token: made (kept hashed in the database's `once` table, good for TOKEN_S),
checked, and claimed by one request, which uses it up (server/lti/registration.py says when).

A token's record: when it expires, the issuer it is bound to (the first platform whose configuration
checked out), when it was used (claimed), and what became of that registration (outcome: registering,
registered, refused). It is claimed by a compare-and-swap of that record (Store.swap), so that of two
requests that read it at once only one goes on.
"""

import hashlib
import re
import secrets
import time

from engine.words import N_
from server.lti.openid import MAKE_ANOTHER, RegistrationError
from server.lti.store import Store

TOKEN_S = 24 * 3600  # a registration URL works once, within a day of being made
KEPT_S = 7 * 24 * 3600  # a token's record is kept this long past its expiry, to say "used" or "expired"
PREFIX = "registration-token-"
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")


def token_key(token: str) -> str:
    """Where a token's record is kept: under its SHA-256, never the token itself."""
    return PREFIX + hashlib.sha256(token.encode()).hexdigest()


def when(seconds: float) -> str:
    """A moment as the pages and the command say it: 2026-12-05 20:45 UTC."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def make_token(store: Store) -> tuple[str, float]:
    """A new one-time registration token and when it expires (Unix seconds)."""
    token = secrets.token_urlsafe(32)
    expires = time.time() + TOKEN_S
    held = {"expires": expires, "issuer": None, "used": None, "outcome": None}
    store.put(token_key(token), held, TOKEN_S + KEPT_S)
    return token, expires


def keep(store: Store, token: str, held: dict) -> None:
    """Keep a token's record as it now is, until KEPT_S past its expiry."""
    store.put(token_key(token), held, held["expires"] + KEPT_S - time.time())


def refused_token(title: str, detail: str, **params: object) -> RegistrationError:
    return RegistrationError(403, title, detail, command=MAKE_ANOTHER, **params)


# What a used token's page says, by what became of its registration (its record's outcome).
USED = {
    "registered": N_(
        "It registered %(issuer)s on %(when)s, and a registration URL works once. "
        "To register another LMS, make a new one with `%(command)s`."
    ),
    "registering": N_(
        "%(issuer)s has been registering with it since %(when)s, and a registration URL works once. "
        "To register another LMS, make a new one with `%(command)s`."
    ),
    "refused": N_(
        "%(issuer)s refused the registration sent with it on %(when)s, and a registration URL works once, "
        "taken or refused. Make a new one with `%(command)s` and start again from the LMS."
    ),
}


def held_token(store: Store, token: str) -> dict:
    """The record of a token that may still register a platform, or RegistrationError saying why not."""
    if not token:
        raise refused_token(
            N_("This registration URL has no token"),
            N_(
                "A registration URL carries a token that lets one LMS register. Make one on the "
                "playground's server with `%(command)s` and paste the whole URL into the LMS."
            ),
        )
    held = store.get(token_key(token)) if TOKEN.fullmatch(token) else None
    if not isinstance(held, dict):
        raise refused_token(
            N_("This registration URL is not one the playground made"),
            N_(
                "Its token is unknown here: mistyped, cut short, or expired more than a week ago. "
                "Make a new one with `%(command)s`."
            ),
        )
    if held["used"]:
        raise refused_token(
            N_("This registration URL was already used"),
            USED[held.get("outcome") or "registered"],
            issuer=held["issuer"],
            when=when(held["used"]),
        )
    if time.time() > held["expires"]:
        raise refused_token(
            N_("This registration URL has expired"),
            N_("It worked until %(when)s. Make a new one with `%(command)s`."),
            when=when(held["expires"]),
        )
    return held


def claim(store: Store, token: str, held: dict, issuer: str) -> dict:
    """Take the token for this platform's registration, used from now on: one request wins it (its record
    swapped from what this request read), another is told why not."""
    if held["issuer"] not in (None, issuer):
        raise made_for_another(held["issuer"])
    claimed = held | {"issuer": issuer, "used": time.time(), "outcome": "registering"}
    if store.swap(token_key(token), held, claimed):
        return claimed
    now = held_token(store, token)  # another request changed it: used (most likely), expired...
    if now["issuer"] not in (None, issuer):
        raise made_for_another(now["issuer"])
    raise RegistrationError(
        409,
        N_("This registration URL is in use right now"),
        N_("Another registration with it is under way. Wait a minute, then start again from the LMS."),
    )


def made_for_another(issuer: str) -> RegistrationError:
    return refused_token(
        N_("This registration URL was made for another LMS"),
        N_(
            "%(issuer)s started a registration with it first, and only that LMS may use it. "
            "To register this LMS, make a new one with `%(command)s`."
        ),
        issuer=issuer,
    )
