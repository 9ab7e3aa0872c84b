"""An exercise's archive: what the browser's worker and /verify's sandbox get of it, by path.

All of engine/ (the general grader: what is server-only lives under server/), the exercise's descriptor
at the archive's root (exercise.json: engine/descriptor.py's archived() reads it there), its engine at
the descriptor's `engine` path, and, for the playground's own exercises only, its plugin's package. An
exercise's reference, wrong solutions and cases.py are never in it: they stay in the server process.
"""

import io
import json
import zipfile
from pathlib import Path

from engine.descriptor import ARCHIVED
from server.exercises.folder import Exercise
from server.exercises.grading import descriptor

REPOSITORY = Path(__file__).resolve().parents[2]  # the folder that holds engine/ and exercises/


def grader_files() -> dict[str, bytes]:
    """engine/, every module of it, by its path in the archive."""
    return {f"engine/{p.name}": p.read_bytes() for p in sorted((REPOSITORY / "engine").glob("*.py"))}


def files(exercise: Exercise) -> dict[str, bytes]:
    """The exercise's archive, by path: the grader, the descriptor, the engine, the plugin's package."""
    data = descriptor(exercise)
    found = grader_files()
    found[ARCHIVED] = json.dumps(data, sort_keys=True).encode()
    found[data["engine"]] = exercise.code["engine.py"].encode()
    if data.get("plugin"):  # the playground's own only (folder.py refuses one in a teacher's folder)
        package = data["plugin"].replace(".", "/")
        for path in sorted((REPOSITORY / package).glob("*.py")):
            found[f"{package}/{path.name}"] = path.read_bytes()
    return found


def zipped(found: dict[str, bytes]) -> bytes:
    """An archive's files as the zip the worker unpacks: the same bytes for the same files (one date)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in found.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
