"""The class view: what a course's learners did in one activity, for its teachers (LTI launches).

stats.py counts it in the database, views.py shows it (a teacher's token, token.py, authorises each
page), roles.py says who is a teacher, roster.py fetches the LMS's roster (NRPS).
"""
