"""One score per launch: a launch has at most one passback on its way (or sent, or kept).

The LTI store's second migration before Alembic (its MIGRATIONS[1], version 2 in schema_migrations): a
database it left at version 2 is stamped with this revision. The later passes queued before this rule
carry the same score and go; a final refusal says its HTTP status.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "DELETE FROM passbacks WHERE state = 'pending' AND EXISTS ("
        " SELECT 1 FROM passbacks AS other WHERE other.launch_id = passbacks.launch_id"
        " AND other.jti <> passbacks.jti"
        " AND (other.state IN ('sent', 'kept') OR (other.state = 'pending' AND other.jti < passbacks.jti)))"
    )
    pending = sa.text("state = 'pending'")
    op.create_index(
        "passbacks_one_pending",
        "passbacks",
        ["launch_id"],
        unique=True,
        sqlite_where=pending,
        postgresql_where=pending,
    )
    op.add_column("passbacks", sa.Column("status", sa.Integer))
