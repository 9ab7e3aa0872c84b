"""The class view's roster of each activity, as the LMS last gave it, fetched on the queue (one fetch per
activity at a time) rather than inside the teacher's request.

Revision ID: 0007_roster
Revises: 0006_bounds
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_roster"
down_revision = "0006_bounds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rosters",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("course", sa.Text, primary_key=True),
        sa.Column("activity", sa.Text, primary_key=True),
        sa.Column("members", sa.Text),
        sa.Column("fetched", sa.Float),
        sa.Column("error", sa.Text),
        sa.Column("tried", sa.Float),
        sa.Column("claimed_until", sa.Float, nullable=False, server_default=sa.text("0")),
    )
