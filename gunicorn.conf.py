"""gunicorn's settings for the playground, read from the folder gunicorn starts in (`make production`'s).

One check in gunicorn's master, before any worker starts: a database a newer playground made stops
gunicorn here with create_app's one line (server/db's NewerDatabase), exit status 3. Without it each of
the workers says it, and gunicorn, halting as they fail at once, may print a traceback of its own.
"""

import os
import sys
from pathlib import Path


def on_starting(server) -> None:
    from server import ROOT
    from server.db import newer

    instance = Path(os.environ.get("PLAYGROUND_INSTANCE_PATH") or ROOT / "instance")
    url = os.environ.get("PLAYGROUND_DATABASE_URL") or f"sqlite:///{instance / 'lti.sqlite3'}"
    if refused := newer(url):
        print(f"Error: {refused.message}", file=sys.stderr)
        raise SystemExit(3)
