"""`flask --app server db current` and `db upgrade`: the database's revision, and the upgrade that
otherwise happens at start."""

import click
from flask import current_app
from flask.cli import AppGroup

from server.db import Database, database_url, head

db_command = AppGroup(
    "db", help="The playground's database (PLAYGROUND_DATABASE_URL): its schema's revision."
)


@db_command.command("current")
def current() -> None:
    """Print the revision the database is at, and the newest this code knows."""
    found = Database(database_url(current_app), migrate=False).revision()
    newest = head()
    said = (
        "up to date" if found == newest else "upgraded when the playground next starts (or by `db upgrade`)"
    )
    click.echo(f"{found or 'none (empty, or made before Alembic)'}; this code's newest: {newest} ({said})")


@db_command.command("upgrade")
def upgrade() -> None:
    """Bring the database up to this code's newest revision now (the playground does it at start)."""
    db = Database(database_url(current_app))
    click.echo(f"At {db.revision()}.")
