"""The server: the page, the cases, the engine archive, the static files and the headers on each."""

import gzip
import http.client
import io
import json
import re
import subprocess
import sys
import urllib.request
import zipfile

import brotli
import pytest

from runtime.server import bootstrap_hash, pyodide_folder, pyodide_path
from server import ROOT, create_app
from server.page.first_paint import READ_SNAPSHOT, RESTORE, first_paint_hashes
from tests.support import servers, solutions
from tests.support.served_page import IMMUTABLE, ISOLATION, PREFIX, SECURITY, SEED, page_config, page_urls

PYODIDE = f"/static/{pyodide_path()}"


def test_page_shows_the_exercise_and_the_starter(client):
    response = client.get(SEED)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Run backpropagation in the right order" in html
    assert "class Value:" in html  # the engine, shown read-only
    config = page_config(client)
    assert config["starter"].startswith("def backward(out):")
    assert config["timeLimitMs"] == 5000


def test_the_tab_names_the_exercise_and_the_site_in_the_page_s_language(client):
    html = client.get(SEED + "?lang=de").get_data(as_text=True)
    assert html.startswith('<!doctype html>\n<html lang="de">')
    title = "<title>Backpropagation in der richtigen Reihenfolge ausführen · Backprop-Playground</title>"
    assert title in html


def test_page_hands_over_the_cases_with_expected_gradients(client, cases):
    assert page_config(client)["cases"] == cases
    assert client.get("/cases.json").status_code == 404  # the page's config carries them: one copy


def test_page_urls_are_versioned_or_hashed(client):
    urls = page_config(client)["urls"]
    assert urls["pyodide"] == PYODIDE
    assert re.fullmatch(r"/static/assets/worker-\w{8}\.js", urls["worker"])
    assert re.fullmatch(r"/engine-[0-9a-f]{16}\.zip", urls["engine"])


def test_every_page_url_is_served_for_good(client):
    urls = page_urls(client)
    assert len(urls) >= 8  # icon, styles, main bundle, preloads, worker, Pyodide, engine
    for url in urls:
        if url.endswith("/"):  # Pyodide's folder, or the lazy stdlib's in it
            url += "json.zip" if "lazy" in url else "pyodide.mjs"
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == IMMUTABLE, url


def test_page_and_cases_revalidate_with_an_etag(client):
    for url in ("/",):
        first = client.get(url)
        assert first.headers["Cache-Control"] == "no-cache"
        again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""


def test_static_files_answer_304_to_a_revalidation(client):
    url = PYODIDE + "pyodide.mjs"
    etag = client.get(url).headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    for name in SECURITY + ISOLATION:
        assert name in again.headers, name


def test_page_urls_follow_script_name(client):
    urls = page_urls(client, base_url="http://localhost" + PREFIX)
    assert all(url.startswith(PREFIX + "/") for url in urls), urls


def test_page_urls_follow_the_proxy_prefix_only_when_trusted():
    headers = {"X-Forwarded-Prefix": PREFIX}
    trusted = create_app({"TESTING": True, "PROXY_FIX": 1}).test_client()
    assert all(url.startswith(PREFIX + "/") for url in page_urls(trusted, headers=headers))
    untrusted = create_app({"TESTING": True}).test_client()
    assert not any(url.startswith(PREFIX) for url in page_urls(untrusted, headers=headers))


@pytest.mark.parametrize(
    "url", ["/", "/cases.json", PYODIDE + "pyodide.asm.wasm", "/engine-0.zip", "/static/nothing.js"]
)
def test_every_response_has_the_security_and_isolation_headers(client, url):
    response = client.get(url)
    for name in SECURITY + ISOLATION:
        assert name in response.headers, (url, name)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_worker_script_has_the_headers(client):
    response = client.get(page_config(client)["urls"]["worker"])
    assert response.mimetype == "text/javascript"
    assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert "'wasm-unsafe-eval'" in response.headers["Content-Security-Policy"]


