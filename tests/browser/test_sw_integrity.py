"""Nothing the service worker kept is trusted blindly, and switching offline use off really removes it.

Cache Storage belongs to the origin: code that runs there (pasted learner code, through any hole in
the runtime's sandbox) can rewrite what the service worker keeps. Here the test plays that code, from
page.evaluate, in a browser with a profile on disk, then reloads and restarts the browser on it.
"""

import io
import json
import re
import zipfile
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from server import create_app
from tests.browser.checks import then_honest as grades  # a right backward passes, a wrong one fails
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.hosts import Deploy, netloc
from tests.browser.pages import SEED, open_playground, wait_until, watched_page
from tests.browser.service_worker import FILES_CACHE, SNAPSHOT_CACHE, kept_offline, offline_state
from tests.support import solutions

# What an attacker's code does: append code of its own to the kept worker bundle and page script,
# the headers as they were. Each leaves a mark where the test can see it: a cache named after it.
TAMPER = """async (prefix) => {
  const name = (await caches.keys()).find((n) => n.startsWith(prefix));
  const cache = await caches.open(name);
  const script = document.querySelector('script[src*="/main-"]').src;
  const config = JSON.parse(document.getElementById("config").textContent);
  const worker = new URL(config.urls.worker, document.baseURI).href;
  const altered = {
    [script]: ';document.title = "pwned"; caches.open("pwned-main");',
    [worker]: ';caches.open("pwned-worker");',
  };
  for (const [url, code] of Object.entries(altered)) {
    const kept = await cache.match(url);
    await cache.put(url, new Response((await kept.text()) + code, { headers: kept.headers }));
  }
  return [script, worker];
}"""

# Whether every one of these URLs has a copy kept in the build's cache.
KEPT_AGAIN = """async ([prefix, urls]) => {
  const name = (await caches.keys()).find((n) => n.startsWith(prefix));
  const kept = await Promise.all(urls.map((url) => caches.match(url, { cacheName: name })));
  return kept.every((response) => response !== undefined);
}"""

ALTERED_PAGE = """async (prefix) => {
  const name = (await caches.keys()).find((n) => n.startsWith(prefix));
  const cache = await caches.open(name);
  const page = new URL("./", location.href).href;
  const html = (await (await cache.match(page)).text()).replace(/<title>[^<]*/, "<title>pwned");
  await cache.put(page, new Response(html, { headers: { "Content-Type": "text/html" } }));
  return page;
}"""


class Browser:
    """Chromium on a profile kept on disk: close it and launch it again, as a learner restarts theirs."""

    def __init__(self, playwright_browser, profile):
        self.type = playwright_browser.browser_type
        self.profile = profile
        self.context = None
        self.warnings = []  # console.warn from any page or service worker of the profile

    def launch(self):
        self.context = self.type.launch_persistent_context(
            str(self.profile), executable_path=chromium_path(), args=TEST_ARGS, service_workers="allow"
        )
        self.context.on("console", lambda m: m.type == "warning" and self.warnings.append(m.text))
        return self.context

    def close(self):
        self.context.close()


@pytest.fixture
def profile(browser, tmp_path):
    chromium = Browser(browser, tmp_path / "profile")
    yield chromium
    if chromium.context:
        chromium.close()


def untouched(page, title):
    """The altered code never ran: the page's title is its own, and no cache bears its marks."""
    assert page.title() == title
    assert not [name for name in page.evaluate("caches.keys()") if name.startswith("pwned")]


def warned_about(chromium, urls):
    """The service worker said, once per URL, that the kept copy was altered (waiting for it to say so)."""
    for url in urls:
        prefix = f"The copy of {url} kept for offline use was altered"
        if not any(w.startswith(prefix) for w in chromium.warnings):
            chromium.context.wait_for_event(
                "console", lambda m, p=prefix: m.text.startswith(p), timeout=10_000
            )
        said = [
            w
            for w in chromium.warnings
            if w.startswith(f"The copy of {url} kept for offline use was altered")
        ]
        assert len(said) == 1, (url, chromium.warnings)


def offline(profile, page, on=True):
    """Take the network away and empty the HTTP cache, as an eviction would: only the kept copies are left."""
    profile.context.set_offline(on)
    if on:
        profile.context.new_cdp_session(page).send("Network.clearBrowserCache")


def test_altered_files_in_the_cache_are_never_served(profile, host):
    url = host(create_app({"TESTING": True})) + SEED
    page, assert_clean = watched_page(profile.launch(), {netloc(url)})
    open_playground(page, url)
    kept_offline(page)
    title = page.title()
    altered = page.evaluate(TAMPER, FILES_CACHE)

    # Online, the files come from the HTTP cache or the network: the altered copies are not even read.
    page.reload()
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    grades(page)
    untouched(page, title)
    assert_clean()

    # Offline with the HTTP cache emptied, the kept copies are all there is: the altered ones are
    # found, deleted and said, and not run; with its script gone, the page does not start Python.
    offline(profile, page)
    page.reload()
    page.wait_for_function("() => document.getElementById('code') !== null")
    warned_about(profile, altered)
    untouched(page, title)
    expect(page.get_by_test_id("runtime-status")).not_to_have_attribute("data-state", "ready")

    # Online again, the files come from the network and are kept again, right: offline they grade.
    offline(profile, page, on=False)
    page, assert_clean = watched_page(profile.context, {netloc(url)})
    open_playground(page, url)
    grades(page)
    untouched(page, title)
    wait_until(page, KEPT_AGAIN, [FILES_CACHE, altered])
    assert_clean()

    # Altered again, then the browser restarts with the server gone: a new service worker, with none of the
    # last one's memory, finds them again. The kept page itself is right, so it is shown, without Python.
    page.evaluate(TAMPER, FILES_CACHE)
    host.stop(url.removesuffix(SEED))
    profile.close()
    profile.warnings.clear()
    profile.launch()
    page = profile.context.pages[0] if profile.context.pages else profile.context.new_page()
    offline(profile, page)
    page.goto(url)
    warned_about(profile, altered)
    untouched(page, title)

    # The kept page, the one offline visits get, altered: with the network gone it is not shown either.
    kept_page = page.evaluate(ALTERED_PAGE, FILES_CACHE)
    with pytest.raises(Exception, match="ERR_"):  # no page at all rather than an altered one
        page.reload()
    warned_about(profile, [kept_page])
    assert page.title() != "pwned"


