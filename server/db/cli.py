"""`flask --app server db current` and `db upgrade`: the database's revision, and the upgrade that
otherwise happens at start."""

import click
from flask import current_app
from flask.cli import AppGroup

from server.db import Database, NewerDatabase, database_url, head, known, revision_before_alembic

db_command = AppGroup(
    "db", help="The playground's database (PLAYGROUND_DATABASE_URL): its schema's revision."
)


@db_command.command("current")
def current() -> None:
    """Print the revision the database is at, and the newest this code knows."""
    db = Database(database_url(current_app), migrate=False)
    found, newest = db.revision(), head()
    if found not in known():
        raise NewerDatabase(found)
    if found == newest:
        click.echo(f"The database is at {found}, the newest revision: up to date.")
        return
    where = f"at {found}"
    if found is None:
        with db.engine.connect() as conn:
            older = revision_before_alembic(conn)
        where = f"at {older}, made before Alembic (schema_migrations)" if older else "empty"
    click.echo(
        f"The database is {where}; the newest revision is {newest}: the playground upgrades it at start."
    )


@db_command.command("upgrade")
def upgrade() -> None:
    """Upgrade the database to the newest revision now (the playground does it at start)."""
    click.echo(f"The database is at {Database(database_url(current_app)).revision()}.")
