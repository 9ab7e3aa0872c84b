"""Serve what the worker loads: an exercise's archive, built from engine/ and that exercise (its cases are
in the page's config, with their expected numbers). A page fetches its own exercise's archive only.

The seed's (LEGACY's) keeps today's URL, `engine-<digest>.zip`; every other exercise's is
`exercise-<id>-<digest>.zip`.
"""

import hashlib
import io
import json
import zipfile
from functools import cache

from flask import Blueprint, Response, abort, current_app, request

from engine.descriptor import ARCHIVED
from server import ROOT
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


@cache
def grader_files() -> dict[str, bytes]:
    """engine/, all of it (what is server-only, the reference, lives under server/)."""
    return {f"engine/{path.name}": path.read_bytes() for path in sorted((ROOT / "engine").glob("*.py"))}


@cache
def folder_files(folder: str, descriptor_json: str, engine: str) -> dict[str, bytes]:
    """A folder exercise's archive beside engine/: its descriptor and its engine (no plugin: only the
    seed has one, and it is archived by seed_files)."""
    data = json.loads(descriptor_json)
    return {ARCHIVED: descriptor_json.encode(), data["engine"]: engine.encode()}


def archived_files(exercise: str = LEGACY) -> dict[str, bytes]:
    """What the browser's worker and /verify's sandbox get for an exercise, by path: engine/, the
    exercise's descriptor (exercise.json, engine/descriptor.py reads it there), its engine and its
    plugin's package."""
    if exercise == LEGACY:
        return {**grader_files(), **seed_files()}
    from server.exercises.grading import descriptor

    found = served(exercise)
    if found is None:
        raise KeyError(exercise)
    data = json.dumps(descriptor(found), sort_keys=True)
    return {**grader_files(), **folder_files(str(found.folder), data, found.code["engine.py"])}


@cache
def zipped(files: tuple[tuple[str, bytes], ...]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def engine_archive(exercise: str = LEGACY) -> bytes:
    """Zip archived_files(exercise): what the browser's worker unpacks."""
    return zipped(tuple(archived_files(exercise).items()))


def engine_digest(exercise: str = LEGACY) -> str:
    """A hash of the archive's bytes, for its URL: a new engine gets a new URL."""
    return digest_of(engine_archive(exercise))


@cache
def digest_of(archive: bytes) -> str:
    return hashlib.sha256(archive).hexdigest()[:16]


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
