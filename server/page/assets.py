"""Serve what the worker loads: an exercise's archive, built from engine/ and that exercise (its cases are
in the page's config, with their expected numbers). A page fetches its own exercise's archive only.

The seed's (LEGACY's) keeps today's URL, `engine-<digest>.zip`; every other exercise's is
`exercise-<id>-<digest>.zip`.
"""

import hashlib
import json
from functools import cache

from flask import Blueprint, Response, abort, current_app, request

from engine.descriptor import ARCHIVED
from server import ROOT
from server.exercises import archive
from server.exercises.registry import LEGACY
from server.page.static import IMMUTABLE

bp = Blueprint("assets", __name__)


def served(exercise: str):
    """A served exercise's folder as the registry read it (None: not served here)."""
    registry = current_app.extensions.get("exercises")
    return registry.exercise(exercise) if registry is not None else None


@cache
def seed_files() -> dict[str, bytes]:
    """The seed's archive: its descriptor from exercises/backward/seed.py (the bridge, until its folder is
    the one home of its data), its engine and its plugin's package, at their paths here."""
    from exercises.backward.seed import descriptor

    data = descriptor()
    files = {ARCHIVED: json.dumps(data, sort_keys=True).encode()}
    files[data["engine"]] = (ROOT / data["engine"]).read_bytes()
    package = data["plugin"].replace(".", "/")
    for path in sorted((ROOT / package).glob("*.py")):
        files[f"{package}/{path.name}"] = path.read_bytes()
    return files


def archived_files(exercise: str = LEGACY) -> dict[str, bytes]:
    """What the browser's worker and /verify's sandbox get for an exercise, by path: engine/, the
    exercise's descriptor (exercise.json, engine/descriptor.py reads it there), its engine and its
    plugin's package (server/exercises/archive.py; the seed's descriptor from its bridge, seed_files)."""
    if exercise == LEGACY:
        return {**archive.grader_files(), **seed_files()}
    found = served(exercise)
    if found is None:
        raise KeyError(exercise)
    return archive.files(found)


@cache
def zipped(files: tuple[tuple[str, bytes], ...]) -> bytes:
    """An archive's files zipped once (server/exercises/archive.py's zipped: the same bytes for the same
    files)."""
    return archive.zipped(dict(files))


def engine_archive(exercise: str = LEGACY) -> bytes:
    """Zip archived_files(exercise): what the browser's worker unpacks."""
    return zipped(tuple(archived_files(exercise).items()))


def engine_digest(exercise: str = LEGACY) -> str:
    """A hash of the archive's bytes, for its URL: a new engine gets a new URL."""
    return digest_of(engine_archive(exercise))


def grader_digest() -> str:
    """A hash of the grader's modules (engine/), the same in every exercise's archive: what the snapshot a
    browser keeps imported (server/page/page.py's snapshot_key)."""
    return digest_of(zipped(tuple(archive.grader_files().items())))


@cache
def digest_of(zipped_bytes: bytes) -> str:
    return hashlib.sha256(zipped_bytes).hexdigest()[:16]


def revalidated(response: Response) -> Response:
    """Make the browser ask each time (no-cache), answering 304 when its copy is still right."""
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/engine-<digest>.zip", defaults={"exercise": LEGACY})
@bp.get("/exercise-<exercise>-<digest>.zip")
def engine_zip(digest: str, exercise: str) -> Response:
    """Send an exercise's archive, cacheable for good under its hashed URL."""
    if (exercise != LEGACY and served(exercise) is None) or digest != engine_digest(exercise):
        abort(404)
    response = Response(engine_archive(exercise), mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response
