"""A learner's recorded Checks, read straight from the database a test's server uses (by its URL, or
through a test's app)."""

import time

from sqlalchemy import create_engine, select

from server.db import engine_url
from server.db.tables import attempts, results


def recorded(url: str, sub: str) -> list[tuple[str, bool | None]]:
    """The learner's recorded Checks: (state, passed) each, oldest first."""
    engine = create_engine(engine_url(url))
    try:
        with engine.connect() as conn:
            query = select(attempts.c.state, attempts.c.passed).where(attempts.c.sub == sub)
            return [tuple(row) for row in conn.execute(query.order_by(attempts.c.id))]
    finally:
        engine.dispose()


def rows(app, table=attempts, *where) -> list[dict]:
    """The app's table's rows (as mappings), oldest first."""
    with app.extensions["db"].engine.connect() as conn:
        query = select(table).where(*where)
        if table is attempts:
            query = query.order_by(attempts.c.id)
        return [dict(r._mapping) for r in conn.execute(query)]


def judged(app, timeout: float = 90) -> list[dict]:
    """The attempts once none waits for the judge any longer."""
    deadline = time.monotonic() + timeout
    while True:
        found = rows(app)
        if not any(r["state"] == "queued" for r in found):
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.05)


def results_of(app, attempt_id: int) -> dict:
    """An attempt's results: (passed, mistake) by group."""
    found = rows(app, results, results.c.attempt_id == attempt_id)
    return {r["expr"]: (r["passed"], r["mistake"]) for r in found}
