"""Offline and updates: the service worker keeps the page and its files for a second visit with no
network, and a new deploy is taken after one reload, never mixed with the old one.

"No network" here is real: the server is shut down (its port refuses connections) and the browser is
set offline. Playwright's offline switch alone does not reach a service worker's own fetches
(microsoft/playwright#2311), so a worker that still asked the server would pass with it alone.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.middleware.shared_data import SharedDataMiddleware

from server import create_app
from server.export.nginx import FILE as NGINX_FILE
from server.export.site import export_site
from tests.browser.chromium import TEST_ARGS, chromium_path
from tests.browser.hosts import PREFIX, Deploy, netloc
from tests.browser.pages import SEED, open_playground, wait_until, watched_page
from tests.browser.service_worker import FILES_CACHE, SNAPSHOT_CACHE, kept_offline, offline_state
from tests.support import solutions
from tests.support.builds import new_build_app
from tests.support.exercise_folders import course
from tests.support.graded_exercise import code
from tests.support.nginx import headers_for

OUR_CACHES = f"async () => (await caches.keys()).filter(n => n.startsWith('{FILES_CACHE}'))"


def static_host(folder, conf: str):
    """A plain static file server for an exported site, sending the headers of the export's nginx.conf."""
    files = SharedDataMiddleware(NotFound(), {"/": str(folder)})

    def index(environ, start_response):  # a folder's URL serves its index.html, as static hosts do
        sent = headers_for(conf, environ["PATH_INFO"])

        def start(status, headers, exc_info=None):
            return start_response(status, headers + list(sent.items()), exc_info)

        if environ["PATH_INFO"].endswith("/"):
            environ = {**environ, "PATH_INFO": environ["PATH_INFO"] + "index.html"}
        return files(environ, start)

    return index


def reloaded(page):
    """Reload the page, once, and wait until Check grades."""
    page.reload()
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("window.playground.ready.then(() => 'ready')") == "ready"


def network_off(context, host, url, page):
    """Stop the server and set the browser offline; empty its HTTP cache, as an eviction would."""
    host.stop(url)
    context.set_offline(True)
    context.new_cdp_session(page).send("Network.clearBrowserCache")  # so only the worker's cache is left


def grades_and_draws(page):
    """A right Check passes, a wrong one fails, and the failing expression's picture is drawn."""
    report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    assert report["passed"] is True, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
    report = page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    assert report["passed"] is False and report["error"] is None
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "fail")
    picture = page.locator("[data-expr=reuse] [data-testid=graph]")
    expect(picture).to_have_attribute("data-state", "ready")  # the drawing code: a lazy chunk
    expect(picture.locator("svg [data-node]").first).to_be_visible()


def offline_again(context, host, base, first, assert_clean):
    """Take the network away, close the first page (clean), and open a second one watched: (the page, what
    it was answered, its own assert_clean). Every answer must come from the worker's cache."""
    network_off(context, host, base, first)
    first.close()
    assert_clean()
    again, assert_clean_again = watched_page(context, {netloc(base)})
    responses = []
    again.on("response", lambda r: responses.append(r))
    return again, responses, assert_clean_again


def from_the_network(responses) -> list[str]:
    """The URLs answered by the network, not the worker (blob: URLs name bytes the page already has: the
    runner frame's scripts)."""
    return [r.url for r in responses if not r.from_service_worker and not r.url.startswith("blob:")]


def visit_then_revisit_offline(context, host, wsgi, path=""):
    """Visit the page, take the network away, visit it again; return the second page, ready."""
    base = host(wsgi)
    url = base + (path or SEED)  # the seed's exercise's page, kept as the page that registered the worker
    first, assert_clean = watched_page(context, {netloc(base)})
    open_playground(first, url)
    kept_offline(first)
    again, responses, assert_clean_again = offline_again(context, host, base, first, assert_clean)
    open_playground(again, url)
    grades_and_draws(again)
    assert from_the_network(responses) == []
    assert_clean_again()
    return again


def test_second_visit_works_with_the_network_off(context, host):
    page = visit_then_revisit_offline(context, host, create_app({"TESTING": True}))
    # The page and the worker's script came from the cache with their headers: Stop still interrupts.
    assert page.evaluate("crossOriginIsolated") is True
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-stop", "interrupt")


def test_second_visit_works_offline_under_a_sub_path(context, host):
    app = DispatcherMiddleware(NotFound(), {PREFIX: create_app({"TESTING": True})})
    page = visit_then_revisit_offline(context, host, app, PREFIX[1:] + "/" + SEED)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith(PREFIX + "/sw.js")
    assert page.evaluate("crossOriginIsolated") is True


