"""Alembic's environment: the migrations run on the connection Database.migrate() passes in.

Database.migrate() (server/db/__init__.py) opens the transaction and takes the lock before Alembic
starts, so the whole run (a database made before Alembic stamped, every revision, the version) is one
transaction where the database allows it, and one process migrates at a time. There is no alembic.ini: nothing
here reads a URL, and `alembic revision` is not used (revisions are written by hand, from
script.py.mako, against server/db/tables.py).
"""

from alembic import context

from server.db.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
