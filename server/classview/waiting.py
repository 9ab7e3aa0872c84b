"""Who of the course's roster has not opened the activity yet, for the class view: its learners only.

A member is listed when the roster names them a Learner (and no teacher), they have not opened it, and no
launch of theirs in this course was a teacher's: Moodle's roster lists a non-editing teacher as Learner
while their launch is an Instructor's (server/lti/roles.py), and their own launch is the better word. A
learner whose records were deleted here is not listed as not having opened it: they are listed apart, with
when.
"""

from collections.abc import Callable, Iterable

from sqlalchemy import Connection, select, true

from server.db.tables import forgotten_learners, launches
from server.lti import roles


def teachers_launched(conn: Connection, issuer: str, course: str, subs: Iterable[str]) -> set[str]:
    """Which of these members launched into this course (any of its activities) as a teacher."""
    subs = list(subs)
    if not subs:
        return set()
    query = select(launches.c.sub).distinct()
    query = query.where(
        launches.c.issuer == issuer, launches.c.context_id == course, launches.c.teacher == true()
    )
    return set(conn.execute(query.where(launches.c.sub.in_(subs))).scalars())


def deleted(conn: Connection, issuer: str, course: str) -> dict[str, float]:
    """The pseudonyms of the learners whose records were deleted in this course, with when."""
    query = select(forgotten_learners.c.learner, forgotten_learners.c.forgotten).where(
        forgotten_learners.c.issuer == issuer, forgotten_learners.c.course == course
    )
    return {learner: when for learner, when in conn.execute(query)}


def not_opened(
    conn: Connection,
    issuer: str,
    course: str,
    members: list[dict],
    opened: set[str],
    pseudonym: Callable[[str], str],
) -> tuple[list[str], list[tuple[str, float]]]:
    """The roster's learners who have not opened the activity (each by name, else pseudonym), sorted; and
    apart, those of them whose records were deleted, with when."""
    candidates = [m for m in members if roles.learns(m.get("roles")) and m["sub"] not in opened]
    teachers = teachers_launched(conn, issuer, course, {m["sub"] for m in candidates})
    gone = deleted(conn, issuer, course)
    waiting, forgotten = [], []
    for member in candidates:
        if member["sub"] in teachers:
            continue
        learner = pseudonym(member["sub"])
        shown = member.get("name") or learner
        if learner in gone:
            forgotten.append((shown, gone[learner]))
        else:
            waiting.append(shown)
    return sorted(waiting), sorted(forgotten)
