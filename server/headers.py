"""Response headers on every response: cross-origin isolation and the security headers.

They are added by a WSGI middleware around everything, WhiteNoise's static files included (it
answers before Flask, so Flask's after_request would not see those), and its 304s and 404s too.
"""

from collections.abc import Callable, Iterable, Mapping

from flask import Flask

from server.runner import bootstrap_hash

# What the page needs, found by running it in Chromium with the policy on (tests/browser/test_hosting.py):
# - script-src 'wasm-unsafe-eval': Pyodide compiles its WebAssembly (WebAssembly.instantiateStreaming).
# - style-src 'unsafe-inline': CodeMirror mounts its styles as <style> elements in the document.
#   A nonce (EditorView.cspNonce) would make every page different, so no ETag, no 304 and no
#   static export; with scripts locked to this origin, inline styles cannot run code.
# - script-src <hash> blob:, worker-src 'self' (sw.js) blob: the runner frame (server/runner.py): its
#   one inline script, allowed by its hash, imports the runner from a blob: URL, and its workers start
#   from blob: URLs: an opaque origin can load neither from this server's cache nor its service worker.
# Everything else (bundles, Pyodide, the engine archive, the favicon) comes from 'self'.
POLICY = (
    "default-src 'self'",
    f"script-src 'self' 'wasm-unsafe-eval' {bootstrap_hash()} blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
)


def content_security_policy(frame_ancestors: str | None) -> str:
    """The page's policy; frame_ancestors None for a <meta> tag, where the directive is ignored."""
    directives = [*POLICY, f"frame-ancestors {frame_ancestors}"] if frame_ancestors else list(POLICY)
    return "; ".join(directives)


def embeddable(config: Mapping) -> bool:
    """Whether pages of other origins may frame the page (PLAYGROUND_FRAME_ANCESTORS)."""
    return config["FRAME_ANCESTORS"].strip() not in ("'self'", "'none'")


def response_headers(config: Mapping) -> dict[str, str]:
    """The headers every response gets, from the app's configuration."""
    headers = {
        "Content-Security-Policy": config["CONTENT_SECURITY_POLICY"]
        or content_security_policy(config["FRAME_ANCESTORS"]),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if config["CROSS_ORIGIN_ISOLATION"]:
        # A SharedArrayBuffer lets Stop interrupt Python; the worker script needs COEP as the page does.
        headers["Cross-Origin-Opener-Policy"] = "same-origin"
        headers["Cross-Origin-Embedder-Policy"] = "require-corp"
        headers["Cross-Origin-Resource-Policy"] = "same-origin"
    return headers


def page_headers(config: Mapping) -> dict[str, str]:
    """Extra headers for the page: a course page that requires CORP may embed it when allowed to."""
    if config["CROSS_ORIGIN_ISOLATION"] and embeddable(config):
        return {"Cross-Origin-Resource-Policy": "cross-origin"}
    return {}


class AddHeaders:
    """WSGI middleware: add headers to every response that does not already set them."""

    def __init__(self, app: Callable, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = list(headers.items())

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            present = {name.lower() for name, _ in headers}
            headers = headers + [(k, v) for k, v in self.headers if k.lower() not in present]
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def init_app(app: Flask) -> None:
    """Send the headers on every response, the static files' and the worker script's included."""
    app.wsgi_app = AddHeaders(app.wsgi_app, response_headers(app.config))
