"""The LTI tool's state: registrations, deployments, one-time values, launches, passbacks.

The LTI store's first migration before Alembic (its MIGRATIONS[0], version 1 in schema_migrations): a
database it left at version 1 is stamped with this revision.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registrations",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("client_id", sa.Text, primary_key=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("auth_login_url", sa.Text, nullable=False),
        sa.Column("auth_token_url", sa.Text, nullable=False),
        sa.Column("key_set_url", sa.Text, nullable=False),
        sa.Column("auth_audience", sa.Text),
    )
    op.create_table(
        "deployments",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("client_id", sa.Text, primary_key=True),
        sa.Column("deployment_id", sa.Text, primary_key=True),
    )
    op.create_table(
        "once",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "launches",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("issuer", sa.Text, nullable=False),
        sa.Column("client_id", sa.Text, nullable=False),
        sa.Column("deployment_id", sa.Text, nullable=False),
        sa.Column("sub", sa.Text, nullable=False),
        sa.Column("resource_link_id", sa.Text, nullable=False),
        sa.Column("course", sa.Text, nullable=False),
        sa.Column("ags", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "passbacks",
        sa.Column("jti", sa.Text, primary_key=True),
        sa.Column("launch_id", sa.Text, sa.ForeignKey("launches.id"), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("maximum", sa.Float, nullable=False),
        sa.Column("timestamp", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("error", sa.Text),
        sa.Column("next_try", sa.Float, nullable=False),
        sa.Column("claimed_until", sa.Float, nullable=False, server_default=sa.text("0")),
        sa.Column("sent", sa.Float),
    )
    op.create_index("passbacks_due", "passbacks", ["state", "next_try"])
    op.create_index("passbacks_of_launch", "passbacks", ["launch_id"])
