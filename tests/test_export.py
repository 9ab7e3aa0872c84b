"""The static export's files: the front page's list, every served exercise's page and archive, each page's
URLs relative to its own folder, and the service worker that knows them all."""

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from server import create_app
from server.export.site import export_site
from tests.support.exercise_folders import course

pytestmark = pytest.mark.slow  # writes the whole site: seconds a test

SITE = "http://static.example/site/"  # where a host might serve the folder: any path will do
PAGES = [f"exercises/{i}/" for i in course()]  # the course's order


def config_in(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1])


def offline_data(text: str) -> dict:
    return json.loads(re.search(r"^const OFFLINE = (.*);$", text, re.M)[1])


def local(site: Path, url: str) -> Path:
    """The written file a URL of the site names (a folder's: its index.html)."""
    assert url.startswith(SITE), url
    path = url.removeprefix(SITE).split("#")[0]
    return site / (path + "index.html" if path == "" or path.endswith("/") else path)


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    """An export of the app as shipped (the course), without the compressed copies; (folder, files)."""
    site = tmp_path_factory.mktemp("export") / "site"
    app = create_app({"TESTING": True})
    with app.app_context():
        written = export_site(site, compressed=False)
    return site, written, app


def test_it_writes_the_front_page_each_exercises_page_and_each_archive(export):
    site, written, app = export
    names = {path.relative_to(site).as_posix() for path in written}
    assert {"index.html", "sw.js", "embed.js", "nginx.conf"} | {p + "index.html" for p in PAGES} <= names
    client = app.test_client()
    for page in PAGES:  # each exercise's archive beside the front page, the bytes the server sends
        archive = urljoin(SITE + page, config_in((site / page / "index.html").read_text())["urls"]["engine"])
        assert local(site, archive).read_bytes() == client.get("/" + archive.removeprefix(SITE)).data, page
    archives = sorted(name for name in names if name.endswith(".zip") and "/" not in name)
    assert len(archives) == len(PAGES) and archives[0].startswith("engine-")  # the seed's keeps its name
    assert all(path.is_file() for path in written)


def test_the_front_page_lists_every_exercise_and_each_link_is_a_written_page(export):
    site, _, _ = export
    front = (site / "index.html").read_text()
    links = re.findall(r'<li [^>]*>\s*<a href="([^"]+)" data-exercise="([^"]+)"', front)
    assert links == [(page, page.split("/")[1]) for page in PAGES]
    head = front[: front.index("</head>")]  # the course map's script among them, written beside it
    assert "/map-" in head and all(
        local(site, urljoin(SITE, u)).exists() for u in re.findall(r'src="([^"]+)"', head)
    )
    for href, exercise in links:
        assert config_in(local(site, urljoin(SITE, href)).read_text())["exercise"] == exercise
    seed = re.search(r'data-seed="([^"]+)"', front)[1]  # an old share link to the site: the seed's page
    assert local(site, urljoin(SITE, seed)) == site / "exercises/backward/index.html"
    assert '<meta http-equiv="Content-Security-Policy"' in front


@pytest.mark.parametrize("page", PAGES)
def test_every_url_of_an_exercises_page_is_relative_to_its_folder(export, page):
    site, _, _ = export
    html = (site / page / "index.html").read_text()
    head = html[: html.index("</head>")]
    config = config_in(html)
    urls = [*re.findall(r'(?:href|src)="([^"]+)"', head), *config["urls"].values(), config["serviceWorker"]]
    assert urls and all(url.startswith("../../") for url in urls), urls
    for url in urls:
        assert local(site, urljoin(SITE + page, url)).exists() or url.endswith("/"), url
    assert (site / page / config["urls"]["pyodide"] / "pyodide.asm.wasm").exists()
    # A share link made on it opens it; home is the front page, the service worker's scope.
    assert urljoin(SITE + page, config["publicPage"]) == SITE + page
    assert urljoin(SITE + page, config["home"]) == SITE
    assert config["verify"] is None and config["record"] is None  # no server behind a static host
    assert '<meta http-equiv="Content-Security-Policy"' in head


def test_its_service_worker_knows_every_page_and_the_archive_each_loads(export):
    site, _, _ = export
    data = offline_data((site / "sw.js").read_text())
    assert set(data["pages"]) == {"./", *PAGES} and data["front"] == "./"
    for url, digest in data["pages"].items():
        assert hashlib.sha256(local(site, urljoin(SITE, url)).read_bytes()).hexdigest() == digest, url
    for page in PAGES:
        engine = config_in((site / page / "index.html").read_text())["urls"]["engine"]
        assert urljoin(SITE, data["archives"][page]) == urljoin(SITE + page, engine), page
    assert "./" not in data["archives"]  # the list loads no exercise


def test_with_one_exercise_served_the_front_page_is_its_page(tmp_path):
    (tmp_path / "ex" / "course.json").parent.mkdir()
    (tmp_path / "ex" / "course.json").write_text('{"exercises": ["step"]}')
    app = create_app({"TESTING": True, "EXERCISES": str(tmp_path / "ex")})
    with app.app_context():
        written = export_site(tmp_path / "site", compressed=False)
    site = tmp_path / "site"
    pages = sorted(p.relative_to(site).as_posix() for p in written if p.name == "index.html")
    assert pages == ["exercises/step/index.html", "index.html"]
    front = config_in((site / "index.html").read_text())
    assert front["exercise"] == "step" and not front["urls"]["engine"].startswith("../")
    assert urljoin(SITE, front["publicPage"]) == SITE + "exercises/step/"
    data = offline_data((site / "sw.js").read_text())
    assert data["archives"]["./"] == data["archives"]["exercises/step/"] == front["urls"]["engine"]
