"""One-time values (nonces, states, a registration URL's token) kept until they expire, each read, swapped
or taken by one request (the LTI state in the database: server/lti/store)."""

import json
import time

from sqlalchemy import delete, select, update

from server.db import Database, upsert
from server.db.tables import once


class OneTimeValues:
    """Values kept for a while by key, on the Store's database."""

    db: Database

    def put(self, key: str, value: object, lifetime_s: float) -> None:
        """Keep a value for lifetime_s seconds."""
        now = time.time()
        with self.db.connect() as conn:
            conn.execute(delete(once).where(once.c.expires < now))
            kept = upsert(conn, once).values(key=key, value=json.dumps(value), expires=now + lifetime_s)
            conn.execute(
                kept.on_conflict_do_update(
                    index_elements=["key"],
                    set_={"value": kept.excluded.value, "expires": kept.excluded.expires},
                )
            )

    def get(self, key: str) -> object:
        """A value kept and not expired, or None."""
        with self.db.connect() as conn:
            value = conn.execute(
                select(once.c.value).where(once.c.key == key, once.c.expires >= time.time())
            ).scalar()
        return None if value is None else json.loads(value)

    def swap(self, key: str, old: object, new: object) -> bool:
        """Replace a kept value with new if it is still old (as get() read it): one of several requests
        that read the same value wins, on SQLite and PostgreSQL alike; whether this one did."""
        with self.db.connect() as conn:
            swapped = conn.execute(
                update(once)
                .where(once.c.key == key, once.c.value == json.dumps(old), once.c.expires >= time.time())
                .values(value=json.dumps(new))
            )
            return swapped.rowcount == 1

    def take(self, key: str) -> bool:
        """Remove a value; True if it was there and not expired (so a nonce is good once)."""
        with self.db.connect() as conn:
            taken = conn.execute(delete(once).where(once.c.key == key, once.c.expires >= time.time()))
            return taken.rowcount == 1
