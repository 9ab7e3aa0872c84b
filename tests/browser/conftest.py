"""Browser fixtures: a real server on a free port and the real page in Chromium, via Playwright.

The helpers that drive Chromium live beside this file: pages.py (open and watch the page), chromium.py,
checks.py, hosts.py, service_worker.py; those the other tests share too, in tests/support. Nothing is
imported from here or from a test module.
"""

import threading

import pytest
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from server import ROOT, create_app
from server.export.site import export_site
from tests.browser.chromium import CHROMIUM_ARGS, TEST_ARGS, chromium_path
from tests.browser.hosts import Host
from tests.browser.pages import SEED, TIME_LIMIT_MS, open_playground, returning_page, watched_page
from tests.support.servers import http_server


@pytest.fixture
def shoot(request):
    """shoot(page, name): a full-page picture in test-results/<test module>/<name>.png, for a person to
    look at, taken only with --shots (a full page at a phone's pixel ratio costs seconds)."""
    folder = ROOT / "test-results" / request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")

    def take(page, name: str) -> None:
        if request.config.getoption("--shots"):
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=folder / f"{name}.png", full_page=True)

    return take


@pytest.fixture(scope="session")
def serve():
    """Start a real server for an app config on a free port; return its base URL.

    serve.wsgi(app) serves any WSGI app the same way (a course page's site, a static host).
    """
    servers = []

    def wsgi(app) -> str:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        start.origins.add(f"127.0.0.1:{server.server_port}")
        return f"http://127.0.0.1:{server.server_port}/"

    def start(**config) -> str:
        return wsgi(create_app({"TESTING": True, **config}))

    start.wsgi = wsgi
    start.origins = set()
    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="session")
def base_url(serve):
    return serve(TIME_LIMIT_MS=TIME_LIMIT_MS) + SEED  # the seed's exercise's page


@pytest.fixture(scope="session")
def playwright():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    """The tests' Chromium: the headless shell, Pyodide's wasm never optimised (chromium.py's TEST_ARGS)."""
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=TEST_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def full_chromium(browser):
    """The full Chromium a learner has, with the tests' flags (chromium.py's TEST_ARGS): its contexts block
    third-party cookies, as its incognito window does (the headless shell the other tests drive keeps
    them, whatever it is told). For the LTI tests (test_lti.py, test_class_view.py)."""
    full = browser.browser_type.launch(executable_path=chromium_path(full=True), args=TEST_ARGS)
    yield full
    full.close()


@pytest.fixture(scope="session")
def learners_browser(playwright):
    """The headless shell as a learner's Chromium runs the page: its wasm optimised as it runs. For tests
    whose code reaches the stack's end or the time limit, where how the wasm is compiled shows."""
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def context(browser):
    """A new browser context: a browser that has never seen the page (its service workers allowed)."""
    context = browser.new_context()
    yield context
    context.close()


def kept_context(browser, **options):
    """A context to keep for the session (`returning`'s docstring says why without service workers)."""
    context = browser.new_context(service_workers="block", **options)
    context.clean = True  # nothing visited yet: nothing to reset before its first page
    return context


@pytest.fixture(scope="session")
def returning(browser):
    """A returning learner's browser: returning(**options) is a context kept for the whole session, one
    per set of context options (viewport, scale, locale...), whose runtime snapshot later pages reuse.

    Without service workers: the offline worker would live as long as its context, across every test of
    the session, and once (in a full run) a page of a kept context waited 30 s on its own navigation,
    which never reached the server: the worker, which answers the page's navigations, is the one party
    between them. Its own tests (test_offline.py, test_sw_integrity.py, test_hosting.py) run it in
    contexts of their own; here the page's files come from the HTTP cache and the snapshot from the
    Cache Storage the page keeps itself, as in a browser without service workers.
    """
    kept = {}

    def context(**options):
        key = repr(sorted(options.items()))
        if key not in kept:
            kept[key] = kept_context(browser, **options)
        return kept[key]

    yield context
    for context in kept.values():
        context.close()


@pytest.fixture
def learner_page(returning, serve, base_url):
    """learner_page(**context options): a page as `page` is, in the kept context with those options.

    For what only a context sets (a device scale, touch, a locale): a kept context's first page is a first
    visit, a full start of Python. A screen size or a system setting (dark, less motion) is the page's
    own: `page`, then page.set_viewport_size() or page.emulate_media() before it opens the playground.
    """
    opened = []

    def open_page(**options):
        page, assert_clean, reset = returning_page(returning(**options), serve.origins, base_url)
        opened.append((page, assert_clean, reset))
        return page

    yield open_page
    for page, _, reset in opened:
        page.close()
        reset()
    for _, assert_clean, _ in opened:
        assert_clean()


@pytest.fixture(scope="session")
def kept_for_modules(browser):
    """A returning learner's browser kept for the session for module_page, as `returning`'s are, apart
    from them: a page open across a module's tests never shares storage or a snapshot with a test's own."""
    context = kept_context(browser)
    yield context
    context.close()


@pytest.fixture(scope="module")
def module_page(kept_for_modules, serve, base_url):
    """One playground page, loaded once, for a module's tests that Check and read what the page shows.

    Each Check runs in a runtime that never ran code and redraws the results, so what one test Checks
    never reaches the next; the learner's state is reset after the module, as `page`'s after a test.
    """
    page, assert_clean, reset = returning_page(kept_for_modules, serve.origins, base_url)
    open_playground(page, base_url)
    yield page
    page.close()
    reset()
    assert_clean()


@pytest.fixture
def page(learner_page):
    """A page on which no error goes uncaught and no request leaves the test servers' origins.

    In a returning learner's browser: the learner's state is reset after the test (and before it, where
    the last reset in that browser did not finish), the runtime kept (docs/page-contract.md's quicker
    recipe). A test of a first visit takes fresh_page.
    """
    return learner_page()


@pytest.fixture
def fresh_page(context, serve):
    """A watched page in a browser that has never seen the page: a first visit."""
    page, assert_clean = watched_page(context, serve.origins)
    yield page
    assert_clean()


@pytest.fixture
def routed_page(browser, serve):
    """A first visit whose requests the test routes: in a browser with no service worker, which would
    answer from its own cache what the routes should see."""
    context = browser.new_context(service_workers="block")
    page, assert_clean = watched_page(context, serve.origins)
    yield page
    assert_clean()
    context.close()


@pytest.fixture
def host():
    """Serve WSGI apps on free ports: host(app) is its base URL, host.stop(url) takes it away; each is
    stopped after the test."""
    running = Host()
    yield running
    for url in list(running.servers):
        running.stop(url)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The site exported into site/ of a folder that http.server serves: the front page is at /site/, the
    exercises' pages at /site/exercises/<id>/."""
    root = tmp_path_factory.mktemp("static-host")
    app = create_app({"TESTING": True, "TIME_LIMIT_MS": TIME_LIMIT_MS})
    with app.app_context():
        export_site(root / "site")
    with http_server(root) as base:
        yield base + "site/"
