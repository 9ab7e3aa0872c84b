"""Offline: the service worker that keeps what a visit needs, so a second visit works with no network.

sw.js is rendered for the build: it lists every file a page may load (the hashed bundles and
chunks, the worker, the Pyodide files), every page (the front page and each exercise's) with the
archive of the exercise it shows, the SHA-256 of each file's bytes, each archive's and each page's (the
worker serves a kept copy only when its body still has that digest: Cache Storage is writable by any
script of the origin, sw.js is not), and a build id made from them, so a new deploy changes its bytes
and browsers install it. A page and its archive are kept when the page is visited, not all on install:
a page loads only the exercise it shows, and so does its worker (static/js/hosting/sw.js). It is served at
the front page's scope, which holds every page (beside it: `/sw.js`, `<prefix>/sw.js`, `sw.js` in a static
export), and revalidated on every check.

With offline use switched off, sw.js is a script that deletes this page's caches (and the stored
snapshot) and unregisters itself (static/js/hosting/sw-off.js): the browser fetches it on the next visit of
every learner who had the worker, whatever the page's own scripts do.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, render_template, request

from runtime.server import is_variant, lazy_stdlib
from server.page import i18n
from server.page.assets import engine_archive, revalidated
from server.page.exercise import served
from server.page.names import NAMES
from server.page.page import archive_url, config_of, exercise_url, front_page, render_page
from server.page.static import page_url, served_dirs

bp = Blueprint("offline", __name__)

# Cache Storage names (server/page/names.py): the worker's caches are "<files prefix><build> <page URL>"; the
# snapshot's is runtime/page/stored-snapshot.js's, removed with the worker when offline use is switched off.
CACHE_PREFIX = NAMES["caches"]["files"]
SNAPSHOT_CACHE = NAMES["caches"]["snapshot"]


def build_files() -> list[str]:
    """The files under static/ a visit may load: bundles, chunks (the lazy ones too), Pyodide's."""
    files = []
    for prefix, folder in served_dirs().items():
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
            name = path.relative_to(folder).as_posix()
            if (
                path.suffix != ".map" and not is_variant(path) and not name.startswith(lazy_stdlib() + "/")
            ):  # maps: dev tools
                files.append(prefix + name)
    return files


def lazy_folders() -> list[str]:
    """The URL paths under static/ of the folders of lazy stdlib archives."""
    return [
        prefix + path.name + "/"
        for prefix, folder in served_dirs().items()
        for path in sorted(folder.glob(lazy_stdlib()))
        if path.is_dir()
    ]


def lazy_archives() -> list[str]:
    """The lazy stdlib archives' paths under static/: `<Pyodide's folder>/<lazy_stdlib()>/x.zip`."""
    return [
        prefix + path.relative_to(folder).as_posix()
        for prefix, folder in served_dirs().items()
        for lazy in sorted(folder.glob(lazy_stdlib()))
        if lazy.is_dir()
        for path in sorted(lazy.rglob("*"))
        if path.is_file() and not path.name.startswith(".") and not is_variant(path)
    ]


def sha256(data: bytes) -> str:
    """The SHA-256 of some bytes, in hex, as the service worker computes it (crypto.subtle)."""
    return hashlib.sha256(data).hexdigest()


def build_digests() -> dict[str, str]:
    """The SHA-256 of every file sw.js names (the lazy archives too), by its path under static/.

    Of the file itself, not of its .br or .gz copy: a browser decodes what WhiteNoise sends
    compressed, and Cache Storage keeps the decoded body.
    """
    dirs = served_dirs()

    def source(name: str) -> Path:
        prefix = next(p for p in dirs if name.startswith(p))
        return dirs[prefix] / name.removeprefix(prefix)

    return {name: file_digest(source(name)) for name in [*build_files(), *lazy_archives()]}


# Files' digests by (path, inode, size, modification time): every app made in one process (the tests make
# hundreds) digests the same build; a file rebuilt is digested again.
digests: dict[tuple[str, int, int, int], str] = {}


