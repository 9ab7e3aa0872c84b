"""The nginx block an export writes sends, for every file of the export, the headers the app sends."""

import pytest

from server import create_app
from server.nginx import FILE
from tests.nginx import headers_for, read

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
        url = "" if path == "index.html" else path
        served = client.get("/" + url)
        assert served.status_code == 200, path
        sent = headers_for(conf, LOCATION + url)
        for header in COMPARED:
            assert sent.get(header) == served.headers.get(header), (path, header)
    policy = headers_for(conf, LOCATION)["Content-Security-Policy"]
    assert (name != "embedded") or policy.endswith("frame-ancestors 'self' https://course.example.org")