def test_policy_allows_only_this_origin(client):
    policy = client.get(SEED).headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    # the inline scripts (the runner frame's, the page's two), by their hashes, and the blob: URLs of the
    # runner and its workers
    hashes = f"{bootstrap_hash()} {first_paint_hashes()}"
    assert directives["script-src"] == f"'self' 'wasm-unsafe-eval' {hashes} blob:"
    assert directives["worker-src"] == "'self' blob:"
    assert directives["frame-ancestors"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert "http" not in policy and "*" not in policy


def test_frame_ancestors_is_configurable():
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": "'self' https://course.example"})
    response = app.test_client().get(SEED)
    assert "frame-ancestors 'self' https://course.example" in response.headers["Content-Security-Policy"]
    # a course page that requires CORP may embed it; its files stay same-origin
    assert response.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    wasm = app.test_client().get(PYODIDE + "pyodide.asm.wasm")
    assert wasm.headers["Cross-Origin-Resource-Policy"] == "same-origin"


def test_isolation_can_be_switched_off_but_not_the_security_headers():
    response = create_app({"TESTING": True, "CROSS_ORIGIN_ISOLATION": False}).test_client().get(SEED)
    assert not any(name in response.headers for name in ISOLATION)
    assert all(name in response.headers for name in SECURITY)


def test_the_only_inline_scripts_read_the_kept_snapshot_and_put_the_saved_code_in_the_editor(client):
    html = client.get(SEED).get_data(as_text=True)
    inline = []
    for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
        if re.fullmatch(r'( data-\w+="[^"]+"\s*)+', attributes):
            inline.append(body)  # server/page/first_paint.py, allowed by their hashes
            continue
        assert re.fullmatch(r' type="module"( async)? src="[^"]+"', attributes) or (
            'type="application/json"' in attributes and json.loads(body)
        ), attributes
    assert inline == [READ_SNAPSHOT, RESTORE]
    assert not re.search(r"\son\w+=", html)  # no inline event handlers either


def test_reference_never_reaches_the_browser(client):
    html = client.get(SEED).get_data(as_text=True)
    assert "reversed(order)" not in html and "graded_cases" not in html
    names = zipfile.ZipFile(io.BytesIO(client.get(page_config(client)["urls"]["engine"]).data)).namelist()
    assert not [n for n in names if "reference" in n]
    assert {"engine/__init__.py", "engine/grade.py", "engine/namespace.py", "exercise.json"} <= set(names)
    # engine/ and the exercise's engine and plugin are exactly what the browser gets: every .py in them
    # is in the archive, and none of them holds the reference backward (its iterative search) or the
    # expected gradients' computation.
    seed = ROOT / "exercises" / "backward"
    assert set(names) == {
        *(f"engine/{p.name}" for p in (ROOT / "engine").glob("*.py")),
        "exercise.json",
        "exercises/backward/engine.py",
        *(f"exercises/backward/plugin/{p.name}" for p in (seed / "plugin").glob("*.py")),
    }
    archive = zipfile.ZipFile(io.BytesIO(client.get(page_config(client)["urls"]["engine"]).data))
    for name in names:
        text = archive.read(name).decode()
        assert "reversed(order)" not in text and "def graded_cases" not in text, name


def test_engine_archive_grades_on_its_own(client, tmp_path, cases):
    archive = client.get(page_config(client)["urls"]["engine"]).data
    zipfile.ZipFile(io.BytesIO(archive)).extractall(tmp_path)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = (
        "import json; from engine.grade import grade; from engine.descriptor import archived, read; "
        f"print(grade(read(archived()), {solutions.CORRECT!r}, json.load(open('cases.json')))['passed'])"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


def test_engine_archive_url_is_its_hash(client):
    import hashlib

    url = page_config(client)["urls"]["engine"]
    response = client.get(url)
    assert response.mimetype == "application/zip"
    assert hashlib.sha256(response.data).hexdigest().startswith(url[len("/engine-") : -len(".zip")])
    assert client.get("/engine-0123456789abcdef.zip").status_code == 404
    assert client.get("/engine.zip").status_code == 404


@pytest.mark.parametrize(
    ("name", "mimetype"),
    [
        ("pyodide.asm.wasm", "application/wasm"),
        ("pyodide.mjs", "text/javascript"),
        ("pyodide.asm.mjs", "text/javascript"),
        ("python_stdlib.zip", "application/zip"),
        ("pyodide-lock.json", "application/json"),
    ],
)
def test_mime_types_for_the_runtime(client, name, mimetype):
    assert client.get(PYODIDE + name).mimetype == mimetype


def test_mime_types_for_the_bundles(client):
    urls = page_urls(client)
    types = {client.get(url).mimetype for url in urls if "/assets/" in url and url.endswith(".js")}
    assert types == {"text/javascript"}
    assert {client.get(url).mimetype for url in urls if url.endswith(".css")} == {"text/css"}


def test_wasm_is_sent_precompressed(client):
    url = PYODIDE + "pyodide.asm.wasm"
    raw = (pyodide_folder() / "pyodide.asm.wasm").read_bytes()
    br = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert br.headers["Content-Encoding"] == "br" and br.mimetype == "application/wasm"
    assert br.headers["Vary"] == "Accept-Encoding"
    assert len(br.data) < len(raw) / 3 and brotli.decompress(br.data) == raw
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == raw
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and plain.data == raw


def test_bundles_are_sent_precompressed(client):
    for url in page_urls(client):
        if "/assets/" in url:
            response = client.get(url, headers={"Accept-Encoding": "br"})
            assert response.headers.get("Content-Encoding") == "br", url


def test_time_limit_is_configurable():
    app = create_app({"TIME_LIMIT_MS": 1500})
    assert page_config(app.test_client())["timeLimitMs"] == 1500


def fetch(url, **headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:
        return response.status, response.headers, response.read()


@pytest.mark.slow  # starts server processes
def test_gunicorn_sends_the_same_headers():
    with servers.gunicorn(workers=2) as base:
        status, headers, html = fetch(base)
        assert status == 200 and b"Run backpropagation" in html
        assert headers["Cache-Control"] == "no-cache"
        status, wasm, _ = fetch(base + PYODIDE[1:] + "pyodide.asm.wasm", **{"Accept-Encoding": "br"})
        assert wasm["Content-Encoding"] == "br" and wasm["Content-Type"] == "application/wasm"
        assert wasm["Cache-Control"] == IMMUTABLE
        for response in (headers, wasm):
            for name in SECURITY + ISOLATION:
                assert name in response, name


@pytest.mark.slow  # starts server processes
def test_gunicorn_under_a_script_name():
    with servers.gunicorn(workers=1, env={"SCRIPT_NAME": PREFIX}) as base:
        status, _, html = fetch(base + PREFIX[1:] + "/")
        head = html.decode()[: html.decode().index("</head>")]
        urls = re.findall(r'(?:href|src)="([^"]+)"', head)
        assert urls and all(url.startswith(PREFIX + "/") for url in urls), urls
        for url in urls:
            assert fetch(base + url[1:])[0] == 200, url
        # Outside the sub-path (gunicorn alone answered these with a bare 500): `/` leads to the page,
        # anything else is a 404 that says where it is; both with the security headers.
        home = unfollowed(base, "/")
        assert (home.status, home.headers["Location"]) == (308, PREFIX + "/")
        lost = unfollowed(base, "/elsewhere")
        assert lost.status == 404 and f"the playground is at {PREFIX}/" in lost.body
        for response in (home, lost):
            assert all(name in response.headers for name in SECURITY), response.headers
        assert unfollowed(base, PREFIX + "/sw.js").status == 200


def unfollowed(base: str, path: str):
    """GET path, following no redirect: the response, with its body as text."""
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    response.body = response.read().decode()
    connection.close()
    return response


@pytest.mark.slow  # writes the whole site
def test_export_writes_the_site_with_relative_urls(app, tmp_path, cases):
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    page = site / SEED.strip("/")  # the seed's page, two folders down: its URLs go up to the site's root
    html = (page / "index.html").read_text()
    head = html[: html.index("</head>")]
    urls = re.findall(r'(?:href|src)="([^"]+)"', head)
    config = json.loads(
        re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1]
    )
    urls += list(config["urls"].values())
    assert urls and not any(url.startswith(("/", "http")) for url in urls), urls
    for url in urls:
        assert url.startswith("../../") and (page / url).exists(), url
    assert (page / config["urls"]["pyodide"] / "pyodide.asm.wasm.br").exists()
    assert config["cases"] == cases and not (site / "cases.json").exists()  # the page's config has them
    assert '<meta http-equiv="Content-Security-Policy"' in head and "frame-ancestors" not in head
