"""Who gets the class view: a launch by one of the course's teachers, by its membership roles only.

An LMS's institution and system roles (an administrator of the whole site, say) say nothing of this course:
they are not read. LTI 1.3 lets a context role come by its short name too ("Instructor"). Canvas sends a
teaching assistant as Instructor plus the sub-role Instructor#TeachingAssistant; Moodle sends its
non-editing teachers as Learner (they get the exercise, as learners do).
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


def teaches(roles: Iterable[str] | None) -> bool:
    """Whether these roles make their holder one of the course's teachers (the class view)."""
    return any(role in TEACHER_ROLES for role in roles or [])


def learns(roles: Iterable[str] | None) -> bool:
    """Whether a roster member is one of the course's learners (and no teacher)."""
    roles = list(roles or [])
    return any(role in LEARNER_ROLES for role in roles) and not teaches(roles)
