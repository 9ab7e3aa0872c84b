"""An exercise's engine archive: what the browser's worker unpacks and grades with (design: one archive a
page, only its exercise's), and what `exercises check --runtime pyodide` hands Node's Pyodide.

It holds all of engine/ (the general grader), the exercise's descriptor at its root (exercise.json,
engine/descriptor.py's archived() reads it there), its engine at the descriptor's `engine` path and, for
the playground's own, its plugin's package. Never its reference, mistakes or cases.py: those are the
server's.
"""

import io
import json
import zipfile
from pathlib import Path

from engine.descriptor import ARCHIVED
from server.exercises import grading
from server.exercises.folder import Exercise

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds engine/ and exercises/


def files(exercise: Exercise) -> dict[str, bytes]:
    """The archive's files, by path."""
    described = grading.descriptor(exercise)
    found = {f"engine/{path.name}": path.read_bytes() for path in sorted((ROOT / "engine").glob("*.py"))}
    found[ARCHIVED] = json.dumps(described, sort_keys=True).encode()
    found[described["engine"]] = exercise.code["engine.py"].encode()
    if described.get("plugin"):
        package = described["plugin"].replace(".", "/")
        for path in sorted((ROOT / package).glob("*.py")):
            found[f"{package}/{path.name}"] = path.read_bytes()
    return found


def zipped(found: dict[str, bytes]) -> bytes:
    """The files as a zip archive, the same bytes for the same files (no times of their own)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in found.items():
            archive.writestr(
                zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED
            )
    return buffer.getvalue()
