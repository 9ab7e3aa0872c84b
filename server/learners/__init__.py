"""Who a request names: a course page's learner token or an LTI launch, and the verdict rule they get.

A course page's learner tokens, checked against its secret or key set (tokens.py); the learner a
request's tokens name, as /verify and POST /record both read it (who.py).
"""
