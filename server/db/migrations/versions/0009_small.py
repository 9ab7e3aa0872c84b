"""Launches keep whether they count as the class (their membership roles include Learner, and no
teacher's: an Observer's or a Designer's launch gets the exercise and is not counted), and the
activity's title (the resource link's), which the class view shows from here, not from its address.

A launch made before this counts as the class unless it was a teacher's (as it was counted then); its
activity's title is unknown (None).

Revision ID: 0009_small
Revises: 0008_delete
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_small"
down_revision = "0008_delete"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "launches", sa.Column("learner", sa.Boolean, nullable=False, server_default=sa.text("false"))
    )
    op.add_column("launches", sa.Column("activity_title", sa.Text))
    op.execute("UPDATE launches SET learner = NOT teacher")