def file_digest(path: Path) -> str:
    """sha256 of a file's bytes, once per version of the file in this process."""
    stat = path.stat()
    known = (str(path), stat.st_ino, stat.st_size, stat.st_mtime_ns)
    if known not in digests:
        digests[known] = sha256(path.read_bytes())
    return digests[known]


@dataclass
class Kept:
    """A page the worker may keep: its URL as sw.js names it, its HTML as sent, and the exercise whose
    archive it loads (None: the front page's list, which loads none)."""

    url: str
    html: str
    exercise: str | None


def site_pages() -> list[Kept]:
    """Every page the server sends, as it sends them: the front page and each served exercise's."""
    html, only = front_page()
    pages = [Kept(page_url("page.index"), html, only)]
    return pages + [Kept(exercise_url(view.id), render_page(config_of(view)), view.id) for view in served()]


def offline_data(pages: list[Kept], exported: Path | None = None) -> dict:
    """What sw.js needs: the build's id, the files to keep, where archives are kept on use, the SHA-256
    of each file's body and of each page's, and the archive each page loads.

    exported: the folder of a static export, whose files are hashed as they were written there (its
    stdlib archives are deflated anew); None: the files as this server sends them.
    """
    names = current_app.extensions["build_files"]
    files = [page_url("static", filename=name) for name in names]
    lazy = {page_url("static", filename=name): name for name in current_app.extensions["lazy_archives"]}
    # Each exercise's archive is kept with its page, when that page is kept (static/js/hosting/sw.js).
    archives = {page.url: archive_url(page.exercise) for page in pages if page.exercise}
    exercises = {archive_url(page.exercise): page.exercise for page in pages if page.exercise}
    if exported is None:
        known = current_app.extensions["build_digests"]
        digests = {url: known[name] for url, name in [*zip(files, names, strict=True), *lazy.items()]}
        digests |= {url: sha256(engine_archive(exercise)) for url, exercise in exercises.items()}
    else:
        digests = {url: sha256((exported / url).read_bytes()) for url in [*files, *exercises, *lazy]}
    kept = {page.url: sha256(page.html.encode("utf-8")) for page in pages}
    build = sha256(json.dumps([files, digests, kept, archives]).encode())[:16]
    folders = [page_url("static", filename=f) for f in lazy_folders()]
    return {
        "build": build,
        "cachePrefix": CACHE_PREFIX,
        "files": files,
        "lazy": folders,
        "digests": digests,
        "front": pages[0].url,  # kept on install, with the pages open then
        "pages": kept,
        "archives": archives,
    }


def service_worker_script(pages: list[Kept] | None = None, exported: Path | None = None) -> str:
    """Render sw.js for this build; with offline use off, the one that removes itself.

    pages: the front page first, then each exercise's, as they are sent (None: rendered as the server
    sends them); exported: the folder of a static export, its files already written (see offline_data).
    """
    if not current_app.config["OFFLINE"]:
        names = {"cachePrefix": CACHE_PREFIX, "snapshotCache": SNAPSHOT_CACHE}
        return render_template("hosting/sw-off.js", names=names)
    pages = site_pages() if pages is None else pages
    return render_template("hosting/sw.js", offline=offline_data(pages, exported))


# sw.js as sent, by the request's prefix and the pages' language (all its pages depend on): the browser
# asks for it at every visit, and it renders every page (20-60 ms each on a 2-core machine). Bounded: a
# prefix comes from a proxy's header.
SCRIPTS_KEPT = 16


@bp.get("/sw.js")
def service_worker() -> Response:
    """Send the service worker, at the front page's scope, checked by the browser on every visit."""
    kept = current_app.extensions["service_workers"]
    key = (request.script_root, i18n.chosen())
    if key not in kept:
        kept[key] = service_worker_script()
        while len(kept) > SCRIPTS_KEPT:
            kept.pop(next(iter(kept)))
    return revalidated(Response(kept[key], mimetype="text/javascript"))


def init_app(app: Flask) -> None:
    """List the build's files and hash them once, at start-up."""
    app.extensions["build_files"] = build_files()
    app.extensions["lazy_archives"] = lazy_archives()
    app.extensions["build_digests"] = build_digests()
    app.extensions["service_workers"] = {}  # sw.js as sent (service_worker)
