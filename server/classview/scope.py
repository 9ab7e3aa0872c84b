"""Which rows a count of the class view reads, and a Check's pass as a number: the pieces every query of
server/classview/stats.py and in_order.py shares (SQLAlchemy Core, server/db/tables.py).

Every query is scoped to one (issuer, course, activity), as the teacher's token names it, and its Checks to
the activity's exercise.
"""

from sqlalchemy import and_, case
from sqlalchemy.sql import ColumnElement

from server.db.tables import attempts, learners


def in_activity(
    table, issuer: str, course: str, activity: str, exercise: str | None = None
) -> ColumnElement[bool]:
    """The rows of one activity; of attempts, those of its exercise where one is named (an activity's
    Checks are its exercise's, unless its teacher changed the exercise in the LMS since)."""
    same = (table.c.issuer == issuer, table.c.course == course, table.c.activity == activity)
    return and_(*same, *([table.c.exercise == exercise] if exercise is not None else []))


def who(issuer: str, course: str, activity: str, sub: ColumnElement[str]):
    """The learners row of a learner of the activity, for a join."""
    return and_(in_activity(learners, issuer, course, activity), learners.c.sub == sub)


def passed_as_number() -> ColumnElement[int]:
    """1 for a passed Check, else 0 (a boolean both databases sum and compare alike)."""
    return case((attempts.c.passed.is_(True), 1), else_=0)
