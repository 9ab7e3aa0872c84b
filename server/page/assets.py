"""Serve what the worker loads: the engine archive, built from engine/ and the served exercise (the cases
are in the config: their expected gradients, server/exercises/value_sets.py's graded_cases)."""

import hashlib
import json
from functools import cache

from flask import Blueprint, Response, abort, request

from engine.descriptor import ARCHIVED
from server import ROOT
from server.exercises.archive import zipped
from server.page.static import IMMUTABLE

bp = Blueprint("assets", __name__)


@cache
def archived_files() -> dict[str, bytes]:
    """What the browser's worker and /verify's sandbox get, by path: engine/, all of it (what is
    server-only, the reference, lives under server/), the served exercise's descriptor (exercise.json,
    engine/descriptor.py reads it there), its engine and its plugin's package, at their paths here."""
    from exercises.backward.seed import descriptor  # the bridge, until exercises are folders (issue 51)

    data = descriptor()
    files = {f"engine/{path.name}": path.read_bytes() for path in sorted((ROOT / "engine").glob("*.py"))}
    files[ARCHIVED] = json.dumps(data, sort_keys=True).encode()
    files[data["engine"]] = (ROOT / data["engine"]).read_bytes()
    if data.get("plugin"):
        package = data["plugin"].replace(".", "/")
        for path in sorted((ROOT / package).glob("*.py")):
            files[f"{package}/{path.name}"] = path.read_bytes()
    return files


@cache
def engine_archive() -> bytes:
    """Zip archived_files(): what the browser's worker unpacks."""
    return zipped(archived_files())


@cache
def engine_digest() -> str:
    """A hash of the archive's bytes, for its URL: a new engine gets a new URL."""
    return hashlib.sha256(engine_archive()).hexdigest()[:16]


def revalidated(response: Response) -> Response:
    """Make the browser ask each time (no-cache), answering 304 when its copy is still right."""
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/engine-<digest>.zip")
def engine_zip(digest: str) -> Response:
    """Send the engine package as a zip archive, cacheable for good under its hashed URL."""
    if digest != engine_digest():
        abort(404)
    response = Response(engine_archive(), mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response
