"""The launch's claims the tool reads, checked for their kind before use; who may add the exercise.

A launch pylti1p3 accepted is signed by the platform, but its claims may still be of a kind the tool
cannot read (a grade endpoint that is null or text, a context that is a list): check_claims names
the first such claim, and the launch gets a 400 page saying so instead of a 500.
"""

from collections.abc import Callable

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
DEPLOYMENT = LTI + "deployment_id"
RESOURCE_LINK = LTI + "resource_link"
CONTEXT = LTI + "context"
ROLES = LTI + "roles"
PRESENTATION = LTI + "launch_presentation"  # its locale: the page's language
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
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def kind(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
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
        need(data, DEEP_LINKING, member("deep_link_return_url", text, False), "an object with a return URL")
        return
    need(data, RESOURCE_LINK, member("id", text, False), "an object with the activity's id")
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


def grade_service(value: object) -> bool:
    """Whether the AGS claim is none, or an object with a line item URL (or none) and a list of scopes."""
    return value is None or (member("lineitem", text)(value) and member("scope", texts)(value))


def may_deep_link(data: dict) -> bool:
    """Whether the launch's learner may add the exercise to a course: an instructor or an administrator."""
    return any(role in TEACHING_ROLES for role in data.get(ROLES) or [])
