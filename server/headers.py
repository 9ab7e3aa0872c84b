"""Response headers: cross-origin isolation, so the worker can be interrupted instantly."""

from flask import Flask, Response, current_app


def isolation_headers(response: Response) -> Response:
    """Isolate the page and its worker, so a SharedArrayBuffer lets Stop interrupt Python."""
    if current_app.config["CROSS_ORIGIN_ISOLATION"]:
        response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        response.headers.setdefault("Cross-Origin-Embedder-Policy", "require-corp")
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    return response


def init_app(app: Flask) -> None:
    """Send the headers on every response, the worker script's included."""
    app.after_request(isolation_headers)
