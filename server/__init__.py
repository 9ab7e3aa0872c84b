"""The Flask app that serves the playground: the page, the cases and the engine archive."""

import mimetypes
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent

# Pyodide's loader hangs silently on a wrong type, so name the types, whatever the OS knows.
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the playground app."""
    app = Flask(
        __name__,
        static_folder=str(ROOT / "static"),
        template_folder=str(ROOT / "templates"),
    )
    app.config.from_mapping(
        TIME_LIMIT_MS=5000,  # learner code running longer than this is stopped
        LOAD_LIMIT_MS=30000,  # the runtime not ready by then is reported as failed
        CROSS_ORIGIN_ISOLATION=True,  # off: Stop falls back to restarting the worker
    )
    if test_config is None:
        app.config.from_prefixed_env("PLAYGROUND")
    else:
        app.config.from_mapping(test_config)

    from server import assets, headers, page

    headers.init_app(app)
    app.register_blueprint(page.bp)
    app.register_blueprint(assets.bp)
    return app
