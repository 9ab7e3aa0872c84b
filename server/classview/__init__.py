"""The class view: what a course's learners did in one activity, for its teachers (LTI launches).

stats.py counts it in the database, views.py shows it (a teacher's token, token.py, authorises each
page), roster.py fetches the LMS's roster (NRPS). Who is a teacher is the launch's to say
(server/lti/roles.py): the class view imports server/lti/, never the other way; create_app registers it
(init_app), and it registers with the launch what a teacher's launch opens (teacher_launch.py).
"""

from flask import Flask


def init_app(app: Flask) -> None:
    """With LTI on (server/lti/ set up, the database opened): the class view's pages under the LTI
    endpoints, the roster's fetch on the queue, and the class view as what a teacher's launch opens."""
    if not app.config.get("LTI"):
        return
    from server import lti
    from server.classview import downloads, exercise, kept, teacher_launch, views  # noqa: F401

    # downloads and exercise are imported above for their routes, on views.bp
    kept.init_app(app)  # the roster's fetch, on the queue
    app.register_blueprint(views.bp)
    lti.on_teacher_launch(app, teacher_launch.opened_by_teacher)
