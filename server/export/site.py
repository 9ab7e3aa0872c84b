"""`flask --app server export DIR`: the whole site as plain files, for any static file server.

The front page at the folder's root (`index.html`: the list of the served exercises), each exercise's page
at `exercises/<id>/index.html` with its archive beside the front page, one service worker (`sw.js`) for
them all, and the static files; every URL relative, so the folder works at any path."""

import shutil
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from flask import current_app, g
from flask.cli import with_appcontext

from runtime.server import is_variant, lazy_stdlib
from server.export.nginx import FILE as NGINX_FILE
from server.export.nginx import nginx_conf
from server.page.assets import engine_archive
from server.page.embed import embed_script
from server.page.exercise import served, shown
from server.page.offline import Kept, service_worker_script
from server.page.page import archive_url, config_of, exercise_url, front_page, render_page
from server.page.policy import content_security_policy
from server.page.static import page_url, served_dirs


def export_site(
    directory: Path, compressed: bool = True, location: str = "/", served_from: str | None = None
) -> list[Path]:
    """Write the front page, each exercise's page and archive, embed.js, the static files and nginx.conf;
    return them.

    location: the URL path the site will be served at; served_from: the folder nginx will serve it
    from (default: this one), both for nginx.conf.
    """
    directory.mkdir(parents=True, exist_ok=True)
    pages = exported_pages()
    with exporting("/"):
        embed = page_url("embed.embed_js")  # beside the front page, for course pages that embed it
        archives = {archive_url(e): e for e in dict.fromkeys(p.exercise for p in pages if p.exercise)}
    written = []
    for page in pages:
        written.append(directory / page.url.removeprefix("./") / "index.html")
        written[-1].parent.mkdir(parents=True, exist_ok=True)
        written[-1].write_text(page.html, encoding="utf-8")
    for url, exercise in archives.items():
        written.append(directory / url)
        written[-1].write_bytes(engine_archive(exercise))
    written.append(directory / embed)
    written[-1].write_bytes(embed_script())
    for prefix, folder in served_dirs().items():
        files = [p for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")]
        # Not the stdlib archives' .br and .gz: they hold the build's stored archives, not the
        # deflated ones written here, and a host that sends them would not send these bytes (whose
        # SHA-256 the service worker checks).
        copied = [p for p in files if not is_variant(p) or (compressed and not is_stdlib(p.with_suffix("")))]
        for source in copied:
            target = directory / "static" / prefix / source.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            if is_stdlib(source):
                deflate(source, target)
            else:
                shutil.copyfile(source, target)
            written.append(target)
    # Beside the front page (its scope: every page of the site), once the files it hashes are written;
    # with offline use off, the worker that removes itself, for browsers an earlier export gave the worker to.
    with exporting("/"):
        worker = service_worker_script(pages, exported=directory)
    written.append(directory / "sw.js")
    written[-1].write_text(worker, encoding="utf-8")
    written.append(directory / NGINX_FILE)  # not served (it says so itself), and not one of the site's files
    conf = nginx_conf(current_app.config, location, served_from or str(directory.resolve()))
    written[-1].write_text(conf, encoding="utf-8")
    return written


@contextmanager
def exporting(path: str) -> Iterator[None]:
    """Render as the page at path (`/`, `/exercises/<id>/`) of a static export: its URLs relative to it."""
    with current_app.test_request_context(path):
        g.relative_urls = True  # the page works wherever the folder is served, at any path
        yield


def exported_pages() -> list[Kept]:
    """The front page (`./`, the list; with one exercise served, its page) and each served exercise's
    page (`exercises/<id>/`), each rendered at its place in the folder: URLs relative to the site's root."""
    # A static host may send no headers at all: each page brings its policy (less frame-ancestors,
    # which only a header can carry).
    policy = content_security_policy(None)
    with exporting("/"):
        html, only = front_page(meta_policy=policy)
        pages = [Kept(page_url("page.index"), html, only)]
        ids = [view.id for view in served()]
    for exercise in ids:
        with exporting(f"/exercises/{exercise}/"):
            html = render_page(config_of(shown(exercise)), meta_policy=policy)
        with exporting("/"):
            pages.append(Kept(exercise_url(exercise), html, exercise))
    return pages


def is_stdlib(path: Path) -> bool:
    """Whether a file is a stdlib archive: python_stdlib.zip, or one of the lazy ones."""
    return path.name == "python_stdlib.zip" or (path.suffix == ".zip" and path.parent.name == lazy_stdlib())


def deflate(source: Path, target: Path) -> None:
    """Copy a stdlib archive deflated (about a third of its size), for hosts that send files as they are."""
    # The build stores the entries, so brotli over the whole file can do better on our server.
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as archive:
        for info in original.infolist():
            data = original.read(info)  # before changing compress_type, which read() follows
            info.compress_type = zipfile.ZIP_STORED if info.is_dir() else zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=9)


@click.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--compressed/--no-compressed", default=True, help="Copy the precompressed .br/.gz files too.")
@click.option(
    "--location", default="/", show_default=True, help="The URL path it will be served at (nginx.conf)."
)
@click.option("--served-from", help="The folder nginx will serve it from (nginx.conf). Default: DIRECTORY.")
@with_appcontext
def export_command(directory: Path, compressed: bool, location: str, served_from: str | None) -> None:
    """Write the whole site into DIRECTORY, with relative URLs, for any static file server."""
    written = export_site(directory, compressed, location, served_from)
    size = sum(p.stat().st_size for p in written)
    click.echo(f"Wrote {len(written)} files ({size / 1e6:.1f} MB) to {directory}/; serve it as it is.")
    click.echo(f"nginx: {directory / NGINX_FILE} has the headers to send, this export's settings filled in.")
