"""Embedding in a course page: embed.js for the course page, and who may hear the page's events.

The page tells its parent what happened (ready, each Check, its height) with postMessage, only to the
origins that may frame it: the sources of the CSP `frame-ancestors` it is sent with, written in full.
"""

from collections.abc import Mapping
from urllib.parse import urlsplit

from flask import Blueprint, Response, render_template

from server.assets import revalidated
from server.headers import content_security_policy
from server.names import NAMES

bp = Blueprint("embed", __name__)

DEFAULT_PORTS = {"http": 80, "https": 443}


def frame_ancestors(config: Mapping) -> str:
    """The frame-ancestors the page is sent with, from the whole policy when one replaces ours."""
    policy = config["CONTENT_SECURITY_POLICY"] or content_security_policy(config["FRAME_ANCESTORS"])
    for directive in policy.split(";"):
        name, _, value = directive.strip().partition(" ")
        if name.lower() == "frame-ancestors":
            return value
    return ""  # no directive: any page may frame it, and none is sent the events


def origin_of(source: str) -> str | None:
    """The origin a frame-ancestors source names, when it names exactly one (no wildcard, a scheme)."""
    parts = urlsplit(source)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or "*" in parts.netloc:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[parts.scheme] else "")


def parent_origins(config: Mapping) -> dict:
    """Who may hear the page's events: its own origin when 'self' may frame it, and exact origins."""
    sources = frame_ancestors(config).split()
    origins = [origin for origin in map(origin_of, sources) if origin]
    return {"self": "'self'" in (s.lower() for s in sources), "origins": list(dict.fromkeys(origins))}


def embed_script() -> bytes:
    """The course page's script, as written but for its message prefix (small and readable, for teachers)."""
    return render_template("hosting/embed.js", events=NAMES["events"]).encode()


@bp.get("/embed.js")
def embed_js() -> Response:
    """Send the script a course page includes beside the playground's iframe."""
    response = Response(embed_script(), mimetype="text/javascript")
    # Course pages of any origin load it with <script src>, a no-cors request that CORP same-origin refuses.
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
    return revalidated(response)
