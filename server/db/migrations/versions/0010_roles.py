"""Whose records were deleted in a course, and when (their pseudonym only): the class view says so rather
than list them among those who have not opened the activity. A delete made before this left no note.

Revision ID: 0010_roles
Revises: 0009_small
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_roles"
down_revision = "0009_small"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forgotten_learners",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("course", sa.Text, primary_key=True),
        sa.Column("learner", sa.Text, primary_key=True),
        sa.Column("forgotten", sa.Float, nullable=False),
    )
