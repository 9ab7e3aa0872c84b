"""Launches keep whether they count as the class (their membership roles include Learner, and no
teacher's: an Observer's or a Designer's launch gets the exercise and is not counted), and the
activity's title (the resource link's), which the class view shows from here, not from its address.

A launch made before this counts as the class unless it was a teacher's (as it was counted then); its
activity's title is unknown (None).

Revision ID: 0006_small
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_small"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "launches", sa.Column("learner", sa.Boolean, nullable=False, server_default=sa.text("false"))
    )
    op.add_column("launches", sa.Column("activity_title", sa.Text))
    op.execute("UPDATE launches SET learner = NOT teacher")
