"""The Flask app that serves the playground: the page, the cases, the engine archive, static files."""

import os
import sys
from pathlib import Path

from flask import Flask
from jinja2 import FileSystemLoader

from server.exercises.registry import ExercisesRefused
from server.sandbox.terms import SandboxUnavailable

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the playground app."""
    # The instance folder keeps the server's state (keys, the LTI database, the sandbox slots' locks):
    # instance/ in the checkout, or PLAYGROUND_INSTANCE_PATH (an absolute path), one per deployment.
    instance = os.environ.get("PLAYGROUND_INSTANCE_PATH") or None
    app = Flask(__name__, static_folder=None, template_folder=str(ROOT / "templates"), instance_path=instance)
    # The page's templates, and the browser scripts the server fills in (static/js/hosting/sw.js...).
    app.jinja_loader = FileSystemLoader([ROOT / "templates", ROOT / "static/js"])
    app.jinja_env.keep_trailing_newline = True  # the scripts are served as written
    app.config.from_mapping(
        TIME_LIMIT_MS=5000,  # learner code running longer than this is stopped
        LOAD_STALL_MS=15000,  # a runtime load with nothing arriving for this long is reported as failed
        CROSS_ORIGIN_ISOLATION=True,  # off: Stop falls back to restarting the worker
        SHOW_SOLUTION=False,  # on: the page offers the reference solution (teachers choose)
        FRAME_ANCESTORS="'self'",  # CSP frame-ancestors: who may show the page in an iframe
        CONTENT_SECURITY_POLICY=None,  # None: the policy server/page/policy.py builds
        OFFLINE=True,  # a service worker keeps the page and its files for visits with no network
        PROXY_FIX=0,  # how many proxies in front set X-Forwarded-* (Prefix, Host, Proto, For)
        PREFIX=None,  # the sub-path the app answers under, when the proxy passes it on (None: SCRIPT_NAME's)
        VERDICT="seed",  # what a pass needs: "seed" (the three expressions) or "strict" (+ the order graphs)
        VERIFY=False,  # on: POST /verify re-grades in a sandbox and signs a receipt (server/verify/views.py)
        VERIFY_TIME_LIMIT_MS=3000,  # a verification running longer is killed and reported as a timeout
        VERIFY_SLOTS=None,  # sandboxes at once for this deployment (None: one per CPU); more wait in a queue
        VERIFY_QUEUE_LENGTH=12,  # requests waiting for a slot in the instance, at most (more get a 503)...
        VERIFY_QUEUE_PER_PROCESS=2,  # ...and in one process (its other threads stay free for pages)
        VERIFY_QUEUE_WAIT_S=20,  # a request waits this long at most for its turn, then gets a 503
        VERIFY_SLOTS_DIR=None,  # the slots' lock files, one folder per deployment (None: instance/)
        VERIFY_RATE_LIMIT=30,  # verifications per learner (the anonymous: per address)...
        VERIFY_RATE_WINDOW_S=60,  # ...in this many seconds; more get a 429 (and one at a time each)
        RATELIMIT_STORAGE_URL=None,  # None: each process counts in its memory; redis://...: all share it
        VERIFY_FRESH_SETS=2,  # value sets drawn per request for each counted expression
        VERIFY_FRESH_GRAPHS=3,  # under strict: random graphs drawn per request (server/exercises/graphs.py)
        SANDBOX_UID=64000,  # run as root: sandboxes run as uids past it, each its own (bwrap.sandbox_uid)
        SIGNING_KEY_FILE=None,  # None: signing-key.pem in the instance folder, made on first start
        SIGNING_RETIRED_KEYS=None,  # None: retired-keys/ in the instance folder; their kids keep verifying
        LEARNER_TOKEN_SECRET=None,  # a secret shared with the course (HS256): its learner tokens give sub
        LEARNER_TOKEN_JWKS_URL=None,  # or the course's own JWKS, for tokens it signs with RS256/ES256/EdDSA
        LEARNER_TOKEN_ISSUER=None,  # when set, a learner token's iss must be this
        LEARNER_TOKEN_AUDIENCE=None,  # when set, a learner token's aud must name this
        DATABASE_URL=None,  # None: sqlite:///<instance>/lti.sqlite3; or postgresql://... (server/db)
        LANGUAGE=None,  # the course's language ("de"), unless the learner or an LTI launch picks another
        TRANSLATION_DIRECTORIES=None,  # catalogues besides translations/ (<lang>/LC_MESSAGES/messages.mo)
        QUEUE_WORKERS=2,  # threads in each server process taking queued work (0: `flask queue work` does)
        ATTEMPTS_KEEP_DAYS=365,  # a recorded Check is deleted this many days after it (docs/data.md)
        EXERCISES=None,  # a teacher's folder of exercise folders, served beside the playground's own
    )
    if test_config is None:
        app.config.from_prefixed_env("PLAYGROUND")
    else:
        app.config.from_mapping(test_config)

    from server import classview, db, lti, queue, records
    from server.contract import schema
    from server.db import unreachable
    from server.db.cli import db_command
    from server.exercises import cli as exercises_cli
    from server.exercises import startup as exercises
    from server.export import site as export
    from server.http import bounds, headers, limits, wsgi
    from server.page import assets, embed, i18n, offline, page, static, written
    from server.records import retention
    from server.verify import views as verify

    try:
        headers.check_settings(app.config, app.logger.warning)  # a bad value stops here, named
        wsgi.take_prefix(app)  # a server's SCRIPT_NAME: the app mounts itself there (server/http/wsgi.py)
        # the page's language: templates, the page's scripts, the grader (server/page/i18n.py)
        i18n.init_app(app)
        written.init_app(app)  # the statement's numbers as the report writes them (server/page/written.py)
        # every served exercise read and checked: one that fails stops here (server/exercises/startup.py)
        # (for the exercises commands, kept for them to say: server/exercises/cli.py)
        exercises.init_app(app, i18n.languages(app), refuse=not exercises_cli.finding_a_command())
        bounds.init_app(app)  # every route's body limit, odd JSON refused (server/http/bounds.py)
        unreachable.init_app(app)  # a database that cannot be reached: a 503 (server/db/unreachable.py)
        app.register_blueprint(page.bp)
        app.register_blueprint(assets.bp)
        app.register_blueprint(embed.bp)
        app.register_blueprint(offline.bp)
        app.register_blueprint(schema.bp)  # the page contract's JSON Schemas
        limits.init_app(app)  # rate limits, in memory or in Redis (server/http/limits.py)
        verify.init_app(app)  # /verify and the JWKS when PLAYGROUND_VERIFY=1 (refuses without a sandbox)
        if (
            app.config.get("LTI")
            or app.config["LEARNER_TOKEN_SECRET"]
            or app.config["LEARNER_TOKEN_JWKS_URL"]
        ):
            db.init_app(app)  # where records can exist: the database, migrated at start (server/db)
            queue.init_app(app)  # the work done after requests: Huey, in the database (server/queue.py)
        lti.init_app(app)  # LTI 1.3 launch and grade passback when PLAYGROUND_LTI=1 (server/lti/)
        classview.init_app(app)  # the class view a teacher's launch opens, with LTI on (server/classview/)
        records.init_app(app)  # every Check of a named learner, judged (server/records/)
        retention.init_app(app)  # old records deleted at start and daily (after the database and queue)
    except (headers.SettingError, SandboxUnavailable, db.NewerDatabase, ExercisesRefused) as exc:
        if test_config is not None:
            raise
        # Started from the environment (flask run, gunicorn): one line that says what to set, not a
        # traceback; status 3 is gunicorn's "worker failed to boot", which stops it instead of retrying.
        print(f"Error: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    app.cli.add_command(export.export_command)
    app.cli.add_command(db_command)
    app.cli.add_command(exercises_cli.exercises_command)
    exercises_cli.only_exercises(app)  # a refusal kept: every other command stops with it
    assets.engine_digest()  # build the engine archive now, once
    static.init_app(app)
    offline.init_app(app)
    wsgi.wrap(app)  # the proxy's headers, every response's headers, the static files: in that order
    queue.start(app)  # every task is registered: this process takes work (QUEUE_WORKERS threads)
    return app
