"""The teacher's token: what authorises every page of the class view, signed with the tool's key.

A teacher's launch makes it; the class view's links and forms carry it (no cookie: it works in an LMS's
frame with third-party cookies blocked, and in a window of its own). It names the activity the class view
shows, (issuer, course = the LTI context's id, activity = the resource link's id), and what the view needs
besides (the client id and the roster's URL for NRPS, the launch's language, the titles), and expires.
"""

import time
import uuid

import jwt

from server.lti.tool import LAUNCH_TOKEN_ISSUER, ToolKeys

AUDIENCE = "backprop-playground:class-view"
SCOPE = ("issuer", "course", "activity", "client_id")  # what every teacher's token names, as text


def teacher_token(keys: ToolKeys, view: dict, lifetime_s: int) -> str:
    """A signed token for the class view of view's activity (its SCOPE, and memberships, locale, titles)."""
    now = int(time.time())
    claims = {"iss": LAUNCH_TOKEN_ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + lifetime_s}
    return jwt.encode({**view, **claims, "jti": uuid.uuid4().hex}, keys.private_pem, "RS256")


def view_of(keys: ToolKeys, token: str) -> dict | None:
    """What a teacher's token names, once its signature, expiry, issuer and audience hold; else None."""
    try:
        claims = jwt.decode(
            token,
            keys.public_pem,
            algorithms=["RS256"],
            audience=AUDIENCE,
            issuer=LAUNCH_TOKEN_ISSUER,
            options={"require": ["exp", *SCOPE]},
        )
    except jwt.PyJWTError:
        return None
    if not all(isinstance(claims[name], str) for name in SCOPE):
        return None
    return claims
