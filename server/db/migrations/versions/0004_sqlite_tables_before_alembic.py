"""SQLite: the LTI tables made before Alembic, rebuilt as server/db/tables.py declares them.

Before Alembic the LTI store made its tables in SQL of its own, and on SQLite they read back otherwise
than 0001 makes them: DOUBLE PRECISION columns as REAL (not FLOAT; the same numbers), and `TEXT PRIMARY
KEY` columns that SQLite, unlike PostgreSQL, lets be NULL. Each is made anew here, its rows copied
(Alembic's batch mode, SQLite's own recipe for a changed table: the foreign keys are checked at the end
of the migration), so a database made before Alembic and a new one have one schema. PostgreSQL has
nothing to change.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

KEYS = {"once": "key", "launches": "id", "passbacks": "jti"}
REALS = {
    "once": ["expires"],
    "launches": ["created"],
    "passbacks": ["score", "maximum", "next_try", "claimed_until", "sent"],
}


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table, key in KEYS.items():
        with op.batch_alter_table(table, recreate="always") as batch:
            batch.alter_column(key, existing_type=sa.Text, nullable=False)
            for column in REALS[table]:
                batch.alter_column(column, type_=sa.Float)
