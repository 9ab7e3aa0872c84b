"""A launch's course roles: who is a teacher (the class view), a learner (the class), a tutor (no Delete).

Who gets the class view: a launch by one of the course's teachers, by its membership roles only.

An LMS's institution and system roles (an administrator of the whole site, say) say nothing of this course:
they are not read. LTI 1.3 lets a context role come by its short name too ("Instructor"). Canvas sends a
teaching assistant as Instructor plus the sub-role Instructor#TeachingAssistant. Moodle 4.5 (as observed)
sends its non-editing teacher as plain Instructor at launch (its default roles give them mod/lti:manage),
but its roster (NRPS) lists the same person as Learner: a launch alone cannot tell them from the editing
teacher.

A tutor (a teaching assistant, a non-editing teacher) gets the class view, with names and code: seeing the
class is what tutors are for. Deleting a learner's records is for the course's teachers: a tutor is told
apart by the TeachingAssistant role at launch (Canvas), or by the course's roster listing them without a
teacher's role (Moodle); where the LMS gives no roster, nothing tells a Moodle tutor apart.
"""

from collections.abc import Iterable

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
TEACHER_ROLES = frozenset(
    {
        MEMBERSHIP + "#Instructor",
        MEMBERSHIP + "/Instructor#TeachingAssistant",
        MEMBERSHIP + "#Administrator",
        "Instructor",
        "Instructor#TeachingAssistant",
        "TeachingAssistant",
        "Administrator",
    }
)
LEARNER_ROLES = frozenset({MEMBERSHIP + "#Learner", "Learner"})
TUTOR_ROLES = frozenset(
    {MEMBERSHIP + "/Instructor#TeachingAssistant", "Instructor#TeachingAssistant", "TeachingAssistant"}
)


def teaches(roles: Iterable[str] | None) -> bool:
    """Whether these roles make their holder one of the course's teachers (the class view)."""
    return any(role in TEACHER_ROLES for role in roles or [])


def learns(roles: Iterable[str] | None) -> bool:
    """Whether a roster member is one of the course's learners (and no teacher)."""
    roles = list(roles or [])
    return any(role in LEARNER_ROLES for role in roles) and not teaches(roles)


def assists(roles: Iterable[str] | None) -> bool:
    """Whether a launch's roles name a teaching assistant (Canvas's TA: Instructor with the sub-role)."""
    return any(role in TUTOR_ROLES for role in roles or [])


def tutors(launched_as_tutor: bool, sub: str | None, members: Iterable[dict]) -> bool:
    """Whether a teacher's launch is a tutor's, who may not delete records: a teaching assistant at launch,
    or one the course's roster lists (by their sub) without a teacher's role (Moodle's non-editing teacher,
    an Instructor at launch and a Learner in the roster)."""
    if launched_as_tutor:
        return True
    listed = [m for m in members if sub is not None and m.get("sub") == sub]
    return any(not teaches(m.get("roles")) for m in listed)
