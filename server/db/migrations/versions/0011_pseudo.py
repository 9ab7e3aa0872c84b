"""A learner's pseudonym is per course: learners keep whether theirs is (per_course).

The pseudonyms made before were the LMS's, one for every course. They are made with the tool's key,
which the database does not hold, so this marks them (per_course false) and the playground remakes each
at start, before it serves anything (server/records/pseudonyms.py's remake_old).

Revision ID: 0011_pseudo
Revises: 0010_roles
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_pseudo"
down_revision = "0010_roles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "learners", sa.Column("per_course", sa.Boolean, nullable=False, server_default=sa.text("false"))
    )
