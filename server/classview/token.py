"""The teacher's token: what authorises every page of the class view, signed with the tool's key.

A teacher's launch makes it; the class view's links and forms carry it (no cookie: it works in an LMS's
frame with third-party cookies blocked, and in a window of its own). It names the activity the class view
shows, (issuer, course = the LTI context's id, activity = the resource link's id), and what the view needs
besides (the client id and the roster's URL for NRPS, the launch's deployment, its language, the
teacher's launch, whose row holds the titles: never the titles themselves, which would make every address
as long), and expires; before then it ends as soon as its LMS's registration (or that deployment) is
removed: the class view checks them on every request (views.py's authorised).
"""

import jwt

from server.lti.tool import ToolKeys

AUDIENCE = "backprop-playground:class-view"
SCOPE = ("issuer", "course", "activity", "client_id")  # what every teacher's token names, as text


def teacher_token(keys: ToolKeys, view: dict, lifetime_s: int) -> str:
    """A signed token for the class view of view's activity (its SCOPE, and memberships, locale, launch)."""
    return keys.signed(view, AUDIENCE, lifetime_s)


def view_of(keys: ToolKeys, token: str) -> dict | None:
    """What a teacher's token names, once its signature, expiry, issuer and audience hold; else None."""
    try:
        claims = keys.checked(token, AUDIENCE, list(SCOPE))
    except jwt.PyJWTError:
        return None
    if not all(isinstance(claims[name], str) for name in SCOPE):
        return None
    return claims
