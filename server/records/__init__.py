"""Records: every Check of a named learner, kept with the server's own verdict, for the class view.

A named learner: a launched one, or a course page's learner with a learner token.

On where learners are named: with LTI on, or learner tokens configured (and so verification on). A pass
goes to /verify as before, which records it judged (server/verify/views.py, judge.record_judged); a Check that
did not pass goes to `POST <prefix>/record` (views.py), which records it and queues it for the judge
(judge.py, a task on the app's queue, server/queue.py); the rows: store.py. The database is server/db's.
"""

from flask import Flask
from huey import crontab

from server.records.pseudonyms import remake_old

DEFAULTS = {
    "RECORDS_QUEUED_PER_LEARNER": 3,  # a learner's Checks waiting for the judge, at most; more are skipped
    "RECORDS_QUEUED": 200,  # all Checks waiting for the judge, at most; more are recorded, never judged
    "RECORD_RATE_LIMIT": 60,  # Checks a learner may record ...
    "RECORD_RATE_BYTES": 1_000_000,  # ... and bytes of code they may keep ...
    "RECORD_RATE_WINDOW_S": 60,  # ... in this many seconds (more get a 429: a script, not a learner)
    "RECORDS_KEPT": 5_000,  # a learner's Checks kept in all, at most (more get a 429 until some expire)
    "RECORD_BYTES_KEPT": 10_000_000,  # bytes of a learner's code kept in all; more: the row, not the code
}


def wanted(app: Flask) -> bool:
    """Whether records are on: verification on, and learners named (LTI, or learner tokens)."""
    config = app.config
    tokens = (
        config.get("LEARNER_TOKEN_SECRET") is not None or config.get("LEARNER_TOKEN_JWKS_URL") is not None
    )
    return bool(config["VERIFY"]) and (bool(config.get("LTI")) or tokens)


def of_the_class(who) -> bool:
    """Whether a named learner's Checks are the class's: a course page's learner (a learner token), or a
    launch whose roles made it one of the class (a Learner: server/lti/roles.py's learns). A
    teacher's, an Observer's (Mentor) or a Designer's launch gets the exercise and is not counted."""
    return who is not None and (who.launch is None or bool(who.launch.get("learner")))


def init_app(app: Flask) -> None:
    """With records on: the database, the queue and its judge task, `POST <prefix>/record`; the
    pseudonyms made before they were per course remade (server/records/pseudonyms.py)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if not wanted(app):
        return
    from server.records import judge, views

    tasks = app.extensions["queue"]  # opened by create_app where learners are named, as the database
    app.extensions["records"] = {"judge": tasks.task()(judge.judge_attempt)}
    tasks.periodic(crontab(minute=f"*/{judge.SWEEP_MINUTES}"))(judge.sweep)
    app.register_blueprint(views.bp)
    from server.db import database

    with app.app_context(), database().connect() as conn:
        remade = remake_old(conn)
    if remade:
        app.logger.info("%d pseudonyms made before they were per course were remade per course", remade)
