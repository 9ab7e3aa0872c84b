"""Static files: the content-hashed bundles and the versioned Pyodide files, served by WhiteNoise.

`make setup` builds them into static/build/ (esbuild writes a metafile naming each entry point's
hashed output) and precompresses them (.br, .gz). Every URL here is immutable: a new build gets new
names, so browsers may keep the files for a year without asking again.
"""

import json
import os
from collections.abc import Callable
from pathlib import Path

from flask import Flask, current_app, g, request, url_for
from whitenoise import WhiteNoise

from runtime.server import pyodide_folder, pyodide_path
from server import ROOT

BUILD = ROOT / "static" / "build"
# esbuild's metafiles, which name the hashed file each entry point became: the page's bundles (ESM,
# split into chunks), the runner frame's (ESM, one file: it is imported from a blob: URL) and the
# worker's (a classic script: an opaque origin cannot start a module worker).
METAFILES = ("meta.json", "meta-runner.json", "meta-worker.json")
IMMUTABLE = "public, max-age=31536000, immutable"


def read_manifest(build: Path) -> dict[str, dict]:
    """Map each entry point to its hashed file and the chunks it imports at once.

    An entry is named by its path in the repository, less a leading static/: `js/boot/main.js`,
    `css/style.css`, `runtime/worker/worker.js`.
    """
    outputs = {}
    for name in METAFILES:
        outputs.update(json.loads((build / name).read_text())["outputs"])

    def served(output: str) -> str:  # esbuild's paths are relative to the folder it ran in, ROOT
        return Path(os.path.normpath(ROOT / output)).relative_to(build).as_posix()

    manifest = {}
    for output, info in outputs.items():
        if "entryPoint" in info:
            entry = Path(os.path.normpath(ROOT / info["entryPoint"])).relative_to(ROOT).as_posix()
            entry = entry.removeprefix("static/")
            imports = [served(i["path"]) for i in info.get("imports", []) if i["kind"] == "import-statement"]
            manifest[entry] = {"file": served(output), "imports": imports}
    return manifest


def page_url(endpoint: str, **values) -> str:
    """Build a URL with url_for; relative to the page when exporting, so the export works anywhere.

    Relative to the folder of the request's path: the export renders the front page at `/` and each
    exercise's at `/exercises/<id>/`, whose URLs go up two folders first (`../../static/...`).
    """
    url = url_for(endpoint, **values)
    if g.get("relative_urls"):
        up = "../" * (request.path.count("/") - 1)
        return up + url.removeprefix(request.script_root + "/") or "./"
    return url


def static_url(entry: str) -> str:
    """The URL of an entry point's hashed bundle (`js/main.js`, `css/style.css`, `favicon.svg`)."""
    return page_url("static", filename=current_app.extensions["manifest"][entry]["file"])


def preload_urls(entry: str) -> list[str]:
    """The chunks an entry point imports at once, for <link rel=modulepreload>."""
    return [page_url("static", filename=f) for f in current_app.extensions["manifest"][entry]["imports"]]


def pyodide_url(filename: str = "") -> str:
    """A Pyodide file's URL, or with no filename the directory the worker loads Pyodide from."""
    return page_url("static", filename=pyodide_path() + filename)


def static_size(entry: str) -> int:
    """The size of an entry point's bundle, as fetched (decoded)."""
    build = current_app.extensions["build"]
    return (build / current_app.extensions["manifest"][entry]["file"]).stat().st_size


def served_dirs() -> dict[str, Path]:
    """The folders WhiteNoise serves, by URL path under /static/."""
    return {"assets/": BUILD / "assets", pyodide_path(): pyodide_folder()}


def immutable(headers, path: str, url: str) -> None:
    """Let browsers keep every served file: each name is content-hashed or versioned."""
    headers["Cache-Control"] = IMMUTABLE


def init_app(app: Flask) -> None:
    """Check static/build/ is built, read its manifest, and let url_for build the files' URLs."""
    missing = [p for p in (*(BUILD / name for name in METAFILES), *served_dirs().values()) if not p.exists()]
    if missing:
        raise RuntimeError(f"{', '.join(map(str, missing))} missing: run `make setup` to build them")
    app.extensions["manifest"] = read_manifest(BUILD)
    app.extensions["build"] = BUILD  # as it was when the app was made
    app.add_url_rule("/static/<path:filename>", endpoint="static", build_only=True)
    app.jinja_env.globals.update(static_url=static_url, preload_urls=preload_urls, pyodide_url=pyodide_url)


def serve_files(wsgi_app: Callable) -> WhiteNoise:
    """Wrap a WSGI app with WhiteNoise serving static/build/ (server/http/wsgi.py applies it)."""
    # allow_all_origins: a runner frame (an opaque origin) that cannot share memory reads the stdlib's lazy
    # archives itself, with a CORS request (worker/lazy_stdlib.py).
    files = WhiteNoise(wsgi_app, allow_all_origins=True, add_headers_function=immutable)
    for prefix, folder in served_dirs().items():
        files.add_files(folder, prefix=f"static/{prefix}")
    return files
