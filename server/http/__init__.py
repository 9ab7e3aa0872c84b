"""HTTP around every route: the WSGI wrappers, the headers every response gets, body and rate limits.

The WSGI wrappers, in their order (wsgi.py), the security headers and their settings (headers.py),
every route's body limit and JSON bodies read safely (bounds.py), rate limits in memory or Redis
(limits.py), and the addresses the server may send a request another party named (addresses.py).
"""
