"""Where the browser tests host the page: servers that can be stopped, a sub-path behind a proxy,
a course page that embeds it, and WSGI middleware that records or swaps what is served."""

import threading
from urllib.parse import urlsplit

from werkzeug.serving import make_server

from server import create_app
from tests.browser.pages import SEED, watched_page

PREFIX = "/courses/ml/backprop"


def netloc(url):
    return urlsplit(url).netloc


class Host:
    """Serve WSGI apps on free ports (host(app) is its base URL); stop one to take the network away from
    its pages."""

    def __init__(self):
        self.servers = {}

    def __call__(self, wsgi) -> str:
        server = make_server("127.0.0.1", 0, wsgi, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}/"
        self.servers[url] = server
        return url

    def stop(self, url: str) -> None:
        server = self.servers.pop(url)
        server.shutdown()
        server.server_close()  # the port now refuses connections


class Deploy:
    """WSGI: whatever app is deployed now, at the same origin."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


class Dispatch:
    """A WSGI app to be filled in once its own URL is known."""

    app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


class Recorder:
    """WSGI middleware: record each request's path and status, as the browser asked for it."""

    def __init__(self, app):
        self.app = app
        self.requests = []
        self.encodings = {}  # path: the Content-Encoding it was sent with

    def __call__(self, environ, start_response):
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")

        def start(status, headers, exc_info=None):
            self.requests.append((path, int(status[:3])))
            self.encodings[path] = dict(headers).get("Content-Encoding")
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


class Proxy:
    """What a reverse proxy does for a sub-path: strip the prefix, say so in X-Forwarded-Prefix."""

    def __init__(self, app, prefix):
        self.app, self.prefix = app, prefix

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        if not path.startswith(self.prefix + "/"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not under the prefix"]
        environ = {**environ, "PATH_INFO": path[len(self.prefix) :], "HTTP_X_FORWARDED_PREFIX": self.prefix}
        return self.app(environ, start_response)


def course_page(iframe_src, isolated, referrer=None):
    """A course site's page that embeds the playground in an iframe (with a Referrer-Policy, if given)."""
    html = (
        "<!doctype html><title>Course</title><h1>Backprop</h1>"
        f'<iframe src="{iframe_src}" allow="cross-origin-isolated" width="1000" height="800"></iframe>'
    ).encode()
    headers = [("Content-Type", "text/html")] + ([("Referrer-Policy", referrer)] if referrer else [])
    if isolated:
        headers.append(("Cross-Origin-Opener-Policy", "same-origin"))
        headers.append(("Cross-Origin-Embedder-Policy", "require-corp"))

    def app(environ, start_response):
        start_response("200 OK", headers)
        return [html]

    return app


def embedded_cross_site(host, context, isolated: bool):
    """A course site's page embedding the playground from another site (which lets it frame the page),
    opened in context: (the page, the playground's frame once its runtime is ready, assert_clean)."""
    course = Dispatch()
    course_url = host(course)
    playground = (
        host(create_app({"TESTING": True, "FRAME_ANCESTORS": f"'self' {course_url.rstrip('/')}"})) + SEED
    )
    course.app = course_page(playground, isolated)
    page, assert_clean = watched_page(context, {netloc(course_url), netloc(playground)})
    page.goto(course_url)
    return page, ready_frame(page, playground), assert_clean


def ready_frame(page, url: str):
    """The playground's frame at url in page, once its runtime is ready."""
    frame = page.frame(url=url)
    frame.wait_for_function("() => window.playground !== undefined")
    assert frame.evaluate("window.playground.ready.then(() => 'ready')") == "ready"
    return frame
