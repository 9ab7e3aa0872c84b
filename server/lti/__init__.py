"""LTI 1.3: the playground as a tool an LMS launches, with verified passes sent to its gradebook (AGS).

On with PLAYGROUND_LTI=1 (and PLAYGROUND_VERIFY=1: only the server's verdict is sent). State lives in
the playground's database (server/db, opened by create_app; the LTI statements in server/lti/store/);
the tool's RSA key in the instance folder. The login and launch
endpoints are in server/lti/views.py (their refusal pages in refusals.py, pylti1p3's login and launch in
oidc.py, Deep Linking in deep_linking.py, who the roles make a teacher in roles.py), a launched page's
grade in grades.py, the teacher's command in cli.py, passback in passback.py (sent by tasks on the app's
queue, server/queue.py). A teacher's launch opens the class view (server/classview/), which registers
itself here (on_teacher_launch): nothing in server/lti/ imports it.
"""

from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, current_app

from server import db
from server.http.headers import SettingError
from server.lti import cli
from server.lti.passback import Passbacks, Schedule
from server.lti.store import Store
from server.lti.tool import ToolKeys
from server.queue import queue

DEFAULTS = {
    "LTI": False,  # on: the LTI endpoints under <prefix>/lti/ and grade passback
    "LTI_KEY_FILE": None,  # None: lti-tool-key.pem in the instance folder, made on first start
    "LTI_LAUNCH_TOKEN_S": 4 * 3600,  # how long a launched page may send passes for its learner
    "LTI_TEACHER_TOKEN_S": 4 * 3600,  # how long a teacher's launch opens the class view (server/classview/)
    "LTI_RETRY_S": 30.0,  # first wait before a failed passback is tried again (doubling, at most 1 h)
    "LTI_RETRY_TRIES": 30,  # a passback's last try (about a day after its first), then it is failed
    "LTI_RATE_LIMIT": 60,  # logins and launches per client (its address) ...
    "LTI_RATE_WINDOW_S": 60,  # ... in this many seconds; more get a 429 page
    "LTI_GRADE_RATE_LIMIT": 120,  # a launched page's asks of lti/grade (polls, Retries) per minute
    # an LMS on the host's own network (private, loopback, link-local addresses: server/http/addresses.py) may
    # be reached by Dynamic Registration and the roster; off, public addresses only (the tests' LMS needs it
    # on)
    "LTI_PRIVATE_ADDRESSES": False,
}


def open_state(app: Flask) -> dict:
    """The store on the app's database (opened here for a command run with LTI off) and the tool's key
    (made on first use)."""
    if "db" not in app.extensions:
        db.init_app(app)
    key_file = Path(app.config["LTI_KEY_FILE"] or Path(app.instance_path) / "lti-tool-key.pem")
    return {
        "store": Store(app.extensions["db"]),
        "keys": ToolKeys(key_file),
        "schedule": Schedule(float(app.config["LTI_RETRY_S"]), int(app.config["LTI_RETRY_TRIES"])),
    }


def state() -> dict:
    """The LTI parts of the app: store, keys, the retry schedule, the passbacks' tasks, the launch token's
    reader, and what a teacher's launch opens (teacher_launch: the class view's, on_teacher_launch)."""
    return current_app.extensions["lti"]


def init_app(app: Flask) -> None:
    """Add the `lti` command; with LTI on, the endpoints and the passbacks' tasks on the app's queue."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.cli.add_command(cli.lti_command)
    if not app.config["LTI"]:
        return
    if not app.config["VERIFY"]:
        raise SettingError(
            "PLAYGROUND_LTI=1 needs PLAYGROUND_VERIFY=1 too (only a pass the server verified is graded): "
            "set both, or neither"
        )
    from server.lti import grades, registration, views

    parts = open_state(app)
    parts["passbacks"] = Passbacks(queue(app))
    parts["launch_from_token"] = grades.launch_from_token  # /verify's and /record's (server/learners/who.py)
    app.extensions["lti"] = parts
    app.register_blueprint(views.bp)
    app.register_blueprint(grades.bp)
    registration.init_app(app)  # the registration URL's endpoint (LTI Dynamic Registration)


def on_teacher_launch(app: Flask, opens: Callable[[dict, str, str], Response]) -> None:
    """Answer a teacher's launch with opens(the launch's data, its client id, the launch's id): the class
    view registers itself here (server/classview/), so the launch never imports it."""
    app.extensions["lti"]["teacher_launch"] = opens
