"""The class view: what a course's learners did in one activity, for its teachers (LTI launches).

stats.py counts it in the database, views.py shows it (a teacher's token, token.py, authorises each
page), roster.py fetches the LMS's roster (NRPS). Who is a teacher is the launch's to say
(server/lti/roles.py): the class view imports server/lti/, never the other way.
"""
