"""Launches and Checks name their exercise (issue 51: several exercises, each with its own records).

launches.exercise: the exercise the launch opened; attempts.exercise: the exercise a Check was made in
and is judged with. Both are text, never null; every row made before this is the seed's exercise's,
`backward` (server/exercises/registry.py's LEGACY), which is also the column's default. The indexes that
find an activity's Checks, count them for the class view, and reuse a verdict judged before are made
again with the exercise: after the activity (after the source's hash for the last), so an activity's
Checks of one exercise are read from the index alone, and a verdict is reused only for the same source,
exercise and rule. On SQLite the columns are added in Alembic's batch mode (no copy of the table is
needed for a column with a default); on PostgreSQL the default fills them without rewriting the table.

Revision ID: 0012_exercise
Revises: 0011_pseudo
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_exercise"
down_revision = "0011_pseudo"
branch_labels = None
depends_on = None

LEGACY = "backward"  # server/exercises/registry.py's, as it was when this was written


def upgrade() -> None:
    for table in ("launches", "attempts"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("exercise", sa.Text, nullable=False, server_default=sa.text(f"'{LEGACY}'"))
            )
    for name, columns in (
        ("attempts_of_activity", ["issuer", "course", "activity", "exercise", "time"]),
        ("attempts_of_source", ["source_sha256", "exercise", "rule"]),
        (
            "attempts_counted",
            ["issuer", "course", "activity", "exercise", "sub", "time", "state", "passed", "mistake"]
            + ["shape_sha256"],
        ),
    ):
        op.drop_index(name, table_name="attempts")
        op.create_index(name, "attempts", columns)