def test_second_visit_works_offline_from_a_static_export(context, host, tmp_path):
    app = create_app({"TESTING": True})
    with app.app_context():
        written = export_site(tmp_path / "site", location="/site/")
    conf = next(path for path in written if path.name == NGINX_FILE).read_text()
    page = visit_then_revisit_offline(context, host, static_host(tmp_path, conf), "site/" + SEED)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/site/sw.js")
    assert page.evaluate("crossOriginIsolated") is True


def grades(page, exercise):
    """The exercise's reference passes and its starter fails."""
    report = page.evaluate("s => window.playground.check(s)", code(exercise, "reference.py"))
    assert (report["exercise"], report["passed"]) == (exercise, True), report["error"]
    report = page.evaluate("s => window.playground.check(s)", code(exercise, "starter.py"))
    assert (report["exercise"], report["passed"]) == (exercise, False)
    status = "error" if report["error"] else "fail"  # ops's starter: its constants' TypeError
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", status)


# Whether a page and its archive are both kept (in the one cache of this build).
KEPT = """async ([prefix, page]) => {
  const name = (await caches.keys()).find((n) => n.startsWith(prefix));
  const config = JSON.parse(document.getElementById("config").textContent);
  const archive = new URL(config.urls.engine, location.href).href;
  return (await caches.match(page, { cacheName: name })) !== undefined
    && (await caches.match(archive, { cacheName: name })) !== undefined;
}"""


def exported_site(tmp_path):
    """A static export served as files with its nginx.conf's headers: (WSGI app, the site's path)."""
    app = create_app({"TESTING": True})
    with app.app_context():
        written = export_site(tmp_path / "site", location="/site/")
    conf = next(path for path in written if path.name == NGINX_FILE).read_text()
    return static_host(tmp_path, conf), "site/"


@pytest.mark.parametrize("served", ["server", "export"])
def test_each_page_visited_online_works_offline_and_only_those(context, host, tmp_path, served):
    wsgi, site = (create_app({"TESTING": True}), "") if served == "server" else exported_site(tmp_path)
    base = host(wsgi)
    root = base + site
    # The first visit is ops': its worker keeps the build's files, ops' page and archive, the front page.
    first, assert_clean = watched_page(context, {netloc(base)})
    open_playground(first, root + "exercises/ops/")
    kept_offline(first)
    # The seed's page, visited next through that worker, is kept with its archive as it loads.
    open_playground(first, root + SEED)
    wait_until(first, KEPT, [FILES_CACHE, root + SEED])
    again, responses, assert_clean_again = offline_again(context, host, base, first, assert_clean)
    open_playground(again, root + "exercises/ops/")
    grades(again, "ops")
    open_playground(again, root + SEED)
    grades_and_draws(again)
    again.goto(root)  # the front page's course map, its states read from this browser's storage
    expect(again.get_by_test_id("exercises").get_by_role("link")).to_have_count(len(course()))
    expect(again.locator(".course-map")).to_have_attribute("data-ready", "true")
    expect(again.locator(".course-map li[data-id=ops] .state")).to_have_text("Passed")  # graded above
    expect(again.locator(".course-map li[data-id=step] .state")).to_have_text("Not started")
    assert from_the_network(responses) == []
    # Step's page was never opened online: offline it is not there (the browser says the network failed).
    with pytest.raises(PlaywrightError, match="ERR_"):
        again.goto(root + "exercises/step/")
    assert_clean_again()


def bundles(requests, name):
    """The hashed bundles of an entry point (main, worker) among the requests, by file name."""
    return {url.rsplit("/", 1)[1] for url, _ in requests if f"/static/assets/{name}-" in url}


def only_new(requests):
    """Assert the page and its service worker asked for the new main and worker bundles, not the old."""
    asked = [r for r in requests if "/static/assets/main-" in r[0] or "/static/assets/worker-" in r[0]]
    assert bundles(requests, "main") == {"main-NEWBUILD.js"}, asked
    assert bundles(requests, "worker") == {"worker-NEWBUILD.js"}, asked


