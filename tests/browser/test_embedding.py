"""A course page of another origin embeds the playground with docs/course-page.md's snippet and hears it."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from werkzeug.exceptions import NotFound
from whitenoise import WhiteNoise

from server import ROOT, create_app
from server.export.nginx import FILE as NGINX_FILE
from server.export.site import export_site
from tests.browser.pages import READY_MS, SEED, TIME_LIMIT_MS, wait_for_pictures, watched_page
from tests.support import servers, solutions
from tests.support.events import assert_message
from tests.support.nginx import headers_for

DOCS_URL = "https://play.example.org/courses/ml/backprop/"  # where the docs' course page embeds it from
HEARD = """
if (window === window.top) {
  window.heard = [];  // every message this course page receives
  addEventListener("message", (e) => heard.push({ origin: e.origin, data: e.data }));
  window.dispatched = [];  // the events embed.js dispatches on the iframe
  const keep = (e) => dispatched.push({ on: e.target.id, detail: e.detail });
  for (const name of ["ready", "checked", "resize"]) document.addEventListener(`playground-${name}`, keep);
}
"""


def docs_course_page() -> str:
    """The course page docs/course-page.md shows, as a teacher would copy it."""
    docs = (ROOT / "docs/course-page.md").read_text()
    return re.search(r"```html\n(<!doctype html>.*?)```", docs, re.S)[1]


def static_host(folder, headers=lambda url: {}):
    """A static file server for a folder (a course site, an export) that adds headers(url) to each file."""

    def add(sent, path, url):
        for name, value in headers(url).items():
            sent[name] = value

    return WhiteNoise(
        NotFound(),
        root=folder,
        index_file=True,
        autorefresh=True,
        allow_all_origins=False,
        add_headers_function=add,
    )


ISOLATED = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}


def exported_site_headers(conf: str):
    """What the export's own nginx.conf sends, for an export that course pages embed."""
    return lambda path: headers_for(conf, path)


@pytest.fixture(scope="module")
def sites(serve, tmp_path_factory):
    """A course site (plain, and cross-origin isolated), a third site, and a playground allowing the first."""
    folder = tmp_path_factory.mktemp("course-site")
    course = serve.wsgi(static_host(folder))
    isolated = serve.wsgi(static_host(folder, lambda path: ISOLATED))
    other = serve.wsgi(static_host(folder))
    allowed = f"'self' {course.rstrip('/')} {isolated.rstrip('/')}"
    return {
        "folder": folder,
        "course": course,
        "isolated": isolated,
        "other": other,
        "allowed": allowed,
        "playground": serve(FRAME_ANCESTORS=allowed, TIME_LIMIT_MS=TIME_LIMIT_MS),
    }


def embed(context, origins, sites, site, playground, exercise=SEED):
    """Open the docs' course page on a site, embedding the playground at its URL (its exercise's page:
    the seed's, at exercises/backward/ of the server and of a static export); record what it hears."""
    name = f"{urlsplit(site).port}-{urlsplit(playground).port}.html"
    course_page = docs_course_page().replace(DOCS_URL + SEED, playground + exercise)
    (sites["folder"] / name).write_text(course_page.replace(DOCS_URL, playground))
    page, assert_clean = watched_page(context, origins)
    page.add_init_script(HEARD)
    page.goto(site + name)
    return page, assert_clean


def heard(page, kind):
    messages = page.evaluate("window.heard")
    return [m for m in messages if m["data"].get("type") == f"backprop-playground:{kind}"]


def wait_for_ready(page):
    page.wait_for_function(
        "() => dispatched.some((e) => e.detail.type === 'backprop-playground:ready')", timeout=READY_MS
    )


def playground_frame(page, url):
    frame = page.frame(url=lambda address: address.startswith(url))  # its exercise's page, under url
    frame.wait_for_function("() => window.playground !== undefined")  # a function: its CSP forbids eval
    return frame


def fits(frame):
    """Wait until the iframe shows its whole page: its viewport as tall as the document, within 2 px."""
    frame.wait_for_function(
        "() => Math.abs(innerHeight - document.documentElement.getBoundingClientRect().height) <= 2"
        " && document.documentElement.scrollHeight <= innerHeight"  # nothing to scroll inside
    )
    return frame.evaluate("innerHeight")


def assert_only_ours(page, origin):
    """Every message came from the playground's origin and is a documented one."""
    for message in page.evaluate("window.heard"):
        assert message["origin"] == origin.rstrip("/")
        assert_message(message["data"])


