"""Delete means deleted: a launch whose learner's records were deleted is marked when.

Such a launch records nothing more and its token is refused; it is kept only while a grade its learner
earned before the delete is still to be sent to the LMS, then deleted (server/records/retention.py).
None, as for every launch before this: a launch as any other.

Revision ID: 0008_delete
Revises: 0007_roster
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_delete"
down_revision = "0007_roster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("launches", sa.Column("forgotten", sa.Float))
