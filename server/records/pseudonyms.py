"""A learner's pseudonym: what the class view and the export call a learner where the LMS shares no name.

It is per course: made with the tool's key from the LMS (issuer), the course (the LTI context id, as the
records name it) and the learner's id there (sub), so one learner's pseudonyms in two courses of the same
LMS are two, and exports of two courses cannot be joined on them. Pseudonyms made before (0011_pseudo)
were the LMS's, one for every course; the key is not in the database, so the migration only marks those
rows, and the playground remakes them at start (remake_old), before it serves anything.
"""

import hashlib
import hmac
import json

from cryptography.hazmat.primitives import serialization
from flask import current_app
from sqlalchemy import Connection, select, update

from server.db.tables import learners
from server.keys.private import b64url


def pseudonym_of(secret: bytes, issuer: str, course: str, sub: str) -> str:
    """A learner's pseudonym in a course, keyed with secret: 16 URL-safe characters (the three names
    joined as JSON, so no two triples give the same message)."""
    message = json.dumps([issuer, course, sub], separators=(",", ":")).encode()
    return b64url(hmac.digest(secret, message, "sha256")[:12])


def pseudonym(issuer: str, course: str, sub: str) -> str:
    """A learner's pseudonym in a course, never the sub: the LTI tool's (server/lti/tool.py's learner_id),
    or without LTI the same made with the receipts' signing key."""
    if "lti" in current_app.extensions:
        return current_app.extensions["lti"]["keys"].learner_id(issuer, course, sub)
    key = current_app.extensions["verify"]["signer"].key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return pseudonym_of(hashlib.sha256(b"pseudonym\n" + key).digest(), issuer, course, sub)


def remake_old(conn: Connection) -> int:
    """Give every learner whose pseudonym was made before pseudonyms were per course (per_course false)
    their pseudonym in their course; how many rows were remade. Their Checks, kept by sub, are theirs as
    before. Run at start in an app context (pseudonym's keys); a second run finds none."""
    old = conn.execute(
        select(learners.c.issuer, learners.c.course, learners.c.activity, learners.c.sub).where(
            learners.c.per_course.is_(False)
        )
    ).all()
    for row in old:
        conn.execute(
            update(learners)
            .where(
                learners.c.issuer == row.issuer,
                learners.c.course == row.course,
                learners.c.activity == row.activity,
                learners.c.sub == row.sub,
            )
            .values(learner=pseudonym(row.issuer, row.course, row.sub), per_course=True)
        )
    return len(old)
