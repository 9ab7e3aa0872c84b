"""LTI 1.3: the playground as a tool an LMS launches, with verified passes sent to its gradebook (AGS).

On with PLAYGROUND_LTI=1 (and PLAYGROUND_VERIFY=1: only the server's verdict is sent). State lives in
the database (server/lti/store.py); the tool's RSA key in the instance folder. The login and launch
endpoints are in server/lti/views.py (their refusal pages in refusals.py, pylti1p3's login and launch in
oidc.py), a launched page's grade in grades.py, the teacher's command in cli.py, passback in passback.py.
"""

from pathlib import Path

from flask import Flask, current_app

from server.headers import SettingError
from server.lti import cli, store
from server.lti.passback import Schedule, Sender
from server.lti.store import Store
from server.lti.tool import ToolKeys

DEFAULTS = {
    "LTI": False,  # on: the LTI endpoints under <prefix>/lti/ and grade passback
    "DATABASE_URL": None,  # None: sqlite:///<instance>/lti.sqlite3; or postgresql://... (psycopg)
    "LTI_KEY_FILE": None,  # None: lti-tool-key.pem in the instance folder, made on first start
    "LTI_LAUNCH_TOKEN_S": 4 * 3600,  # how long a launched page may send passes for its learner
    "LTI_TEACHER_TOKEN_S": 4 * 3600,  # how long a teacher's launch opens the class view (server/classview/)
    "LTI_RETRY_S": 30.0,  # first wait before a failed passback is tried again (doubling, at most 1 h)
    "LTI_RETRY_TRIES": 30,  # a passback's last try (about a day after its first), then it is failed
    "LTI_RATE_LIMIT": 60,  # logins and launches per client (its address) ...
    "LTI_RATE_WINDOW_S": 60,  # ... in this many seconds; more get a 429 page
    "LTI_GRADE_RATE_LIMIT": 120,  # a launched page's asks of lti/grade (polls, Retries) per minute
}


def database_url(app: Flask) -> str:
    """The database DATABASE_URL names, or SQLite in the instance folder."""
    return str(app.config["DATABASE_URL"] or f"sqlite:///{Path(app.instance_path) / 'lti.sqlite3'}")


def open_state(app: Flask) -> dict:
    """The database and the tool's key (made on first use)."""
    key_file = Path(app.config["LTI_KEY_FILE"] or Path(app.instance_path) / "lti-tool-key.pem")
    return {
        "store": Store(database_url(app)),
        "keys": ToolKeys(key_file),
        "schedule": Schedule(float(app.config["LTI_RETRY_S"]), int(app.config["LTI_RETRY_TRIES"])),
    }


def state() -> dict:
    """The LTI parts of the app: store, keys, settings, the passback sender."""
    return current_app.extensions["lti"]


def init_app(app: Flask) -> None:
    """Add the `lti` command; with LTI on, the endpoints and the passback retry thread."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.cli.add_command(cli.lti_command)
    app.teardown_appcontext(store.close)  # the database connection of a request, a command, a sender's pass
    if not app.config["LTI"]:
        return
    if not app.config["VERIFY"]:
        raise SettingError(
            "PLAYGROUND_LTI=1 needs PLAYGROUND_VERIFY=1 too (only a pass the server verified is graded): "
            "set both, or neither"
        )
    from server.classview import views as classview
    from server.lti import grades, views

    parts = open_state(app)
    parts["sender"] = Sender(app, parts["store"], parts["keys"], parts["schedule"]).start()
    app.extensions["lti"] = parts
    app.register_blueprint(views.bp)
    app.register_blueprint(grades.bp)
    classview.init_app(app)  # the class view a teacher's launch opens (server/classview/)
