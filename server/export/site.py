"""`flask --app server export DIR`: the whole site as plain files, for any static file server."""

import shutil
import zipfile
from pathlib import Path

import click
from flask import current_app, g
from flask.cli import with_appcontext

from runtime.server import is_variant, lazy_stdlib
from server.export.nginx import FILE as NGINX_FILE
from server.export.nginx import nginx_conf
from server.page.assets import engine_archive
from server.page.embed import embed_script
from server.page.offline import service_worker_script
from server.page.page import page_config, render_page
from server.page.policy import content_security_policy
from server.page.static import page_url, served_dirs


def export_site(
    directory: Path, compressed: bool = True, location: str = "/", served_from: str | None = None
) -> list[Path]:
    """Write the page, the engine archive, embed.js, the static files and nginx.conf; return them.

    location: the URL path the site will be served at; served_from: the folder nginx will serve it
    from (default: this one), both for nginx.conf.
    """
    directory.mkdir(parents=True, exist_ok=True)
    with current_app.test_request_context("/"):
        g.relative_urls = True  # the page works wherever the folder is served, at any path
        # A static host may send no headers at all: the page brings its policy (less frame-ancestors,
        # which only a header can carry).
        config = page_config()
        html = render_page(config, meta_policy=content_security_policy(None))
        embed = page_url("embed.embed_js")  # beside the page, for course pages that embed it
    names = ["index.html", config["urls"]["engine"], embed]
    written = [directory / name for name in names]
    written[0].write_text(html, encoding="utf-8")
    written[1].write_bytes(engine_archive())
    written[2].write_bytes(embed_script())
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
    # Beside the page (its scope), once the files it hashes are written; with offline use off, the
    # worker that removes itself, for browsers an earlier export gave the worker to.
    with current_app.test_request_context("/"):
        g.relative_urls = True
        worker = service_worker_script(html, exported=directory)
    written.append(directory / "sw.js")
    written[-1].write_text(worker, encoding="utf-8")
    written.append(directory / NGINX_FILE)  # not served (it says so itself), and not one of the site's files
    conf = nginx_conf(current_app.config, location, served_from or str(directory.resolve()))
    written[-1].write_text(conf, encoding="utf-8")
    return written


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
