"""The teacher's choice for an activity: launches keep its verdict (rule) and language.

A Deep Linking item's custom parameters carry them to each launch (server/lti/activity.py); None, as for
every launch before this, is the server's PLAYGROUND_VERDICT and the learner's own language.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("launches", sa.Column("rule", sa.Text))
    op.add_column("launches", sa.Column("language", sa.Text))
