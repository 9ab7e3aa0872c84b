"""The class view's records: who opened an activity (learners), every Check (attempts) and its results.

Launches gain the LTI context's id (the course, as the records scope it; None for launches before this)
and whether the launch was a teacher's (false for those before: only learners could launch then).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# SQLite's rowid for a key it counts itself; PostgreSQL's bigint (as server/db/tables.py's ID).
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("launches", sa.Column("context_id", sa.Text))
    op.add_column(
        "launches", sa.Column("teacher", sa.Boolean, nullable=False, server_default=sa.text("false"))
    )
    op.create_table(
        "learners",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("course", sa.Text, primary_key=True),
        sa.Column("activity", sa.Text, primary_key=True),
        sa.Column("sub", sa.Text, primary_key=True),
        sa.Column("learner", sa.Text, nullable=False),
        sa.Column("name", sa.Text),
        sa.Column("opened", sa.Float, nullable=False),
        sa.Column("last_opened", sa.Float, nullable=False),
    )
    op.create_table(
        "attempts",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("issuer", sa.Text, nullable=False),
        sa.Column("course", sa.Text, nullable=False),
        sa.Column("activity", sa.Text, nullable=False),
        sa.Column("sub", sa.Text, nullable=False),
        sa.Column("time", sa.Float, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("source_sha256", sa.Text, nullable=False),
        sa.Column("shape_sha256", sa.Text, nullable=False),
        sa.Column("rule", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("passed", sa.Boolean),
        sa.Column("mistake", sa.Text),
        sa.Column("judged", sa.Float),
    )
    op.create_index("attempts_of_activity", "attempts", ["issuer", "course", "activity", "time"])
    op.create_index("attempts_queued", "attempts", ["state", "time"])
    op.create_index("attempts_of_source", "attempts", ["source_sha256", "rule"])
    op.create_index(
        "attempts_counted",
        "attempts",
        ["issuer", "course", "activity", "sub", "time", "state", "passed", "mistake", "shape_sha256"],
    )
    op.create_table(
        "results",
        sa.Column("attempt_id", ID, sa.ForeignKey("attempts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("expr", sa.Text, primary_key=True),
        sa.Column("passed", sa.Boolean, nullable=False),
        sa.Column("mistake", sa.Text),
    )