def test_a_new_build_is_taken_after_one_reload_and_never_mixed(context, host, tmp_path):
    deploy = Deploy(create_app({"TESTING": True}))
    url = host(deploy) + SEED
    page, assert_clean = watched_page(context, {netloc(url)})
    open_playground(page, url)
    kept_offline(page)
    ops = url.removesuffix(SEED) + "exercises/ops/"  # a page kept on its visit: the new build keeps it too
    open_playground(page, ops)
    wait_until(page, KEPT, [FILES_CACHE, ops])
    open_playground(page, url)
    old_caches = page.evaluate(OUR_CACHES)
    assert len(old_caches) == 1
    page.evaluate(f"caches.open('{SNAPSHOT_CACHE}').then(() => true)")
    assert page.evaluate("document.documentElement.dataset.build") is None

    deploy.app = new_build_app(tmp_path / "build")
    # The sign the page has changed hands: the new worker starts activating (skipWaiting); once it is
    # "activated", its activate handler has deleted the old caches. Listened for from the start of
    # each document, so it cannot be missed.
    page.add_init_script(  # not in the runner frame, whose opaque origin has no service worker
        "if (self.origin !== 'null') "
        "navigator.serviceWorker.oncontrollerchange = () => (window.controllerChanged = true)"
    )
    requests = []
    context.on("request", lambda r: requests.append((r.url, "sw" if r.service_worker else "page")))
    reloaded(page)  # one reload
    assert page.evaluate("document.documentElement.dataset.build") == "new"
    grades_and_draws(page)  # each Check in a worker started from the new worker bundle
    only_new(requests)
    # The new service worker has cached the new build and taken over; the old cache is gone, no other.
    page.wait_for_function(
        "() => window.controllerChanged && navigator.serviceWorker.controller.state === 'activated'"
    )
    new_caches = page.evaluate(OUR_CACHES)
    assert len(new_caches) == 1 and new_caches != old_caches
    assert SNAPSHOT_CACHE in page.evaluate("caches.keys()")

    network_off(context, host, url.removesuffix(SEED), page)
    requests.clear()
    reloaded(page)
    assert page.evaluate("document.documentElement.dataset.build") == "new"
    grades_and_draws(page)
    only_new(requests)
    open_playground(page, ops)  # never visited on the new build: kept by its worker on install
    assert page.evaluate("document.documentElement.dataset.build") == "new"
    grades(page, "ops")
    assert_clean()


def test_switched_off_the_page_removes_the_worker_and_its_caches(context, host):
    deploy = Deploy(create_app({"TESTING": True}))
    url = host(deploy) + SEED
    page, assert_clean = watched_page(context, {netloc(url)})
    open_playground(page, url)
    kept_offline(page)
    page.evaluate(f"caches.open('{SNAPSHOT_CACHE}').then(() => true)")
    deploy.app = create_app({"TESTING": True, "OFFLINE": False})
    reloaded(page)  # through the old worker, which the server's new sw.js replaces and removes
    offline_state(page, "removed")
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r === undefined)")
    assert (
        page.evaluate("caches.keys()") == []
    )  # the stored snapshot too (tests/browser/test_sw_integrity.py)
    reloaded(page)
    offline_state(page, "off")
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert_clean()


def test_where_service_workers_are_unavailable_the_page_works_and_says_so_on_the_console(browser, host):
    # http on a host that is not this machine's loopback: not a secure context, so no service workers
    # (nor cross-origin isolation). The name maps to 127.0.0.1 inside this browser only.
    args = [*TEST_ARGS, "--host-resolver-rules=MAP playground.test 127.0.0.1"]
    other = browser.browser_type.launch(executable_path=chromium_path(), args=args)
    try:
        port = urlsplit(host(create_app({"TESTING": True}))).port
        url = f"http://playground.test:{port}/{SEED}"
        page, assert_clean = watched_page(other.new_context(), {netloc(url)})
        notes = []
        page.on("console", lambda m: notes.append((m.type, m.text)))
        open_playground(page, url)
        assert page.evaluate("isSecureContext") is False
        report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
        assert report["passed"] is True
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")
        note = "The playground is not kept for offline use: this browser has no service workers here"
        assert ("info", note) in notes  # logged once ready, before the Check
        offline_state(page, "unavailable")
        assert_clean()
    finally:
        other.close()


def test_a_module_first_imported_online_is_kept_for_offline_visits(context, host):
    fractions = "from fractions import Fraction\nprint(Fraction(1, 3))\n" + solutions.CORRECT
    base = host(create_app({"TESTING": True}))
    first, assert_clean = watched_page(context, {netloc(base)})
    open_playground(first, base + SEED)
    kept_offline(first)
    report = first.evaluate("s => window.playground.check(s)", fractions)  # fetches fractions' archive
    assert report["passed"] is True and report["output"]["text"].startswith("1/3"), report["error"]
    network_off(context, host, base, first)
    first.close()
    assert_clean()
    again, assert_clean_again = watched_page(context, {netloc(base)})
    open_playground(again, base + SEED)
    report = again.evaluate("s => window.playground.check(s)", fractions)
    assert report["passed"] is True and report["output"]["text"].startswith("1/3"), report["error"]
    # A module never imported online cannot come offline: the learner is told why, in their terms.
    report = again.evaluate("s => window.playground.check(s)", "import statistics\n" + solutions.CORRECT)
    assert report["error"]["kind"] == "runtime" and "could not be downloaded" in report["error"]["message"]
    assert report["error"]["line"] == 1
    assert_clean_again()
