"""The LTI state in the playground's database (server/db): registrations, one-time values (nonces,
states), launches, passbacks.

SQLAlchemy Core expressions over server/db/tables.py's tables, the same on SQLite and PostgreSQL
(upserts are `ON CONFLICT`, in each dialect's own insert). Each method runs on the app context's
connection (a request, a pass of the passback sender, a command: server/db's connect()), or, outside
one, on a connection of its own; its block commits at its end.
"""

import json
import time

from sqlalchemy import ColumnElement, and_, delete, exists, insert, or_, select, update

from server.db import Database, upsert
from server.db.tables import deployments, launches, once, passbacks, registrations

HELD = ("pending", "sent", "kept")  # a launch with a passback in one of these states takes no other


class Store:
    """The LTI tool's state in a database: any thread or process may use it, each with connections of its
    own (the Database's pool)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # Registrations
    def add_platform(self, registration: dict, deployment_id: str | None) -> None:
        """Store (or replace) a platform's registration and add a deployment of it (None: the platform
        named none when it registered: server/lti/registered.py's takes_any_deployment)."""
        fields = ("issuer", "client_id", "title", "auth_login_url", "auth_token_url", "key_set_url")
        values = {f: registration[f] for f in fields} | {"auth_audience": registration.get("auth_audience")}
        with self.db.connect() as conn:
            added = upsert(conn, registrations).values(values)
            replaced = ("title", "auth_login_url", "auth_token_url", "key_set_url", "auth_audience")
            conn.execute(
                added.on_conflict_do_update(
                    index_elements=["issuer", "client_id"], set_={f: added.excluded[f] for f in replaced}
                )
            )
            if deployment_id is None:
                return
            deployment = {"issuer": values["issuer"], "client_id": values["client_id"]}
            conn.execute(
                upsert(conn, deployments)
                .values(deployment | {"deployment_id": deployment_id})
                .on_conflict_do_nothing()
            )

    def registrations(self, issuer: str) -> list[dict]:
        """The registrations of an issuer (one per client id)."""
        with self.db.connect() as conn:
            found = conn.execute(select(registrations).where(registrations.c.issuer == issuer))
            return [dict(row) for row in found.mappings()]

    def registration(self, issuer: str, client_id: str) -> dict | None:
        """One registration, or None."""
        query = select(registrations).where(
            registrations.c.issuer == issuer, registrations.c.client_id == client_id
        )
        with self.db.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else dict(row)

    def takes_launches(self, issuer: str, client_id: str, deployment_id: str | None) -> bool:
        """Whether the platform's client is still registered here and, named, its deployment: what a
        teacher's token (server/classview/token.py) is checked against on every request."""
        with self.db.connect() as conn:
            return bool(conn.execute(select(registered(issuer, client_id, deployment_id))).scalar())

    def has_deployment(self, issuer: str, client_id: str | None, deployment_id: str) -> bool:
        """Whether this deployment of the platform was registered."""
        query = select(deployments.c.issuer).where(
            deployments.c.issuer == issuer, deployments.c.deployment_id == deployment_id
        )
        if client_id is not None:
            query = query.where(deployments.c.client_id == client_id)
        with self.db.connect() as conn:
            return conn.execute(query.limit(1)).first() is not None

    # One-time values
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

    # Launches
    def add_launch(self, launch: dict) -> None:
        """Remember a launch: who, where (with the LTI context's id, where the launch has one, and the
        activity's title), whether a teacher or one of the class, and its grade service."""
        fields = (
            "id",
            "issuer",
            "client_id",
            "deployment_id",
            "sub",
            "resource_link_id",
            "course",
            "created",
        )
        values = {f: launch[f] for f in fields} | {
            "ags": json.dumps(launch["ags"]) if launch["ags"] else None,
            "context_id": launch.get("context_id"),
            "teacher": bool(launch.get("teacher", False)),
            "learner": bool(launch.get("learner", False)),  # counted as the class (a Learner, no teacher)
            "activity_title": launch.get("activity_title"),
            "rule": launch.get("rule"),  # the activity's verdict and language (server/lti/activity.py)
            "language": launch.get("language"),
        }
        with self.db.connect() as conn:
            conn.execute(insert(launches).values(values))

    def launch(self, launch_id: str) -> dict | None:
        """A launch, or None (a forgotten one, or one whose registration is gone, too: for its grade)."""
        with self.db.connect() as conn:
            row = conn.execute(select(launches).where(launches.c.id == launch_id)).mappings().first()
        return None if row is None else {**row, "ags": json.loads(row["ags"]) if row["ags"] else None}

    def live_launch(self, launch_id: str) -> dict | None:
        """A launch a page's token may still act for, or None: its learner's records not deleted since
        (forgotten), its platform's client still registered with its deployment (one query)."""
        query = select(launches).where(
            launches.c.id == launch_id,
            launches.c.forgotten.is_(None),
            registered(launches.c.issuer, launches.c.client_id, launches.c.deployment_id),
        )
        with self.db.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else {**row, "ags": json.loads(row["ags"]) if row["ags"] else None}

    def drop_if_forgotten(self, launch_id: str) -> bool:
        """Delete a forgotten launch and its passbacks once none is still to send (its learner's records
        were deleted: it was kept for that grade only); whether it went."""
        pending = exists().where(passbacks.c.launch_id == launch_id, passbacks.c.state == "pending")
        with self.db.connect() as conn:
            forgotten = select(launches.c.id).where(
                launches.c.id == launch_id, launches.c.forgotten.is_not(None), ~pending
            )
            if conn.execute(forgotten).first() is None:
                return False
            conn.execute(delete(passbacks).where(passbacks.c.launch_id == launch_id))
            conn.execute(delete(launches).where(launches.c.id == launch_id))
            return True

    # Passbacks
    def add_passback(self, jti: str, launch_id: str, score: float, maximum: float, timestamp: str) -> bool:
        """Queue a score to send, unless the launch has one on its way, sent or kept (one score per
        launch; a failed one may be followed by another); whether it was queued."""
        held = select(passbacks.c.jti).where(passbacks.c.launch_id == launch_id, passbacks.c.state.in_(HELD))
        with self.db.connect() as conn:
            if conn.execute(held.limit(1)).first() is not None:
                return False
            queued = upsert(conn, passbacks).values(
                jti=jti,
                launch_id=launch_id,
                score=score,
                maximum=maximum,
                timestamp=timestamp,
                state="pending",
                next_try=0,
            )
            # two at once: the unique index of pending rows lets one in (the row it made says so: an
            # insert's rowcount is not one on PostgreSQL, where SQLAlchemy adds RETURNING of its key)
            made = queued.on_conflict_do_nothing().returning(passbacks.c.jti)
            return conn.execute(made).first() is not None

    def claim(self, jti: str, hold_s: float) -> dict | None:
        """Take a pending passback for hold_s seconds (no other process sends it meanwhile), or None."""
        now = time.time()
        with self.db.connect() as conn:
            claimed = conn.execute(
                update(passbacks)
                .where(
                    passbacks.c.jti == jti, passbacks.c.state == "pending", passbacks.c.claimed_until < now
                )
                .values(claimed_until=now + hold_s)
            ).rowcount
            row = conn.execute(select(passbacks).where(passbacks.c.jti == jti)).mappings().first()
        return dict(row) if claimed and row else None

    def due(self, now: float | None, issuer: str | None = None, limit: int = 100) -> list[str]:
        """The pending passbacks whose next try has come by now (None: every pending one not claimed),
        of one platform's launches (its issuer) or of all."""
        query = (
            select(passbacks.c.jti).join(launches, launches.c.id == passbacks.c.launch_id).where(*due_by(now))
        )
        if issuer is not None:
            query = query.where(launches.c.issuer == issuer)
        with self.db.connect() as conn:
            return list(conn.execute(query.order_by(passbacks.c.next_try).limit(limit)).scalars())

    def due_platforms(self, now: float | None) -> list[str]:
        """The issuers of the platforms that have a passback due by now (None: any pending one)."""
        query = (
            select(launches.c.issuer)
            .distinct()
            .join(passbacks, launches.c.id == passbacks.c.launch_id)
            .where(*due_by(now))
            .order_by(launches.c.issuer)
        )
        with self.db.connect() as conn:
            return list(conn.execute(query).scalars())

    def sent(self, jti: str) -> None:
        """Mark a passback delivered."""
        self.change(jti, state="sent", sent=time.time(), error=None, claimed_until=0)

    def kept(self, jti: str, error: str) -> None:
        """Mark a passback the platform refused for good: it holds a newer grade (409)."""
        self.change(jti, state="kept", attempts=passbacks.c.attempts + 1, error=error[:500], claimed_until=0)

    def given_up(self, jti: str, error: str, status: int | None) -> None:
        """Mark a passback failed for good: the platform refused it (a 4xx: its status), or its last try
        went unanswered, or there is nothing to send it to; never tried again."""
        self.change(
            jti,
            state="failed",
            attempts=passbacks.c.attempts + 1,
            error=error[:500],
            status=status,
            claimed_until=0,
        )

    def retry_now(self, launch_id: str) -> int:
        """Make a launch's pending passbacks due now (the learner's Retry); how many there are."""
        with self.db.connect() as conn:
            return conn.execute(
                update(passbacks)
                .where(passbacks.c.launch_id == launch_id, passbacks.c.state == "pending")
                .values(next_try=0)
            ).rowcount

    def failed(self, jti: str, error: str, retry_s: float, status: int | None = None) -> None:
        """Note a failed try (the platform's HTTP status, if it answered); try again after retry_s seconds."""
        self.change(
            jti,
            attempts=passbacks.c.attempts + 1,
            error=error[:500],
            status=status,
            next_try=time.time() + retry_s,
            claimed_until=0,
        )

    def change(self, jti: str, **values) -> None:
        """Set a passback's columns."""
        with self.db.connect() as conn:
            conn.execute(update(passbacks).where(passbacks.c.jti == jti).values(**values))

    def passback(self, jti: str) -> dict | None:
        """A passback, or None."""
        with self.db.connect() as conn:
            row = conn.execute(select(passbacks).where(passbacks.c.jti == jti)).mappings().first()
        return None if row is None else dict(row)

    def passbacks_of(self, launch_id: str) -> list[dict]:
        """A launch's passbacks, oldest first."""
        query = (
            select(passbacks)
            .where(passbacks.c.launch_id == launch_id)
            .order_by(passbacks.c.timestamp, passbacks.c.jti)
        )
        with self.db.connect() as conn:
            return [dict(row) for row in conn.execute(query).mappings()]


def registered(issuer, client_id, deployment_id) -> ColumnElement[bool]:
    """Whether a platform's client is registered and takes the deployment: one listed, or none listed
    for the client (it takes any: server/lti/registered.py); deployment_id None: the client alone.
    Values or columns alike (a launch's, for live_launch)."""
    client = and_(registrations.c.issuer == issuer, registrations.c.client_id == client_id)
    if deployment_id is None:
        return exists().where(client)
    of_client = and_(deployments.c.issuer == issuer, deployments.c.client_id == client_id)
    listed = exists().where(of_client, deployments.c.deployment_id == deployment_id)
    return exists().where(client, or_(listed, ~exists().where(of_client)))


def due_by(now: float | None) -> tuple:
    """Pending, due by now (None: whenever), and not claimed by a sender."""
    return (
        passbacks.c.state == "pending",
        passbacks.c.next_try <= (float("inf") if now is None else now),
        passbacks.c.claimed_until < time.time(),
    )
