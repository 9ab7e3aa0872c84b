"""Offline: the service worker that keeps what a visit needs, so a second visit works with no network.

sw.js is rendered for the build: it lists every file the page may load (the hashed bundles and
chunks, the worker, the Pyodide files, the engine archive) and a build id made from that list, so a
new deploy changes its bytes and browsers install it. It is served at the page's scope (beside the
page: `/sw.js`, `<prefix>/sw.js`, `sw.js` in a static export) and revalidated on every check.
"""

import hashlib

from flask import Blueprint, Flask, Response, abort, current_app, render_template

from server.assets import engine_digest, revalidated
from server.page import page_config, render_page
from server.static import is_variant, page_url, pyodide_url, served_dirs

bp = Blueprint("offline", __name__)

# The stdlib modules a first visit does not load, one archive per package (scripts/compile-stdlib.mjs):
# kept when a learner's code first imports them, not fetched on install (2.3 MB nobody may need).
LAZY = "python_stdlib_lazy-"


def build_files() -> list[str]:
    """The files under static/ a visit may load: bundles, chunks (the lazy ones too), Pyodide's."""
    files = []
    for prefix, folder in served_dirs().items():
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
            name = path.relative_to(folder).as_posix()
            if (
                path.suffix != ".map" and not is_variant(path) and not name.startswith(LAZY)
            ):  # maps: dev tools
                files.append(prefix + name)
    return files


def lazy_folders() -> list[str]:
    """The URL paths under static/ of the folders of lazy stdlib archives."""
    return [
        prefix + path.name + "/"
        for prefix, folder in served_dirs().items()
        for path in sorted(folder.glob(LAZY + "*"))
        if path.is_dir()
    ]


def offline_data() -> dict:
    """What sw.js needs: the build's id, the files to keep, the versioned URLs this build's page names."""
    files = [page_url("static", filename=f) for f in current_app.extensions["build_files"]]
    files.append(page_url("assets.engine_zip", digest=engine_digest()))
    # A page is this build's when it names all of these (its bundles, styles, icon, worker, engine,
    # Pyodide): another build's page misses the ones that changed.
    html = render_page(page_config())
    names = [url for url in [*files, pyodide_url()] if url in html]
    build = hashlib.sha256("\n".join([*files, "", *names]).encode()).hexdigest()[:16]
    lazy = [page_url("static", filename=f) for f in lazy_folders()]
    return {"build": build, "files": files, "page": names, "lazy": lazy}


def service_worker_script() -> str:
    """Render sw.js for this build."""
    return render_template("sw.js", offline=offline_data())


@bp.get("/sw.js")
def service_worker() -> Response:
    """Send the service worker, at the page's scope, checked by the browser on every visit."""
    if not current_app.config["OFFLINE"]:
        abort(404)
    response = Response(service_worker_script(), mimetype="text/javascript")
    return revalidated(response)


def init_app(app: Flask) -> None:
    """List the build's files once, at start-up."""
    app.extensions["build_files"] = build_files()
