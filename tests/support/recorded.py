"""A learner's recorded Checks, read straight from the database a test's server uses."""

from sqlalchemy import create_engine, select

from server.db import engine_url
from server.db.tables import attempts


def recorded(url: str, sub: str) -> list[tuple[str, bool | None]]:
    """The learner's recorded Checks: (state, passed) each, oldest first."""
    engine = create_engine(engine_url(url))
    try:
        with engine.connect() as conn:
            query = select(attempts.c.state, attempts.c.passed).where(attempts.c.sub == sub)
            return [tuple(row) for row in conn.execute(query.order_by(attempts.c.id))]
    finally:
        engine.dispose()
