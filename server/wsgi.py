"""The WSGI wrappers around the Flask app, all applied here, in the order a request meets them."""

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from server.headers import AddHeaders, response_headers
from server.static import serve_files


def wrap(app: Flask) -> None:
    """Wrap the app: a request meets ProxyFix, then AddHeaders, then WhiteNoise, then Flask.

    ProxyFix comes first, so everything after it sees the prefix and host the proxy says (PROXY_FIX).
    AddHeaders is outside WhiteNoise, so the static files get the security headers too. WhiteNoise
    answers for static/build/ and passes every other request on to Flask.
    """
    wsgi = serve_files(app.wsgi_app)
    wsgi = AddHeaders(wsgi, response_headers(app.config))
    if proxies := int(app.config["PROXY_FIX"]):
        wsgi = ProxyFix(
            wsgi, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )
    app.wsgi_app = wsgi
