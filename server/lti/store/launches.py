"""The launches remembered: who, where, a teacher or one of the class, the grade service; a forgotten
launch dropped once its grade is sent (the LTI state in the database: server/lti/store)."""

import json

from sqlalchemy import delete, exists, insert, select

from server.db import Database
from server.db.tables import launches, passbacks
from server.lti.store.platforms import registered


class Launches:
    """The launches, on the Store's database."""

    db: Database

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
        if launch.get("exercise"):  # the activity's exercise; not named: the column's default, the seed's
            values["exercise"] = launch["exercise"]
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
