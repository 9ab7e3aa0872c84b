"""The launch's claims the tool reads, checked for their kind before use; who may add the exercise.

A launch pylti1p3 accepted is signed by the platform, but its claims may still be of a kind the tool
cannot read (a grade endpoint that is null or text, a context that is a list, a title with a lone
surrogate, a Deep Linking return URL that is not a web address): check_claims names the first such
claim, and the launch gets a 400 page saying so instead of a 500. check_texts, run on every launch as
soon as it is decoded (server/lti/oidc.py), before its nonce or issuer is looked up, refuses text the
database cannot keep (a NUL, a lone surrogate) even in a launch whose signature is not yet checked.
"""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

from server.http.bounds import keepable, unkeepable

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
DEPLOYMENT = LTI + "deployment_id"
RESOURCE_LINK = LTI + "resource_link"
CONTEXT = LTI + "context"
ROLES = LTI + "roles"
PRESENTATION = LTI + "launch_presentation"  # its locale: the page's language
CUSTOM = LTI + "custom"  # the activity's custom parameters: the teacher's choice (server/lti/activity.py)
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
MAX_TEXT = 1024  # characters of any text claim the tool keeps

# The roles that may add the exercise to a course (Deep Linking): the course's instructors, the LMS's
# administrators. LTI 1.3 allows a context role's short name too.
LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
TEACHING_ROLES = frozenset(
    {
        LIS + "membership#Instructor",
        LIS + "membership#Administrator",
        LIS + "institution/person#Administrator",
        LIS + "system/person#Administrator",
        LIS + "system/person#SysAdmin",
        "Instructor",
        "Administrator",
    }
)


class ClaimError(ValueError):
    """A claim is missing or of a kind the tool cannot read (the message names it)."""


def text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT and keepable(value)


# A host as a CSP source and a browser read it alike: a name or an IPv4 address, or an IPv6 one in brackets.
PLAIN_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\]")
# Characters a URL may hold as written (printable ASCII, no backslash, quote or angle bracket).
URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]+")


def web_origin(url: object) -> str | None:
    """The origin (https://host:port) of an absolute http(s) URL with a plain host, or None for any other."""
    if not text(url) or not URL_CHARS.fullmatch(str(url)):
        return None
    parts = urlsplit(str(url))
    try:
        port = parts.port
    except ValueError:
        return None
    host = parts.netloc.rpartition(":")[0] if port is not None else parts.netloc
    if parts.scheme.lower() not in ("http", "https") or not PLAIN_HOST.fullmatch(host.lower()):
        return None  # a relative URL, another scheme, user info before the host, an odd host
    return f"{parts.scheme.lower()}://{host.lower()}" + (f":{port}" if port is not None else "")


def texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and keepable(v) for v in value)


def kind(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, str) and not keepable(value):
        return "a text with a character no database keeps (a lone surrogate or a NUL)"
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return f"a text of {len(value):,} characters"
    return {bool: "true or false", int: "a number", float: "a number", str: "a text", list: "a list"}.get(
        type(value), "an object"
    )


def need(data: dict, claim: str, ok: Callable[[object], bool], wanted: str, optional: bool = False) -> None:
    """Raise ClaimError naming claim unless its value is ok (or, when optional, absent)."""
    if claim not in data:
        if optional:
            return
        raise ClaimError(f"The LMS's launch has no claim {claim}; the tool needs {wanted}.")
    if not ok(data[claim]):
        raise ClaimError(
            f"The LMS's launch has a claim {claim} that is {kind(data[claim])}; the tool needs {wanted}."
        )


def member(key: str, ok: Callable[[object], bool], optional: bool = True) -> Callable[[object], bool]:
    """An object whose key is ok (or absent, when optional)."""
    return lambda v: isinstance(v, dict) and ((optional and v.get(key) is None) or ok(v.get(key)))


def check_claims(data: dict) -> None:
    """Check every claim the tool reads is of the kind it reads; raise ClaimError naming the first not."""
    need(data, "sub", text, f"the learner's id, a text of 1 to {MAX_TEXT:,} characters")
    need(data, MESSAGE_TYPE, text, "the message's type, a text")
    need(data, DEPLOYMENT, text, "the deployment's id, a text")
    need(data, ROLES, texts, "a list of roles (texts)", optional=True)
    if data[MESSAGE_TYPE] == "LtiDeepLinkingRequest":
        need(
            data,
            DEEP_LINKING,
            member("deep_link_return_url", lambda url: web_origin(url) is not None, False),
            "an object with a return URL, an absolute http(s) URL with a plain host",
        )
        return
    need(data, RESOURCE_LINK, member("id", text, False), "an object with the activity's id")
    need(
        data,
        CUSTOM,
        lambda v: v is None or isinstance(v, dict),
        "an object (the activity's custom parameters)",
        True,
    )
    context_ok = member("title", text)
    need(
        data,
        CONTEXT,
        lambda v: v is None or (context_ok(v) and member("label", text)(v)),
        "an object (the course)",
        optional=True,
    )
    need(
        data,
        AGS,
        grade_service,
        "an object with a line item URL and a list of scopes (or none)",
        optional=True,
    )


def check_texts(data: dict) -> None:
    """Raise ClaimError naming the first claim with text no database keeps (a NUL, a lone surrogate)."""
    for claim, value in data.items():
        if not keepable(claim) or unkeepable(value):
            raise ClaimError(
                f"The LMS's launch has a claim {claim!a} with a character no database keeps "
                "(a lone surrogate or a NUL)."
            )


def grade_service(value: object) -> bool:
    """Whether the AGS claim is none, or an object with a line item URL (or none) and a list of scopes."""
    return value is None or (member("lineitem", text)(value) and member("scope", texts)(value))


def may_deep_link(data: dict) -> bool:
    """Whether the launch's learner may add the exercise to a course: an instructor or an administrator."""
    return any(role in TEACHING_ROLES for role in data.get(ROLES) or [])


def shared_name(data: dict) -> str | None:
    """The learner's name where the launch shares one (name, or given and family name), else None."""
    name = data.get("name")
    if not text(name):
        parts = [data.get(k) for k in ("given_name", "family_name")]
        name = " ".join(p.strip() for p in parts if text(p) and p.strip())
    return name.strip() if isinstance(name, str) and name.strip() and len(name) <= MAX_TEXT else None
