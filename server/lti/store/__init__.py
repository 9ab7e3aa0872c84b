"""The LTI state in the playground's database (server/db): registrations, one-time values (nonces,
states), launches, passbacks.

SQLAlchemy Core expressions over server/db/tables.py's tables, the same on SQLite and PostgreSQL
(upserts are `ON CONFLICT`, in each dialect's own insert). Each method runs on the app context's
connection (a request, a pass of the passback sender, a command: server/db's connect()), or, outside
one, on a connection of its own; its block commits at its end.
"""

from server.db import Database
from server.lti.store.launches import Launches
from server.lti.store.once import OneTimeValues
from server.lti.store.passbacks import Passbacks
from server.lti.store.platforms import Platforms


class Store(Platforms, OneTimeValues, Launches, Passbacks):
    """The LTI tool's state in a database: any thread or process may use it, each with connections of its
    own (the Database's pool). Its parts, one module each: the platforms registered (platforms.py),
    one-time values (once.py), launches (launches.py), grades on their way (passbacks.py)."""

    def __init__(self, db: Database) -> None:
        self.db = db
