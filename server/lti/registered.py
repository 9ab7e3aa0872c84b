"""The registrations of LMSs as the database keeps them (server/db's tables `registrations` and
`deployments`): stored, listed, removed, and whether a client takes launches of any deployment.

A registration made by Dynamic Registration without a deployment id (an LMS such as Canvas makes the
deployment when the administrator installs the tool, after the registration) takes the launches of any
deployment of its client: the launch is signed with the LMS's keys and names the client, which is what
the LMS registered. A registration with deployments (`add-platform`'s, or an LMS that named one) takes
those only.
"""

from flask import Flask, current_app
from sqlalchemy import Connection, delete, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite

from server import db
from server.db.tables import deployments, registrations

FIELDS = ("title", "auth_login_url", "auth_token_url", "key_set_url", "auth_audience")


def database(app: Flask | None = None) -> db.Database:
    """The app's database (server/db), opened here where the app did not open it."""
    app = app or current_app._get_current_object()
    if "db" not in app.extensions:
        db.init_app(app)
    return app.extensions["db"]


def registered_with_other_keys(conn: Connection, issuer: str, key_set_url: str) -> str | None:
    """The key set URL an issuer is registered with here when it is not key_set_url, else None."""
    found = conn.execute(
        select(registrations.c.key_set_url)
        .where(registrations.c.issuer == issuer, registrations.c.key_set_url != key_set_url)
        .limit(1)
    ).scalar()
    return found


def listed(conn: Connection) -> list[dict]:
    """Every registration: issuer, client id, title, key set URL, its deployments (nothing secret)."""
    rows = conn.execute(
        select(
            registrations.c.issuer,
            registrations.c.client_id,
            registrations.c.title,
            registrations.c.key_set_url,
        ).order_by(registrations.c.issuer, registrations.c.client_id)
    ).mappings()
    found = [dict(row) | {"deployments": []} for row in rows]
    by_key = {(r["issuer"], r["client_id"]): r for r in found}
    for row in conn.execute(select(deployments).order_by(deployments.c.deployment_id)).mappings():
        if (registration := by_key.get((row["issuer"], row["client_id"]))) is not None:
            registration["deployments"].append(row["deployment_id"])
    return found


def remove(conn: Connection, issuer: str, client_id: str) -> int | None:
    """Remove a registration and its deployments: how many deployments it had, or None if not found."""
    mine = (registrations.c.issuer == issuer, registrations.c.client_id == client_id)
    if conn.execute(select(func.count()).select_from(registrations).where(*mine)).scalar() == 0:
        return None
    gone = conn.execute(
        delete(deployments).where(deployments.c.issuer == issuer, deployments.c.client_id == client_id)
    ).rowcount
    conn.execute(delete(registrations).where(*mine))
    return gone


def save(conn: Connection, registration: dict, deployment_id: str | None) -> None:
    """Store a registration (or bring the one of its issuer and client id up to date), with its deployment
    when it has one."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    added = insert(registrations).values({f: registration.get(f) for f in ("issuer", "client_id", *FIELDS)})
    conn.execute(
        added.on_conflict_do_update(
            index_elements=["issuer", "client_id"], set_={f: added.excluded[f] for f in FIELDS}
        )
    )
    if deployment_id is not None:
        mine = {"issuer": registration["issuer"], "client_id": registration["client_id"]}
        conn.execute(
            insert(deployments).values(mine | {"deployment_id": deployment_id}).on_conflict_do_nothing()
        )


def takes_any_deployment(issuer: str, client_id: str) -> bool:
    """Whether a registered client has no deployment listed, so takes launches of any of its deployments."""
    mine = (deployments.c.issuer == issuer, deployments.c.client_id == client_id)
    query = select(registrations.c.issuer).where(
        registrations.c.issuer == issuer,
        registrations.c.client_id == client_id,
        ~exists().where(*mine),
    )
    with database().connect() as conn:
        return conn.execute(query.limit(1)).first() is not None
