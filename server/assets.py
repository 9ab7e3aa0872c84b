"""Serve what the worker loads: the engine archive, built from engine/, and the cases."""

import io
import zipfile
from functools import cache

from flask import Blueprint, Response, jsonify

from server import ROOT

bp = Blueprint("assets", __name__)

# The reference backward stays on the server: the archive holds everything else in engine/.
SERVER_ONLY = {"reference.py"}


def engine_archive() -> bytes:
    """Zip engine/ without the reference, so the browser runs the same engine as the tests."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((ROOT / "engine").glob("*.py")):
            if path.name not in SERVER_ONLY:
                info = zipfile.ZipInfo(f"engine/{path.name}", date_time=(2020, 1, 1, 0, 0, 0))
                archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@cache
def graded_cases() -> list[dict]:
    """Compute the expected gradients once, with the reference backward."""
    from engine.reference import graded_cases as compute

    return compute()


@bp.get("/engine.zip")
def engine_zip() -> Response:
    """Send the engine package as a zip archive."""
    return Response(engine_archive(), mimetype="application/zip")


@bp.get("/cases.json")
def cases() -> Response:
    """Send the graded cases with their expected gradients."""
    return jsonify(graded_cases())
