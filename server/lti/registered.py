"""The registrations of LMSs as the database keeps them (server/db's tables `registrations` and
`deployments`): stored, listed, removed, and whether a client takes launches of any deployment.

A registration made by Dynamic Registration without a deployment id (an LMS such as Canvas makes the
deployment when the administrator installs the tool, after the registration) takes the launches of any
deployment of its client: the launch is signed with the LMS's keys and names the client, which is what
the LMS registered. A registration with deployments (`add-platform`'s, or an LMS that named one) takes
those only.
"""

from sqlalchemy import Connection, delete, exists, func, select

from server.db import database
from server.db.tables import deployments, registrations

FIELDS = ("title", "auth_login_url", "auth_token_url", "key_set_url", "auth_audience")


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
