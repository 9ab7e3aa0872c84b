"""A database as main made it (977c1ec, before Alembic), to upgrade in place: its schema and some rows.

MAIN_MIGRATIONS is main's server/lti/store.py's MIGRATIONS, word for word, frozen here as test data; main
applied them in order under a lock and counted each in schema_migrations, as made_by_main() does.
MAIN_ROWS puts rows in every table; rows() reads a table back in a stable order.
"""

from sqlalchemy import create_engine, text

from server.db import engine_url

MAIN_MIGRATIONS = [
    """
    CREATE TABLE registrations (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, title TEXT NOT NULL,
        auth_login_url TEXT NOT NULL, auth_token_url TEXT NOT NULL, key_set_url TEXT NOT NULL,
        auth_audience TEXT, PRIMARY KEY (issuer, client_id));
    CREATE TABLE deployments (
        issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        PRIMARY KEY (issuer, client_id, deployment_id));
    CREATE TABLE once (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
    CREATE TABLE launches (
        id TEXT PRIMARY KEY, issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL,
        sub TEXT NOT NULL, resource_link_id TEXT NOT NULL, course TEXT NOT NULL, ags TEXT,
        created DOUBLE PRECISION NOT NULL);
    CREATE TABLE passbacks (
        jti TEXT PRIMARY KEY, launch_id TEXT NOT NULL REFERENCES launches (id),
        score DOUBLE PRECISION NOT NULL, maximum DOUBLE PRECISION NOT NULL, timestamp TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
        next_try DOUBLE PRECISION NOT NULL, claimed_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        sent DOUBLE PRECISION);
    CREATE INDEX passbacks_due ON passbacks (state, next_try);
    CREATE INDEX passbacks_of_launch ON passbacks (launch_id);
    """,
    # One score per launch: a launch has at most one passback on its way (or sent, or kept); the later
    # passes queued before this rule carry the same score and go. A final refusal says its HTTP status.
    """
    DELETE FROM passbacks WHERE state = 'pending' AND EXISTS (
        SELECT 1 FROM passbacks AS other WHERE other.launch_id = passbacks.launch_id
        AND other.jti <> passbacks.jti
        AND (other.state IN ('sent', 'kept') OR (other.state = 'pending' AND other.jti < passbacks.jti)));
    CREATE UNIQUE INDEX passbacks_one_pending ON passbacks (launch_id) WHERE state = 'pending';
    ALTER TABLE passbacks ADD COLUMN status INTEGER;
    """,
]

LAUNCH = {"issuer": "https://lms.example", "client_id": "client", "deployment_id": "deployment"}
# Rows in every table of main's schema (at version 1: no passbacks.status), as a course's use left them.
MAIN_ROWS = {
    "registrations": [
        {
            "issuer": "https://lms.example",
            "client_id": "client",
            "title": "The course's LMS",
            "auth_login_url": "https://lms.example/auth",
            "auth_token_url": "https://lms.example/token",
            "key_set_url": "https://lms.example/jwks",
            "auth_audience": None,
        }
    ],
    "deployments": [{**{k: LAUNCH[k] for k in ("issuer", "client_id")}, "deployment_id": "deployment"}],
    "once": [{"key": "lti-nonce-abc", "value": '"kept"', "expires": 4102444800.0}],
    "launches": [
        {"id": name, **LAUNCH, "sub": f"sub-{name}", "resource_link_id": "link", "course": "Backprop 101"}
        | {"ags": ags, "created": 1764000000.5}
        for name, ags in [
            ("sent-once", '{"lineitem": "https://lms.example/lineitems/1"}'),
            ("queued-twice", None),
            ("queued-once", None),
        ]
    ],
    "passbacks": [
        {
            "jti": jti,
            "launch_id": launch_id,
            "score": 1.0,
            "maximum": 1.0,
            "timestamp": "2026-01-01T00:00:00Z",
        }
        | {"state": state, "attempts": 2, "error": None, "next_try": 0.0, "claimed_until": 0.0, "sent": None}
        for jti, launch_id, state in [
            ("a", "sent-once", "sent"),
            ("b", "sent-once", "pending"),  # queued before one score per launch: 0002 lets it go
            ("c", "queued-twice", "pending"),
            ("d", "queued-twice", "pending"),  # the later of two pending: 0002 lets it go
            ("e", "queued-once", "pending"),
        ]
    ],
}
# What is left after 0002's clean-up: the passes queued after one already on its way or sent go.
KEPT_PASSBACKS = ["a", "c", "e"]


def made_by_main(url: str, version: int) -> None:
    """Make the schema main's first `version` migrations made, as main's Store.migrate() did, and fill
    every table with MAIN_ROWS (at version 2, only the passbacks main's clean-up kept)."""
    engine = create_engine(engine_url(url))
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
        for number, script in enumerate(MAIN_MIGRATIONS[:version], start=1):
            for statement in filter(str.strip, script.split(";")):
                conn.exec_driver_sql(statement)
            conn.execute(text("INSERT INTO schema_migrations VALUES (:number)"), {"number": number})
        for table, table_rows in MAIN_ROWS.items():
            if table == "passbacks" and version >= 2:
                table_rows = [r | {"status": 400} for r in table_rows if r["jti"] in KEPT_PASSBACKS]
            names = list(table_rows[0])
            conn.execute(
                text(
                    f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})"
                ),
                table_rows,
            )
    engine.dispose()


def rows(url: str, table: str, columns: list[str]) -> list[dict]:
    """A table's rows (these columns), in the order of the first (its key)."""
    engine = create_engine(engine_url(url))
    with engine.connect() as conn:
        found = conn.execute(text(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}"))
        result = [dict(r) for r in found.mappings()]
    engine.dispose()
    return result
