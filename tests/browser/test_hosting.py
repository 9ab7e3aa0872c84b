"""Hosting: the policy the page runs under, caching, a sub-path behind a proxy, a static export, iframes.

Under a prefix, behind a proxy, as a static export and in a course page's iframe, learner code also
reaches none of the origin's storage (checks.sees_no_storage: the runner frame's opaque origin, whatever
serves the page; the playground's own server: test_runner_frame.py).
"""

import json
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from server import create_app
from server.page.policy import content_security_policy
from tests.browser.checks import sees_no_storage
from tests.browser.hosts import PREFIX, Dispatch, Proxy, Recorder, course_page, embedded_cross_site, netloc
from tests.browser.pages import SEED, TIME_LIMIT_MS, open_playground, watched_page
from tests.browser.service_worker import kept_offline
from tests.support import solutions
from tests.support.exercise_folders import course
from tests.support.graded_exercise import code

ENDLESS = "while True:\n    pass\n"
SENTINEL = "the last violation"
INLINE_SCRIPT = "s => document.body.append(Object.assign(document.createElement('script'), {text: s}))"
EVAL = "import js\ntry:\n    js.eval('1')\nexcept Exception as e:\n    print(e)\n"


class Reports:
    """WSGI middleware: collect the CSP violation reports browsers POST to /csp-report."""

    def __init__(self, app):
        self.app = app
        self.reports = []
        self.arrived = threading.Condition()

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") != "/csp-report":
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        with self.arrived:
            self.reports.append(json.loads(body)["csp-report"])
            self.arrived.notify_all()
        start_response("204 No Content", [])
        return [b""]

    def wait_for(self, predicate, timeout=30):
        """Wait until a report matching predicate has arrived; return it."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: any(map(predicate, self.reports)), timeout), self.reports
            return next(filter(predicate, self.reports))


def passes(page):
    report = page.evaluate("s => window.playground.check(s)", solutions.CORRECT)
    assert report["passed"] is True, report["error"]
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "pass")


def page_with_violations(context, origins):
    """A watched page that also records the securitypolicyviolation events of its documents."""
    page, assert_clean = watched_page(context, origins)
    page.add_init_script(
        "window.violations = [];"
        "document.addEventListener('securitypolicyviolation', e => window.violations.push("
        "{directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile}));"
    )
    return page, assert_clean


def reporting_app(policy, **config):
    """The app with a policy that also reports each violation to /csp-report."""
    policy += "; report-uri /csp-report"
    return Reports(create_app({"TESTING": True, "CONTENT_SECURITY_POLICY": policy, **config}))


def test_page_runs_under_its_policy_with_nothing_blocked(host, context):
    policy = content_security_policy("'self'").replace("script-src", "script-src 'report-sample'")
    app = reporting_app(policy, TIME_LIMIT_MS=TIME_LIMIT_MS)
    url = host(app) + SEED
    page, assert_clean = page_with_violations(context, {netloc(url)})
    open_playground(page, url)
    passes(page)
    assert page.evaluate("s => window.playground.check(s)", ENDLESS)["error"]["kind"] == "timeout"
    passes(page)
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)  # draws the graphs (lazy chunk)
    graph = page.locator("[data-expr=reuse] [data-testid=graph]")
    expect(graph).to_have_attribute("data-state", "ready")
    expect(graph.locator("svg [data-node]").first).to_be_visible()
    # In the worker, eval is refused (no 'unsafe-eval'). Its report is not waited for: the Check's worker
    # is ended as soon as it answers, which may be before the browser has sent what it reported.
    report = page.evaluate("s => window.playground.check(s)", EVAL)
    assert "EvalError" in report["output"]["text"]
    # A last violation, the test's own, from the page, which lives on: every report before it has come.
    page.evaluate(INLINE_SCRIPT, SENTINEL)
    last = app.wait_for(lambda r: r.get("script-sample") == SENTINEL)
    others = [r for r in app.reports if r is not last and r["blocked-uri"] != "eval"]
    assert others == [], json.dumps(others, indent=1)[:3000]
    assert [v["blocked"] for v in page.evaluate("window.violations")] == ["inline"]
    assert_clean()


def test_without_wasm_unsafe_eval_pyodide_cannot_start(host, context):
    policy = content_security_policy("'self'").replace(" 'wasm-unsafe-eval'", "")
    app = reporting_app(policy)
    url = host(app) + SEED
    page, _ = page_with_violations(context, {netloc(url)})
    page.goto(url)
    report = app.wait_for(lambda r: r["blocked-uri"] == "wasm-eval")
    assert report["source-file"] == "blob"  # Pyodide's loader, in the runner frame's worker
    assert "could not load" in page.evaluate("window.playground.ready.then(() => 'ready', e => e.message)")


def test_without_unsafe_inline_styles_codemirror_is_unstyled(host, context):
    policy = content_security_policy("'self'").replace(" 'unsafe-inline'", "")
    url = host(reporting_app(policy)) + SEED
    page, _ = page_with_violations(context, {netloc(url)})
    page.goto(url)
    page.wait_for_function("() => window.playground !== undefined")
    violations = page.evaluate("window.violations")
    assert violations
    assert all(v["directive"] == "style-src-elem" and v["blocked"] == "inline" for v in violations)
    assert all("/static/assets/" in v["source"] for v in violations)  # CodeMirror's <style>, from our bundle


def test_every_file_is_fetched_once(host, context):
    app = Recorder(create_app({"TESTING": True}))
    url = host(app) + SEED
    page, assert_clean = watched_page(context, {netloc(url)})
    open_playground(page, url)
    paths = [path for path, _ in app.requests]
    names = sorted(path.rsplit("/", 1)[1] for path in paths if "/pyodide/" in path)
    assert names == [  # not the lock: the worker's bundle holds it; not the stdlib's later archives
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "pyodide.mjs",
        "python_stdlib.zip",
    ]
    assert len(paths) == len(set(paths)), paths  # the editor's preloaded bundle included
    # Chromium accepts brotli here, so the big files come precompressed
    wasm = next(path for path in paths if path.endswith("/pyodide.asm.wasm"))
    assert app.encodings[wasm] == "br"
    assert_clean()


def test_returning_visit_asks_only_for_the_page(host, context):
    app = Recorder(create_app({"TESTING": True}))
    url = host(app) + SEED
    page, assert_clean = watched_page(context, {netloc(url)})
    open_playground(page, url)
    passes(page)
    kept_offline(page)  # the worker's own fetches of this build, done: what follows is the next visit's
    page.close()
    app.requests.clear()
    again, assert_clean_again = watched_page(context, {netloc(url)})
    open_playground(again, url)
    passes(again)
    # and the browser's check for a new service worker, when it makes one: unchanged, so 304 too
    assert [r for r in app.requests if r[0] != "/sw.js"] == [("/" + SEED, 304)]
    assert {status for path, status in app.requests if path == "/sw.js"} <= {304}
    assert_clean()
    assert_clean_again()


def assert_under(requests, base):
    outside = [r.url for r in requests if not r.url.startswith((base, "blob:"))]  # blob: is in the browser
    assert outside == [], f"requests outside {base}: {outside}"


def check_under_prefix(context, base, root):
    requests = []
    context.on("request", lambda request: requests.append(request))
    page, assert_clean = watched_page(context, {netloc(base)})
    open_playground(page, root + SEED)
    passes(page)
    report = page.evaluate("s => window.playground.check(s)", ENDLESS)
    assert report["error"]["kind"] == "timeout"
    sees_no_storage(page)  # a pass after the timeout, then the honest pair
    assert_under(requests, root)
    assert len(requests) >= 10
    assert_clean()


def test_mounted_under_a_prefix(host, context):
    app = create_app({"TESTING": True, "TIME_LIMIT_MS": TIME_LIMIT_MS})
    base = host(DispatcherMiddleware(NotFound(), {PREFIX: app}))
    check_under_prefix(context, base, base + PREFIX[1:] + "/")


def test_behind_a_proxy_that_strips_the_prefix(host, context):
    app = create_app({"TESTING": True, "TIME_LIMIT_MS": TIME_LIMIT_MS, "PROXY_FIX": 1})
    base = host(Proxy(app, PREFIX))
    check_under_prefix(context, base, base + PREFIX[1:] + "/")


def test_static_export_runs_on_a_plain_file_server(exported, context):
    requests = []
    context.on("request", lambda request: requests.append(request))
    page, assert_clean = page_with_violations(context, {netloc(exported)})
    open_playground(page, exported + SEED)
    expect(page.get_by_test_id("runtime-status")).to_have_attribute("data-stop", "restart")
    passes(page)
    report = page.evaluate("s => window.playground.check(s)", ENDLESS)
    assert report["error"]["kind"] == "timeout" and "its runtime was ended" in report["error"]["message"]
    sees_no_storage(page)  # a pass after the timeout, then the honest pair
    assert_under(requests, exported)
    assert page.evaluate("window.violations") == []  # the page's own <meta> policy is on
    assert_clean()


def test_static_export_lists_every_exercise_and_each_page_grades_on_a_plain_file_server(exported, browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page, assert_clean = page_with_violations(context, {netloc(exported)})
    for exercise in ("ops", "step"):
        page.goto(exported)  # the front page's list, every exercise a link
        links = page.get_by_test_id("exercises").get_by_role("link")
        expect(links).to_have_count(len(course()))
        assert [a.get_attribute("data-exercise") for a in links.all()] == course()
        page.locator(f"[data-testid=exercises] a[data-exercise={exercise}]").click()
        page.wait_for_url(f"{exported}exercises/{exercise}/")
        open_playground(page, page.url)
        report = page.evaluate("s => window.playground.check(s)", code(exercise, "reference.py"))
        assert (report["exercise"], report["passed"]) == (exercise, True), report["error"]
        report = page.evaluate("s => window.playground.check(s)", code(exercise, "starter.py"))
        assert (report["exercise"], report["passed"]) == (exercise, False)
        status = "error" if report["error"] else "fail"  # ops's starter: its constants' TypeError
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", status)
    # A share link made on step's page opens step's page, with the code, in another browser.
    shared = code("step", "reference.py") + "# shared from the static export\n"
    page.evaluate("s => window.playground.setCode(s)", shared)
    page.click("#share")
    expect(page.get_by_test_id("share-status")).to_contain_text("Link copied")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{exported}exercises/step/#code/1/"), link
    # Previous moves to mlp inside the page, the plain file server giving its page: mlp's code graded.
    page.locator("[data-testid=course-place] a[rel=prev]").click()
    page.wait_for_url(f"{exported}exercises/mlp/")
    shown = "() => JSON.parse(document.getElementById('config').textContent).exercise === 'mlp'"
    page.wait_for_function(shown)
    assert page.evaluate("performance.getEntriesByName('page: exercise shown').length") == 1
    report = page.evaluate("s => window.playground.check(s)", code("mlp", "reference.py"))
    assert (report["exercise"], report["passed"]) == ("mlp", True), report["error"]
    assert page.evaluate("window.violations") == []
    context.close()
    assert_clean()
    friend = browser.new_context()
    page, assert_clean = page_with_violations(friend, {netloc(exported)})
    open_playground(page, link)
    expect(page.get_by_test_id("share-status")).to_contain_text("The link's code is in the editor")
    assert page.evaluate("window.playground.getCode()") == shared
    assert page.evaluate("window.playground.check(window.playground.getCode())")["passed"] is True
    # One made when an export had the seed's page at its root opens the seed's page, with its code.
    old = link.replace(f"{exported}exercises/step/", exported)
    page.goto("about:blank")
    page.goto(old)
    page.wait_for_url(f"{exported}{SEED}*")
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("window.playground.getCode()") == shared  # not the seed's code: but the link's
    friend.close()
    assert_clean()


@pytest.mark.parametrize("isolated", [False, True], ids=["plain-course-page", "isolated-course-page"])
def test_embedded_in_a_course_page(host, context, isolated):
    page, frame, assert_clean = embedded_cross_site(host, context, isolated)
    # Only a cross-origin isolated course page lets the iframe interrupt; elsewhere Stop restarts.
    stop = "interrupt" if isolated else "restart"
    expect(page.frame_locator("iframe").get_by_test_id("runtime-status")).to_have_attribute("data-stop", stop)
    sees_no_storage(frame)  # a pass in the iframe, then the honest pair
    assert_clean()


def test_other_sites_cannot_frame_it_by_default(host, context):
    course = Dispatch()
    course_url = host(course)
    app = reporting_app(content_security_policy("'self'"))
    playground = host(app) + SEED
    # A site that names itself (browsers send its origin as the Referer by default) gets, in the frame,
    # the page that says the exercise cannot be shown there: never the exercise.
    course.app = course_page(playground, isolated=False)
    page = context.new_page()
    page.goto(course_url)
    frame = page.frame_locator("iframe")
    expect(frame.get_by_test_id("frame-refused")).to_contain_text(course_url.rstrip("/"))
    expect(frame.locator("#editor")).to_have_count(0)
    # One that withholds its name: the browser itself refuses the frame, by the page's frame-ancestors.
    course.app = course_page(playground, isolated=False, referrer="no-referrer")
    page.goto(course_url)
    app.wait_for(lambda r: r["effective-directive"] == "frame-ancestors")
    assert all(frame.url != playground for frame in page.frames)
