"""The grades on their way to the platforms (passbacks): queued one per launch, claimed by one sender,
due, sent, kept, failed and tried again, given up (the LTI state in the database: server/lti/store)."""

import time

from sqlalchemy import select, update

from server.db import Database, upsert
from server.db.tables import launches, passbacks

HELD = ("pending", "sent", "kept")  # a launch with a passback in one of these states takes no other


class Passbacks:
    """The passbacks, on the Store's database."""

    db: Database

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


def due_by(now: float | None) -> tuple:
    """Pending, due by now (None: whenever), and not claimed by a sender."""
    return (
        passbacks.c.state == "pending",
        passbacks.c.next_try <= (float("inf") if now is None else now),
        passbacks.c.claimed_until < time.time(),
    )
