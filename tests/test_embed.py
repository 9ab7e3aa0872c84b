"""Embedding: who hears the page's events, the messages' schema (built by hosting/events.js), embed.js."""

import json

import pytest
from flask import url_for

from server import ROOT, create_app
from server.page.embed import parent_origins
from tests.support import solutions
from tests.support.events import assert_message
from tests.support.node import module_json
from tests.support.seed import grade
from tests.support.served_page import PREFIX, SEED, page_config

SECRET = "# a-comment-only-the-learner-wrote"
SYNTAX_ERROR = "def backward(out):\n    for v in\n"


def node(script: str):
    """Run an ES module script with hosting/events.js imported as `events`; return what it prints."""
    return module_json(script, events=ROOT / "static/js/hosting/events.js")


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


@pytest.mark.parametrize(
    ("source", "error"),
    [(solutions.CORRECT, None), (solutions.NOT_REVERSED, None), (SYNTAX_ERROR, "syntax")],
)
def test_checked_message_follows_the_schema_and_carries_no_code_or_gradients(cases, source, error):
    report = grade(f"{SECRET}\n{source}", cases)
    if report["error"]:
        report["error"].update(message=SECRET, traceback=SECRET)  # as if it quoted the learner's code
    message = node(f"console.log(JSON.stringify(events.checkedMessage({json.dumps(report)}, 3, 2)))")
    assert_message(message)
    assert message["type"] == "backprop-playground:checked"
    assert (message["passed"], message["attempt"], message["hintsShown"]) == (report["passed"], 3, 2)
    assert message["error"] == error
    assert message["order"] == report["order"]
    assert message["expressions"] == [
        {"name": e["name"], "passed": e["passed"], "extra": e["extra"]} for e in report["expressions"]
    ]
    assert SECRET not in json.dumps(message)


def test_ready_and_resize_messages_follow_the_schema():
    messages = '[events.readyMessage("backward"), events.resizeMessage(1234)]'
    ready, resize = node(f"console.log(JSON.stringify({messages}))")
    assert ready == {"type": "backprop-playground:ready", "version": 1, "exercise": "backward"}
    assert resize == {"type": "backprop-playground:resize", "version": 1, "height": 1234}
    for message in (ready, resize):
        assert_message(message)


def test_the_schema_check_refuses_what_is_not_documented():
    good = {"type": "backprop-playground:resize", "version": 1, "height": 10}
    wrong = [{**good, "version": 2}, {**good, "height": 1.5}, {**good, "code": "x"}, {**good, "type": "x"}]
    for bad in wrong:
        with pytest.raises(AssertionError):
            assert_message(bad)


def test_messages_go_to_the_parent_s_origin_only_when_it_is_allowed():
    course, own = "https://course.example.org", "https://play.example.org"
    allowed = {"self": True, "origins": [course]}
    targets = node(
        f"const a = {json.dumps(allowed)};"
        "console.log(JSON.stringify(["
        f"events.targetOrigins(a, '{own}', ['{course}']),"
        f"events.targetOrigins(a, '{own}', ['{own}']),"
        "events.targetOrigins(a, 'https://play.example.org', ['https://evil.example.com']),"
        "events.targetOrigins(a, 'null', ['null']),"
        f"events.targetOrigins(a, '{own}', undefined),"  # a browser without location.ancestorOrigins
        f"events.targetOrigins({{self: false, origins: []}}, '{own}', undefined),"
        "]))"
    )
    assert targets == [[course], [own], [], [], [own, course], []]


def embedded() -> bytes:
    """embed.js as written, with the message prefix the page's events.js uses filled in."""
    source = (ROOT / "static/js/hosting/embed.js").read_text()
    return source.replace("{{ events|tojson }}", '"backprop-playground:"').encode()


def test_embed_js_is_served_beside_the_page_for_course_pages_of_any_origin(client):
    response = client.get("/embed.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.data == embedded()
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


@pytest.mark.slow  # writes the whole site
def test_export_puts_embed_js_beside_the_page(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site/embed.js").read_bytes() == embedded()


def framed_by(client, site: str | None, dest: str = "iframe"):
    """GET the page as a browser does for a frame in a page of site (None: a site that withholds it)."""
    headers = {"Sec-Fetch-Dest": dest, "Sec-Fetch-Site": "cross-site"}
    return client.get(SEED, headers=headers | ({"Referer": f"{site}/week3/"} if site else {}))


def test_a_frame_of_a_site_that_may_not_show_the_page_is_told_so_with_a_way_out():
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": "'self' https://course.example.org"})
    refused = framed_by(app.test_client(), "https://elsewhere.example")
    assert refused.status_code == 403
    html = refused.get_data(as_text=True)
    assert "can’t be shown inside this page" in html and 'href="http://localhost/exercises/backward/"' in html
    assert "https://elsewhere.example" in html and "PLAYGROUND_FRAME_ANCESTORS" in html
    policy = refused.headers["Content-Security-Policy"]
    assert (
        policy.endswith("frame-ancestors *") and "script-src" not in policy and "default-src 'none'" in policy
    )
    assert refused.headers["Cache-Control"] == "no-store"


def test_a_refused_frame_speaks_the_learners_language():
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": "'self'", "LANGUAGE": "de"})
    html = framed_by(app.test_client(), "https://elsewhere.example").get_data(as_text=True)
    assert '<html lang="de">' in html
    assert "Diese Übung kann nicht innerhalb dieser Seite gezeigt werden" in html
    assert "Die Backpropagation-Übung in einem neuen Tab öffnen</a>: Dort funktioniert sie genauso." in html


def test_the_page_itself_goes_wherever_the_answer_is_not_certain():
    allowed = create_app(
        {"TESTING": True, "FRAME_ANCESTORS": "'self' https://course.example.org"}
    ).test_client()
    assert framed_by(allowed, "https://course.example.org").status_code == 200  # allowed
    assert framed_by(allowed, None).status_code == 200  # the site is not named: the browser decides
    assert framed_by(allowed, "https://elsewhere.example", dest="document").status_code == 200  # not a frame
    wildcard = create_app({"TESTING": True, "FRAME_ANCESTORS": "https://*.example.org"}).test_client()
    assert (
        framed_by(wildcard, "https://elsewhere.example").status_code == 200
    )  # the browser matches wildcards
    only_self = create_app({"TESTING": True}).test_client()
    assert framed_by(only_self, "http://localhost").status_code == 200  # 'self'
    assert framed_by(only_self, "https://elsewhere.example").status_code == 403
