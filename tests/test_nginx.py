"""The nginx block an export writes sends, for every file of the export, the headers the app sends:
read back by tests/support/nginx.py, and served by nginx itself (Debian's, scripts/setup-nginx.sh)."""

import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from server import create_app
from server.export.nginx import FILE
from server.export.site import export_site
from tests.support.exercise_folders import course
from tests.support.found import found_by_make
from tests.support.nginx import headers_for, read

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

LOCATION = "/courses/ml/backprop/"
COMPARED = (
    "Cache-Control",
    "Content-Security-Policy",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Embedder-Policy",
    "Cross-Origin-Resource-Policy",
    "Access-Control-Allow-Origin",
    "X-Content-Type-Options",
    "Referrer-Policy",
)
SETTINGS = {
    "default": {},
    "embedded": {"FRAME_ANCESTORS": "'self' https://course.example.org"},
    "not isolated": {"CROSS_ORIGIN_ISOLATION": False},
    "own policy": {"CONTENT_SECURITY_POLICY": "default-src 'self' 'wasm-unsafe-eval' blob:; report-uri /r"},
}


@pytest.mark.parametrize("name", SETTINGS)
def test_nginx_sends_what_the_app_sends_for_every_exported_file(tmp_path, name):
    app = create_app({"TESTING": True, **SETTINGS[name]})
    site = tmp_path / "site"
    args = [
        "export",
        str(site),
        "--no-compressed",
        "--location",
        LOCATION.rstrip("/"),
        "--served-from",
        "/srv/s",
    ]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    assert f"{site / FILE} has the headers to send" in result.output
    conf = (site / FILE).read_text()
    parsed = read(conf)
    assert (parsed["location"], parsed["folder"]) == (LOCATION, "/srv/s/")
    assert parsed["exact"] == {LOCATION + FILE: ["return", "404"]}  # the file itself is not served
    client = app.test_client()
    files = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.name != FILE]
    assert len(files) > 100
    for path in files:
        url = path.removesuffix("index.html")  # a page is served as its folder's URL
        served = client.get("/" + url)
        assert served.status_code == 200, path
        sent = headers_for(conf, LOCATION + url)
        for header in COMPARED:
            assert sent.get(header) == served.headers.get(header), (path, header)
    policy = headers_for(conf, LOCATION)["Content-Security-Policy"]
    assert (name != "embedded") or policy.endswith("frame-ancestors 'self' https://course.example.org")


def nginx_path() -> str | None:
    """nginx as `make test` found it (scripts/setup-nginx.sh), or on the PATH; None: there is none."""
    return found_by_make(".nginx") or shutil.which("nginx")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str):
    """GET url: (status, headers), an error status included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


@pytest.fixture
def nginx(tmp_path):
    """Run nginx with a conf's maps and location in a server of its own, on 127.0.0.1; yield its URL."""
    binary = nginx_path()
    if not binary:
        pytest.skip("no nginx here (make test installs Debian's as root)")
    running = []

    def start(block: str) -> str:
        port = free_port()
        at = block.index("\nlocation ") + 1  # the maps (for http { }), then the location (for a server)
        maps, location = block[:at], block[at:]
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers must read the export in tmp_path
        conf = tmp_path / "nginx-test.conf"
        conf.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
            f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{\n    include /etc/nginx/mime.types;\n"
            "    types { text/javascript mjs; }  # as docs/hosting.md asks of a host\n"
            f"    access_log off;\n    client_body_temp_path {tmp_path}/body;\n"
            f"{maps}    server {{\n        listen 127.0.0.1:{port};\n{location}    }}\n}}\n"
        )
        checked = subprocess.run(
            [binary, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.DEVNULL)
        running.append(process)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, (
                    tmp_path / "error.log"
                ).read_text()
                time.sleep(0.05)
        return f"http://127.0.0.1:{port}"

    yield start
    for process in running:
        process.terminate()
        process.wait(10)


def test_nginx_itself_serves_the_export_with_the_app_s_headers(tmp_path, nginx):
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": "'self' https://course.example.org"})
    with app.app_context():
        export_site(tmp_path / "site", compressed=True, location=LOCATION)
    conf = (tmp_path / "site" / FILE).read_text()
    base = nginx(conf)
    client = app.test_client()
    site = tmp_path / "site"
    files = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.name != FILE]
    variants = (".br", ".gz")
    pages = [f.removesuffix("index.html") for f in files if f.endswith("index.html")]  # by their folders
    assert sorted(pages) == sorted(["", *(f"exercises/{i}/" for i in course())])  # the map and each exercise
    for path in [f for f in files if not f.endswith((*variants, "index.html"))] + pages:
        status, sent = fetch(base + LOCATION + path)
        served = client.get("/" + path)
        assert status == served.status_code == 200, path
        for header in COMPARED:
            assert sent.get(header) == served.headers.get(header), (path, header)
        if path.endswith((".wasm", ".mjs", ".js")):
            assert sent["Content-Type"].split(";")[0] in (
                "application/wasm",
                "text/javascript",
                "application/javascript",
            )
    assert fetch(base + LOCATION + FILE)[0] == 404  # the block itself is not served
    wasm = next(f for f in files if f.endswith("pyodide.asm.wasm"))
    request = urllib.request.Request(base + LOCATION + wasm, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:  # its .gz copy (gzip_static)
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Content-Type"] == "application/wasm"
