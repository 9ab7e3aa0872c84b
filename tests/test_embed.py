"""Embedding: who hears the page's events, and embed.js for course pages."""

from flask import url_for

from server import ROOT, create_app
from server.embed import parent_origins
from tests.test_server import page_config

PREFIX = "/courses/ml/backprop"


def parents(**config):
    return parent_origins({"FRAME_ANCESTORS": "'self'", "CONTENT_SECURITY_POLICY": None, **config})


def test_by_default_only_the_page_s_own_origin_hears_it():
    assert parents() == {"self": True, "origins": []}
    assert parents(FRAME_ANCESTORS="'none'") == {"self": False, "origins": []}


def test_the_origins_allowed_to_frame_it_hear_it_written_as_browsers_do():
    allowed = "'self' https://Course.Example.org:443/week3/ http://127.0.0.1:8123 https://[::1]:8443"
    assert parents(FRAME_ANCESTORS=allowed) == {
        "self": True,
        "origins": ["https://course.example.org", "http://127.0.0.1:8123", "https://[::1]:8443"],
    }


def test_sources_that_name_no_single_origin_hear_nothing():
    # They may frame the page, but postMessage needs one exact origin, and "*" is never used.
    for source in ("*", "https:", "https://*.example.org", "course.example.org", "https://a.org:*"):
        assert parents(FRAME_ANCESTORS=source) == {"self": False, "origins": []}, source


def test_a_policy_that_replaces_ours_decides_with_its_own_frame_ancestors():
    policy = "default-src 'self'; frame-ancestors https://lms.example.edu"
    assert parents(CONTENT_SECURITY_POLICY=policy) == {"self": False, "origins": ["https://lms.example.edu"]}
    assert parents(CONTENT_SECURITY_POLICY="default-src 'self'") == {"self": False, "origins": []}


def test_the_page_config_hands_them_over():
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": "'self' https://course.example.org"})
    assert page_config(app.test_client())["parents"] == {
        "self": True,
        "origins": ["https://course.example.org"],
    }


def test_embed_js_is_served_beside_the_page_for_course_pages_of_any_origin(client):
    response = client.get("/embed.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.data == (ROOT / "static/embed.js").read_bytes()
    assert response.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get("/embed.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_embed_js_follows_the_sub_path(app):
    with app.test_request_context("/", base_url="http://localhost" + PREFIX):
        assert url_for("embed.embed_js") == PREFIX + "/embed.js"
    response = app.test_client().get("/embed.js", base_url="http://localhost" + PREFIX)
    assert response.status_code == 200 and b"backprop-playground:" in response.data


def test_export_puts_embed_js_beside_the_page(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site/embed.js").read_bytes() == (ROOT / "static/embed.js").read_bytes()
