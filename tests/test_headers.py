"""The settings that go into headers are checked at start-up: a bad one stops the app, named."""

import logging
import os
import subprocess

import pytest

from server import create_app
from server.http.headers import SettingError
from tests.support import servers
from tests.support.served_page import SEED


def framed_by(value):
    """The frame-ancestors a page is sent with, for a PLAYGROUND_FRAME_ANCESTORS value."""
    policy = create_app({"TESTING": True, "FRAME_ANCESTORS": value}).test_client().get("/").headers
    return policy["Content-Security-Policy"].rsplit("; frame-ancestors ", 1)[1]


@pytest.mark.parametrize(
    "value",
    [
        "'self'\nX-Injected: 1",  # a newline would start a header of its own
        "'self'\r\nSet-Cookie: a=b",
        "'self'\t\x00",
        "'self'; script-src *",  # another directive
        "'self', https://other.example",  # another policy
        "",  # no directive: any site could frame it
        "   ",
        "'unsafe-inline'",  # not a source frame-ancestors takes
        "'none' https://course.example.org",
        "https://user@course.example.org",
        "https://course.example.org:https",
        "https://cour$e.example.org",
        1,
    ],
)
def test_a_bad_frame_ancestors_stops_the_app_naming_the_value(value):
    with pytest.raises(SettingError) as error:
        create_app({"TESTING": True, "FRAME_ANCESTORS": value})
    assert isinstance(error.value, ValueError)
    assert str(error.value).startswith(f"PLAYGROUND_FRAME_ANCESTORS={value!r}: ")


@pytest.mark.parametrize(
    "value, sent",
    [
        ("'self'", "'self'"),
        ("'none'", "'none'"),
        ("'SELF' HTTPS://Course.Example.org", "'self' https://course.example.org"),
        ("'self' https:", "'self' https:"),
        ("https://*.example.org", "https://*.example.org"),
        (
            "https://course.example.org:8443 course.example.net",
            "https://course.example.org:8443 course.example.net",
        ),
        ("'self' https://bücher.example", "'self' https://xn--bcher-kva.example"),  # IDNA
        ("https://*.bücher.example:*", "https://*.xn--bcher-kva.example:*"),
    ],
)
def test_good_frame_ancestors_are_sent_in_their_ascii_form(value, sent):
    assert framed_by(value) == sent


def test_a_url_with_a_path_is_reduced_to_its_origin_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING):
        app = create_app(
            {"TESTING": True, "FRAME_ANCESTORS": "'self' https://lms.example.org/course/7?x=1#y"}
        )
    assert app.config["FRAME_ANCESTORS"] == "'self' https://lms.example.org"
    warning = "'https://lms.example.org/course/7?x=1#y' has a path; a page is framed by origin"
    assert any(warning in record.getMessage() for record in caplog.records)
    assert framed_by("'self' https://lms.example.org/course/7") == "'self' https://lms.example.org"
    # the page's events go to that origin, the one a browser compares with the framing page's
    html = app.test_client().get(SEED).get_data(as_text=True)  # the seed's page
    assert '"origins": ["https://lms.example.org"]' in html


@pytest.mark.parametrize(
    "value", ["default-src 'self'\nX-Injected: 1", "default-src 'self'\x7f", "  ", "default-src 'sélf'"]
)
def test_a_policy_with_control_characters_stops_the_app(value):
    with pytest.raises(SettingError, match=r"^PLAYGROUND_CONTENT_SECURITY_POLICY="):
        create_app({"TESTING": True, "CONTENT_SECURITY_POLICY": value})


def test_a_whole_policy_is_still_sent_as_written():
    policy = "default-src 'self'; report-uri /csp"
    app = create_app({"TESTING": True, "CONTENT_SECURITY_POLICY": policy})
    assert app.test_client().get("/").headers["Content-Security-Policy"] == policy


@pytest.mark.slow  # starts server processes
@pytest.mark.parametrize("server", ["gunicorn", "flask"])
def test_the_servers_stop_at_start_up_with_the_message(server):
    # As `make production` and `make run` start them; gunicorn's workers load the app, and gunicorn
    # stops when one cannot ("Worker failed to boot"), instead of answering every request with a 500.
    args = {
        "gunicorn": ["gunicorn", "--workers", "1", "--bind", "127.0.0.1:0", "--no-control-socket"],
        "flask": ["flask", "--app", "server", "run", "--port", "0"],
    }[server]
    args = [str(servers.BIN / args[0]), *args[1:]] + (["server:create_app()"] if server == "gunicorn" else [])
    env = {**os.environ, "PLAYGROUND_FRAME_ANCESTORS": "'self'\nX-Injected: 1"}
    done = subprocess.run(args, cwd=servers.ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    message = "Error: PLAYGROUND_FRAME_ANCESTORS=\"'self'\\nX-Injected: 1\": '\\n' is not allowed"
    assert message in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr  # one line that says what to set, not a traceback
