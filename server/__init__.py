"""The Flask app that serves the playground: the page, the cases, the engine archive, static files."""

from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the playground app."""
    app = Flask(__name__, static_folder=None, template_folder=str(ROOT / "templates"))
    app.config.from_mapping(
        TIME_LIMIT_MS=5000,  # learner code running longer than this is stopped
        LOAD_STALL_MS=15000,  # a runtime load with nothing arriving for this long is reported as failed
        CROSS_ORIGIN_ISOLATION=True,  # off: Stop falls back to restarting the worker
        SHOW_SOLUTION=False,  # on: the page offers the reference solution (teachers choose)
        FRAME_ANCESTORS="'self'",  # CSP frame-ancestors: who may show the page in an iframe
        CONTENT_SECURITY_POLICY=None,  # None: the policy server/headers.py builds
        OFFLINE=True,  # a service worker keeps the page and its files for visits with no network
        PROXY_FIX=0,  # how many proxies in front set X-Forwarded-* (Prefix, Host, Proto, For)
    )
    if test_config is None:
        app.config.from_prefixed_env("PLAYGROUND")
    else:
        app.config.from_mapping(test_config)

    from server import assets, embed, export, headers, offline, page, static

    headers.check_settings(app.config, app.logger.warning)  # a bad value stops here, named
    app.register_blueprint(page.bp)
    app.register_blueprint(assets.bp)
    app.register_blueprint(embed.bp)
    app.register_blueprint(offline.bp)
    app.cli.add_command(export.export_command)
    assets.engine_digest()  # build the engine archive now, once
    static.init_app(app)
    offline.init_app(app)
    headers.init_app(app)
    if proxies := int(app.config["PROXY_FIX"]):
        app.wsgi_app = ProxyFix(
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )
    return app
