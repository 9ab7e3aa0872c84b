"""The platforms registered (registrations, their deployments): stored, read, and whether one still takes
launches (the LTI state in the database: server/lti/store)."""

from sqlalchemy import ColumnElement, and_, exists, or_, select

from server.db import Database, upsert
from server.db.tables import deployments, registrations


class Platforms:
    """The registrations and their deployments, on the Store's database."""

    db: Database

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
