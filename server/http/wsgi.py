"""The WSGI wrappers around the Flask app, all applied here, in the order a request meets them."""

import os
from collections.abc import Callable, Iterable
from urllib.parse import quote

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from server.http.headers import AddHeaders, response_headers
from server.page.static import serve_files


def take_prefix(app: Flask) -> None:
    """Take over the sub-path a server names in SCRIPT_NAME (gunicorn's way), unless PREFIX names one.

    gunicorn strips SCRIPT_NAME from each request's path itself, and answers a request outside it,
    `/` say, with a bare 500 before the app sees it. Taken out of the environment here (each process
    makes its app before it serves), the app mounts itself (Mount, below) and answers those itself.
    """
    if app.config["PREFIX"] is None and not app.testing:
        app.config["PREFIX"] = os.environ.pop("SCRIPT_NAME", "")


class Mount:
    """WSGI middleware: the app under a prefix; `/` sends the browser there, any other path is a 404."""

    def __init__(self, app: Callable, prefix: str) -> None:
        self.app = app
        self.prefix = "/" + prefix.strip("/")

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == self.prefix or path.startswith(self.prefix + "/"):
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + self.prefix
            environ["PATH_INFO"] = path[len(self.prefix) :]
            return self.app(environ, start_response)
        home = quote(environ.get("SCRIPT_NAME", "") + self.prefix + "/")
        if path in ("", "/"):
            start_response("308 Permanent Redirect", [("Location", home), ("Content-Type", "text/plain")])
            return [f"The playground is at {home}\n".encode()]
        body = f"Not found: the playground is at {home}\n".encode()
        start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
        return [body]


def wrap(app: Flask) -> None:
    """Wrap the app: a request meets ProxyFix, then AddHeaders, then Mount, then WhiteNoise, then Flask.

    ProxyFix comes first, so everything after it sees the prefix and host the proxy says (PROXY_FIX).
    AddHeaders is outside WhiteNoise and Mount, so the static files and Mount's answers get the security
    headers too. Mount, only under a PREFIX, moves it from the path to SCRIPT_NAME. WhiteNoise answers
    for static/build/ and passes every other request on to Flask.
    """
    wsgi = serve_files(app.wsgi_app)
    if app.config["PREFIX"] and app.config["PREFIX"].strip("/"):
        wsgi = Mount(wsgi, app.config["PREFIX"])
    wsgi = AddHeaders(wsgi, response_headers(app.config))
    if proxies := int(app.config["PROXY_FIX"]):
        wsgi = ProxyFix(
            wsgi, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )
    app.wsgi_app = wsgi