def test_switched_off_the_worker_and_every_cache_of_the_page_go(profile, host):
    deploy = Deploy(create_app({"TESTING": True}))
    url = host(deploy) + SEED
    page, assert_clean = watched_page(profile.launch(), {netloc(url)})
    open_playground(page, url)
    kept_offline(page)
    wait_until(page, f"async () => (await caches.keys()).includes('{SNAPSHOT_CACHE}')")
    assert any(name.startswith(FILES_CACHE) for name in page.evaluate("caches.keys()"))
    page.evaluate("caches.open('another-cache-of-the-site').then(() => true)")
    profile.close()

    # The server restarts with offline use off; the learner comes back.
    deploy.app = create_app({"TESTING": True, "OFFLINE": False})
    page, assert_clean = watched_page(profile.launch(), {netloc(url)})
    open_playground(page, url)
    # This page was loaded through the old worker: its caches and registration are gone, though the
    # browser keeps the page with the worker that took it over (which has no fetch handler).
    # (The old worker's removal waits for its caches to be deleted: slow on a busy machine.)
    offline_state(page, "removed")
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r === undefined)")
    assert page.evaluate("caches.keys()") == ["another-cache-of-the-site"]
    grades(page)
    assert_clean()

    page.reload()
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    offline_state(page, "off")
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r === undefined)")
    assert not [name for name in page.evaluate("caches.keys()") if name.startswith(FILES_CACHE)]
    grades(page)
    assert_clean()


def planted_archive():
    """A stdlib archive as an attacker would plant it before its first import: statistics.mean is 42."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("statistics.py", "def mean(data):\n    return 42\n")
    return list(buffer.getvalue())


def test_a_stdlib_archive_planted_before_its_first_import_is_not_imported(profile, host):
    app = create_app({"TESTING": True})
    sw = app.test_client().get("/sw.js").get_data(as_text=True)
    digests = json.loads(re.search(r"^const OFFLINE = (.*);$", sw, re.M)[1])["digests"]
    url = host(app) + SEED
    archive = urljoin(url, next(u for u in digests if u.endswith("/statistics.zip")))
    page, assert_clean = watched_page(profile.launch(), {netloc(url)})
    open_playground(page, url)
    kept_offline(page)
    page.evaluate(
        """async ([prefix, url, bytes]) => {
          const name = (await caches.keys()).find((n) => n.startsWith(prefix));
          const headers = { "Content-Type": "application/zip" };
          await (await caches.open(name)).put(url, new Response(new Uint8Array(bytes), { headers }));
        }""",
        [FILES_CACHE, archive, planted_archive()],
    )
    source = "import statistics\nprint(statistics.mean([1, 2]))\n" + solutions.CORRECT
    report = page.evaluate("s => window.playground.check(s)", source)
    assert report["passed"] is True and report["output"]["text"].startswith("1.5"), report  # the network's
    assert_clean()

    # Offline, with the HTTP cache emptied, the planted copy is all there is: it is found and deleted, and
    # the import says the module could not be downloaded. The planted code never runs.
    offline(profile, page)
    report = page.evaluate("s => window.playground.check(s)", source)
    assert report["error"]["kind"] == "runtime", report
    assert "42" not in report["output"]["text"] and "could not be downloaded" in report["error"]["message"]
    warned_about(profile, [archive])


class Rewriter:
    """WSGI: a proxy that rewrites the page on its way (a comment added, as some inject scripts)."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if environ["PATH_INFO"] != "/" + SEED:
            return self.app(environ, start_response)
        sent = {}
        body = b"".join(
            self.app(environ, lambda status, headers, exc_info=None: sent.update(s=status, h=headers))
        )
        body += b"<!-- rewritten on the way -->"
        headers = [(k, v) for k, v in sent["h"] if k.lower() not in ("content-length", "etag")]
        start_response(sent["s"], [*headers, ("Content-Length", str(len(body)))])
        return [body]


def test_a_page_rewritten_on_its_way_is_not_kept_and_the_page_says_so(context, host):
    url = host(Rewriter(create_app({"TESTING": True}))) + SEED
    page, assert_clean = watched_page(context, {netloc(url)})
    notes = []
    page.on("console", lambda m: notes.append(m.text))
    open_playground(page, url)
    grades(page)
    offline_state(page, "unavailable")
    note = "The playground is not kept for offline use: its service worker could not keep this build"
    assert note in notes
    assert not [name for name in page.evaluate("caches.keys()") if name.startswith(FILES_CACHE)]
    assert_clean()
