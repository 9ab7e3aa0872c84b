"""The service worker's script: where it is served, with which headers, and what it keeps for a build."""

import gzip
import hashlib
import json
import re
from urllib.parse import urljoin

import brotli
import pytest

from server import create_app
from server.page import static
from server.page.names import NAMES
from tests.support.builds import new_build_app
from tests.support.exercise_folders import course
from tests.support.served_page import IMMUTABLE, ISOLATION, PREFIX, SECURITY, SEED, page_config, page_urls

pytestmark = pytest.mark.slow  # renders every page of a build (and an export) to digest it: seconds a test


def offline_data(text):
    """The data sw.js was rendered with."""
    return json.loads(re.search(r"^const OFFLINE = (.*);$", text, re.M)[1])


def test_served_beside_the_page_as_a_script_the_browser_revalidates(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    for name in SECURITY + ISOLATION:  # a worker answering for the page hands on responses that have them
        assert name in response.headers, name
    assert page_config(client)["serviceWorker"] == "/sw.js"


def test_keeps_every_file_the_page_loads_and_only_files_kept_for_good(client):
    data = offline_data(client.get("/sw.js").get_data(as_text=True))
    files = data["files"]
    for url in page_urls(client):
        if url == page_config(client)["urls"]["lazyStdlib"]:
            assert url in data["lazy"]  # its archives are kept when first imported
            continue
        if url == page_config(client)["urls"]["engine"]:
            assert data["archives"][SEED] == url  # kept with its page
            continue
        expected = (
            [url + name for name in ("pyodide.mjs", "pyodide.asm.wasm")] if url.endswith("/") else [url]
        )
        assert set(expected) <= set(files), url
    assert any("/static/assets/chunk-" in f for f in files)  # the picture's code, loaded lazily, too
    assert not any(f.endswith((".map", ".br", ".gz")) for f in files)
    for url in [*files, *data["archives"].values()]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == IMMUTABLE, url


def test_under_a_prefix_it_and_its_files_are_under_the_prefix(client):
    base = "http://localhost" + PREFIX
    assert page_config(client, base_url=base)["serviceWorker"] == PREFIX + "/sw.js"
    data = offline_data(client.get("/sw.js", base_url=base).get_data(as_text=True))
    assert all(url.startswith(PREFIX + "/") for url in [*data["files"], *data["digests"], *data["lazy"]])
    page = client.get(SEED, base_url=base).data
    assert data["pages"][PREFIX + SEED] == sha256(page)  # the page as served there, its URLs under the prefix
    assert data["front"] == PREFIX + "/" and all(url.startswith(PREFIX + "/") for url in data["archives"])


def test_a_new_build_makes_a_new_script_and_the_same_build_the_same(app, tmp_path):
    again = create_app({"TESTING": True}).test_client().get("/sw.js").data
    assert app.test_client().get("/sw.js").data == again
    new = new_build_app(tmp_path / "build").test_client().get("/sw.js").get_data(as_text=True)
    old = offline_data(again.decode())
    data = offline_data(new)
    assert data["build"] != old["build"]
    old_main = next(url for url in old["files"] if "/main-" in url)
    assert "/static/assets/main-NEWBUILD.js" in data["files"] and old_main not in data["files"]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def decoded(response):
    """A response's body as a browser keeps it: without its Content-Encoding."""
    encoding = response.headers.get("Content-Encoding")
    body = response.data
    return {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda b: b}[encoding](body)


def test_names_the_sha256_of_every_file_as_a_browser_receives_it(client):
    data = offline_data(client.get("/sw.js").get_data(as_text=True))
    archives = set(data["archives"].values())  # each exercise's: kept with its page
    lazy = [url for url in data["digests"] if url not in data["files"] and url not in archives]
    assert archives <= set(data["digests"])
    assert set(data["files"]) <= set(data["digests"])
    assert lazy and all(url.startswith(tuple(data["lazy"])) for url in lazy)  # the stdlib's later archives
    assert any(url.endswith("/statistics.zip") for url in lazy)
    for url, digest in data["digests"].items():
        for encoding in ("br", "gzip", "identity"):  # whichever copy WhiteNoise sends
            response = client.get(url, headers={"Accept-Encoding": encoding})
            assert response.status_code == 200, url
            assert sha256(decoded(response)) == digest, (url, encoding)
    wasm = next(url for url in data["files"] if url.endswith("/pyodide.asm.wasm"))
    assert client.get(wasm, headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"


def test_a_file_rebuilt_in_place_gets_its_new_sha256(tmp_path):
    """The digests are taken once per version of a file in a process (server/page/offline.py digests): a
    bundle written again under its name is digested again, or the worker would refuse it."""
    build = tmp_path / "build"
    first = new_build_app(build).test_client()
    data = offline_data(first.get("/sw.js").get_data(as_text=True))
    url = next(u for u in data["digests"] if u.endswith("/main-NEWBUILD.js"))
    bundle = build / "assets" / "main-NEWBUILD.js"
    bundle.write_text(bundle.read_text() + "// written again\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(static, "BUILD", build)
        again = create_app({"TESTING": True}).test_client()
    digest = offline_data(again.get("/sw.js").get_data(as_text=True))["digests"][url]
    assert digest == sha256(bundle.read_bytes()) != data["digests"][url]


def test_names_the_sha256_of_this_builds_page_and_a_new_build_changes_it(client, tmp_path):
    data = offline_data(client.get("/sw.js").get_data(as_text=True))
    assert data["pages"][SEED] == sha256(client.get(SEED).data)
    new = new_build_app(tmp_path / "build").test_client()
    new_data = offline_data(new.get("/sw.js").get_data(as_text=True))
    assert new_data["pages"][SEED] == sha256(new.get(SEED).data) != data["pages"][SEED]
    # Settings that change the page change the script too, so the new page is kept, not refused.
    slower = create_app({"TESTING": True, "TIME_LIMIT_MS": 9000}).test_client()
    slower_data = offline_data(slower.get("/sw.js").get_data(as_text=True))
    assert slower_data["pages"][SEED] == sha256(slower.get(SEED).data) != data["pages"][SEED]
    assert slower_data["build"] != data["build"]


def test_names_every_page_the_server_sends_and_the_archive_each_loads(client):
    data = offline_data(client.get("/sw.js").get_data(as_text=True))
    front = client.get("/").get_data(as_text=True)
    linked = re.findall(r'<a href="(/exercises/[^"]+)" data-exercise', front)
    assert linked == [f"/exercises/{i}/" for i in course()] and data["front"] == "/"
    assert set(data["pages"]) == {"/", *linked}  # the front page and each exercise's
    for url, digest in data["pages"].items():
        assert sha256(client.get(url).data) == digest, url
    # Each exercise's page and its own archive, kept together; the front page's list loads none. The
    # archives are kept with their pages, not with the build's files on install.
    assert data["archives"] == {url: page_config_at(client, url)["urls"]["engine"] for url in linked}
    assert len(set(data["archives"].values())) == len(linked)  # one each
    for archive in data["archives"].values():
        assert archive not in data["files"]
        assert sha256(client.get(archive).data) == data["digests"][archive], archive


def test_with_one_exercise_served_the_front_page_is_kept_with_its_archive(tmp_path):
    (tmp_path / "course.json").write_text('{"exercises": ["step"]}')
    client = create_app({"TESTING": True, "EXERCISES": str(tmp_path)}).test_client()
    data = offline_data(client.get("/sw.js").get_data(as_text=True))
    assert set(data["pages"]) == {"/", "/exercises/step/"}
    assert data["pages"]["/"] == sha256(client.get("/").data)
    archive = page_config_at(client, "/")["urls"]["engine"]
    assert archive.startswith("/exercise-step-")
    assert data["archives"] == {"/": archive, "/exercises/step/": archive}


def page_config_at(client, url):
    html = client.get(url).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1])


def removal_script(text):
    """Whether sw.js is the one that removes itself: no fetch handler, no claim, unregister, the caches."""
    names = json.loads(re.search(r"^const NAMES = (.*);$", text, re.M)[1])
    assert names == {"cachePrefix": NAMES["caches"]["files"], "snapshotCache": NAMES["caches"]["snapshot"]}
    return (
        "self.registration.unregister()" in text
        and "caches.delete" in text
        and "skipWaiting" in text
        and not re.search(r"addEventListener\(\"fetch\"|clients\.claim|navigate\(", text)
    )


def test_switched_off_it_is_a_worker_that_removes_itself(tmp_path):
    app = create_app({"TESTING": True, "OFFLINE": False})
    client = app.test_client()
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert removal_script(response.get_data(as_text=True))
    assert page_config(client)["serviceWorker"] is None
    assert app.test_cli_runner().invoke(args=["export", str(tmp_path / "site")]).exit_code == 0
    assert (tmp_path / "site" / "index.html").exists()
    assert removal_script((tmp_path / "site" / "sw.js").read_text())


def test_export_writes_it_beside_the_front_page_with_relative_urls(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    for page in [f"exercises/{i}/" for i in course()]:  # the front page: no runtime
        config = page_config_in(site / page / "index.html")
        assert urljoin("http://h/site/" + page, config["serviceWorker"]) == "http://h/site/sw.js", page
        assert urljoin("http://h/site/" + page, config["home"]) == "http://h/site/", page  # sw.js's scope
    data = offline_data((site / "sw.js").read_text())
    assert data["files"] and not any(url.startswith(("/", "http")) for url in data["files"])
    for url in data["files"]:
        assert (site / url).is_file(), url
    # Each page as written, by its URL relative to sw.js: the front page and every exercise's.
    assert data["front"] == "./"
    assert set(data["pages"]) == {"./", *(f"exercises/{i}/" for i in course())}
    for url, digest in data["pages"].items():
        assert sha256((site / url / "index.html").read_bytes()) == digest, url
    for url, archive in data["archives"].items():
        assert page_config_in(site / url / "index.html")["urls"]["engine"] == "../../" + archive
    # Each file as this site sends it: its stdlib archives are deflated anew, so hashed as written.
    assert set(data["files"]) <= set(data["digests"]) and len(data["digests"]) > len(data["files"])
    assert set(data["archives"].values()) <= set(data["digests"])
    for url, digest in data["digests"].items():
        assert sha256((site / url).read_bytes()) == digest, url
    stdlib = next(url for url in data["files"] if url.endswith("/python_stdlib.zip"))
    assert not (site / (stdlib + ".br")).exists()  # the build's copy: not these bytes


def page_config_in(path):
    html = path.read_text()
    return json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1])


def test_each_language_and_prefix_gets_the_digests_of_its_own_pages(client):
    # sw.js is rendered once for each (the browser asks at every visit): never one for another.
    asked = [({}, None), ({"Accept-Language": "de"}, None), ({}, "http://localhost" + PREFIX)]
    for _ in range(2):
        for headers, base in asked:
            data = offline_data(client.get("/sw.js", headers=headers, base_url=base).get_data(as_text=True))
            prefix = PREFIX if base else ""
            for url in ("/", SEED, "/exercises/ops/"):
                page = client.get(url, headers=headers, base_url=base).data
                assert data["pages"][prefix + url] == sha256(page), (headers, base, url)
    german = client.get(SEED, headers={"Accept-Language": "de"}).data
    assert german != client.get(SEED).data