@pytest.mark.parametrize("kind", ["course", "isolated"], ids=["plain-course-page", "isolated-course-page"])
def test_course_page_hears_ready_and_a_pass(sites, serve, context, kind):
    playground = sites["playground"]
    page, assert_clean = embed(context, serve.origins, sites, sites[kind], playground)
    wait_for_ready(page)
    frame = playground_frame(page, playground)
    frame.evaluate("s => window.playground.setCode(s)", solutions.CORRECT)
    page.frame_locator("#backprop").get_by_role("button", name="Check").click()
    # the docs' three lines heard it and kept it in the course site's storage
    expect(page.locator("#backprop-result")).to_have_text(re.compile(r"^Passed on attempt 1, "))
    stored = page.evaluate("JSON.parse(localStorage.getItem('backprop-pass'))")
    assert stored["attempt"] == 1
    (checked,) = heard(page, "checked")
    assert checked["data"]["passed"] is True and checked["data"]["error"] is None
    dispatched = page.evaluate("dispatched")
    assert [e["on"] for e in dispatched if e["detail"]["type"].endswith("checked")] == ["backprop"]
    assert len(heard(page, "ready")) == 1
    assert_only_ours(page, playground)
    if kind == "isolated":  # embed.js loaded under the course page's require-corp, and Stop interrupts
        expect(page.frame_locator("#backprop").get_by_test_id("runtime-status")).to_have_attribute(
            "data-stop", "interrupt"
        )
    assert_clean()


