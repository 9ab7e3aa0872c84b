"""Serve what the worker loads: the engine archive, built from engine/ (the cases are in the config: their
expected gradients, server/exercises/value_sets.py's graded_cases)."""

import hashlib
import io
import zipfile
from functools import cache

from flask import Blueprint, Response, abort, request

from server import ROOT
from server.page.static import IMMUTABLE

bp = Blueprint("assets", __name__)


@cache
def engine_archive() -> bytes:
    """Zip engine/, all of it: what is server-only (the reference) lives under server/."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((ROOT / "engine").glob("*.py")):
            info = zipfile.ZipInfo(f"engine/{path.name}", date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


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
