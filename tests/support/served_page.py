"""The page as the server sends it: the config its scripts read, every URL it uses, and the headers
its responses carry."""

import json
import re

from werkzeug.routing import Map, Rule

from server.exercises.registry import LEGACY
from server.page.page import EXERCISE_RULE

PREFIX = "/courses/ml/backprop"
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")
ISOLATION = ("Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy", "Cross-Origin-Resource-Policy")
IMMUTABLE = "public, max-age=31536000, immutable"


def exercise_path(exercise: str) -> str:
    """An exercise's page from the playground's root, by the page's own URL rule (server/page/page.py)."""
    rules = Map([Rule(EXERCISE_RULE, endpoint="exercise")]).bind("localhost")
    return rules.build("exercise", {"exercise": exercise})


SEED = exercise_path(LEGACY)  # the seed's exercise's page; "/" lists the exercises


def page_config(client, **kwargs):
    html = client.get(SEED, **kwargs).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)[1])


def page_urls(client, **kwargs):
    """Every URL the page uses: in its <head> and in the config its scripts read."""
    html = client.get(SEED, **kwargs).get_data(as_text=True)
    head = html[: html.index("</head>")]
    urls = re.findall(r'(?:href|src)="([^"]+)"', head)
    return urls + list(page_config(client, **kwargs)["urls"].values())