def test_iframe_height_follows_the_page(sites, serve, context):
    playground = sites["playground"]
    page, assert_clean = embed(context, serve.origins, sites, sites["course"], playground)
    wait_for_ready(page)
    frame = playground_frame(page, playground)
    before = fits(frame)
    assert before != 900  # the docs' page starts it at 900 px
    frame.evaluate("s => window.playground.setCode(s)", solutions.NOT_REVERSED)
    page.frame_locator("#backprop").get_by_role("button", name="Check").click()
    expect(page.frame_locator("#backprop").get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
    wait_for_pictures(frame)  # the page's last growth: measured before it, the iframe grows after the measure
    frame.wait_for_function(f"() => document.documentElement.scrollHeight > {before} + 500")
    after = fits(frame)
    assert after > before + 500
    box = page.locator("#backprop").bounding_box()
    assert abs(box["height"] - after) <= 2  # the docs' iframe has no border
    # and shrinks again when the page does: a pass folds the failures' pictures away
    frame.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    frame.wait_for_function(f"() => document.documentElement.getBoundingClientRect().height < {after} - 500")
    assert fits(frame) < after - 500
    assert_only_ours(page, playground)
    assert_clean()


def test_a_site_that_is_not_allowed_is_told_so_in_the_frame_and_hears_nothing(sites, serve, context):
    page, _ = embed(context, serve.origins, sites, sites["other"], sites["playground"])
    frame = page.frame_locator("#backprop")
    refused = frame.get_by_test_id("frame-refused")  # not an empty box: why, and a way to the exercise
    expect(refused).to_contain_text("This exercise can’t be shown inside this page")
    expect(refused).to_contain_text(sites["other"].rstrip("/"))  # the site, named for whoever runs it
    link = frame.get_by_role("link", name="Open the backpropagation exercise in a new tab")
    expect(link).to_have_attribute("href", sites["playground"] + SEED)
    expect(link).to_have_attribute("target", "_blank")
    with context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.wait_for_function("() => window.playground !== undefined")  # the exercise itself, on its own
    assert tab.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    tab.close()
    assert page.evaluate("window.heard") == [] and page.evaluate("dispatched") == []


@pytest.fixture(scope="module")
def export_folder(sites, tmp_path_factory):
    """The site exported with the same frame-ancestors the host sends: its front page is at /site/."""
    root = tmp_path_factory.mktemp("exported")
    app = create_app({"TESTING": True, "FRAME_ANCESTORS": sites["allowed"], "TIME_LIMIT_MS": TIME_LIMIT_MS})
    with app.app_context():
        export_site(root / "site", location="/site/")
    return root


def test_static_export_embedded_with_the_host_s_headers(sites, serve, context, export_folder):
    conf = (export_folder / "site" / NGINX_FILE).read_text()  # written by the export, the policy filled in
    assert f"frame-ancestors {sites['allowed']}" in conf
    host = serve.wsgi(static_host(export_folder, exported_site_headers(conf)))
    playground = host + "site/"
    # an isolated course page: the host's CORP lets it load embed.js and embed the page
    page, assert_clean = embed(context, serve.origins, sites, sites["isolated"], playground)
    wait_for_ready(page)
    frame = playground_frame(page, playground)
    assert frame.evaluate("s => window.playground.check(s)", solutions.CORRECT)["passed"] is True
    expect(page.locator("#backprop-result")).to_have_text(re.compile(r"^Passed on attempt 1, "))
    fits(frame)
    assert_only_ours(page, host)
    expect(page.frame_locator("#backprop").get_by_test_id("runtime-status")).to_have_attribute(
        "data-stop", "interrupt"
    )
    assert_clean()
    # and a site it does not allow is refused by the host's frame-ancestors
    with context.expect_console_message(lambda m: "frame-ancestors" in m.text):
        page, _ = embed(context, serve.origins, sites, sites["other"], playground)
    assert page.frame(url=playground) is None
    assert page.evaluate("window.heard") == [] and page.evaluate("dispatched") == []


def test_without_frame_ancestors_a_site_not_allowed_still_hears_nothing(sites, serve, context, export_folder):
    # A plain file server sends no policy, so any site can frame the export: the page still only
    # talks to the origins it was exported for, never "*".
    with servers.http_server(export_folder) as host:
        playground = host + "site/"
        origins = serve.origins | {urlsplit(host).netloc}
        page, assert_clean = embed(context, origins, sites, sites["other"], playground)
        frame = playground_frame(page, playground)
        assert frame.evaluate("() => window.playground.ready.then(() => 'ready')") == "ready"
        frame.evaluate(
            "() => new Promise((resolve) => {"
            "  addEventListener('backprop-playground:checked', (e) => resolve(e.detail), { once: true });"
            "  document.getElementById('check').click();"
            "})"
        )
        assert page.evaluate("window.heard") == [] and page.evaluate("dispatched") == []
        assert page.locator("#backprop").bounding_box()["height"] == 900  # never resized
        assert_clean()


IMPOSTOR = """<!doctype html><title>Not the playground</title><script>
parent.postMessage({ type: "backprop-playground:resize", version: 1, height: 40 }, "*");
parent.postMessage({ type: "backprop-playground:checked", version: 1, passed: true, attempt: 1,
                     expressions: [], error: null, hintsShown: 0 }, "*");
</script>"""


def two_exercises(playground, other, exercise):
    """A course page with two playground iframes (one boxed border-box, with borders) and an impostor."""
    iframe = '<iframe id="{}" src="{}" title="{}" style="width: 100%; height: 900px; {}"></iframe>'
    return "\n".join(
        [
            '<!doctype html><html lang="en"><title>Two exercises</title>',
            f'<script src="{playground}embed.js"></script>',
            iframe.format("first", playground + exercise, "First exercise", "border: 0"),
            iframe.format(
                "second",
                playground + exercise,
                "Second exercise",
                "box-sizing: border-box; border: 3px solid; padding: 2px",
            ),
            f'<iframe id="impostor" src="{other}impostor.html" title="Another site"></iframe>',
        ]
    )


def test_each_iframe_gets_its_own_messages_and_other_origins_are_ignored(sites, serve, context):
    playground = sites["playground"]
    (sites["folder"] / "impostor.html").write_text(IMPOSTOR)
    (sites["folder"] / "two.html").write_text(two_exercises(playground, sites["other"], SEED))
    page, assert_clean = watched_page(context, serve.origins)
    page.add_init_script(HEARD)
    page.goto(sites["course"] + "two.html")
    impostor = "http://" + urlsplit(sites["other"]).netloc
    page.wait_for_function(
        "impostor => heard.some((m) => m.origin === impostor) && ['first', 'second'].every((id) =>"
        "  dispatched.some((e) => e.on === id && e.detail.type.endsWith('ready')))",
        arg=impostor,
        timeout=READY_MS,
    )
    first, second = (page.locator(f"#{id}").element_handle().content_frame() for id in ("first", "second"))
    before = fits(first)
    assert fits(second) == before  # its borders and padding added, under box-sizing: border-box
    first.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    assert fits(first) > before + 500
    assert second.evaluate("innerHeight") == before
    checked = [e["on"] for e in page.evaluate("dispatched") if e["detail"]["type"].endswith("checked")]
    assert checked == ["first"]
    # The impostor's messages arrived, and embed.js did nothing with them
    assert {m["origin"] for m in page.evaluate("window.heard")} == {playground.rstrip("/"), impostor}
    assert not [e for e in page.evaluate("dispatched") if e["on"] == "impostor"]
    assert page.evaluate("document.getElementById('impostor').style.height") == ""
    assert_clean()
