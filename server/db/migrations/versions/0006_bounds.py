"""What one learner keeps is bounded (server/records/quota.py): each Check says how many bytes of code
it keeps, and may keep its row without its code.

attempts.source_bytes: the UTF-8 bytes of the code the row keeps (0 where it keeps none), filled in for
every Check before this; attempts.source may be NULL (a skipped Check whose code was not worth keeping:
the same as one kept before, or past the learner's bytes); attempts_of_learner counts a learner's Checks
and bytes, per window and in all, from the index alone. SQLite makes the table anew for the column that
may now be NULL (Alembic's batch mode, its rows and indexes copied); PostgreSQL drops the constraint.

Revision ID: 0006_bounds
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_bounds"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.add_column(
        "attempts", sa.Column("source_bytes", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
    length = "length(CAST(source AS BLOB))" if sqlite else "octet_length(source)"
    op.execute(f"UPDATE attempts SET source_bytes = {length}")
    if sqlite:
        with op.batch_alter_table("attempts", recreate="always") as batch:
            batch.alter_column("source", existing_type=sa.Text, nullable=True)
    else:
        op.alter_column("attempts", "source", existing_type=sa.Text, nullable=True)
    op.create_index("attempts_of_learner", "attempts", ["issuer", "sub", "time", "source_bytes"])
