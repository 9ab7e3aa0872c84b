"""The static export (`flask --app server export DIR`): the whole site as files, and its nginx block.

The site (site.py) and the nginx configuration that sends the headers the app itself sends (nginx.py):
above both the page (server/page) and the headers every response gets (server/http).
"""
