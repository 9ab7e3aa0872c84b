"""Embedding in a course page: embed.js for the course page, and who may hear the page's events.

The page tells its parent what happened (ready, each Check, its height) with postMessage, only to the
origins that may frame it: the sources of the CSP `frame-ancestors` it is sent with, written in full.
"""

from collections.abc import Mapping
from urllib.parse import urlsplit

from flask import Blueprint, Response, render_template, request

from server.page.assets import revalidated
from server.page.names import NAMES
from server.page.policy import content_security_policy

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


# The refusal page's own policy: no script, its inline style, and any site may show it (it only says
# that the exercise may not be shown there, with a link to open it).
REFUSED_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *"
)


def refused_framer(config: Mapping) -> str | None:
    """The origin of a site whose frame asks for the page when the page may surely not be shown there.

    A browser refuses such a frame with an empty box and a line on the console only. The request says
    it is for a frame (Sec-Fetch-Dest) and, unless the site withholds it, the site (Referer). Only
    where every source of frame-ancestors names one exact origin (or is 'self' or 'none') is the answer
    certain; otherwise the page is sent, and the browser decides as before.
    """
    if (
        request.headers.get("Sec-Fetch-Dest") != "iframe"
        or request.headers.get("Sec-Fetch-Site") == "same-origin"
    ):
        return None
    framer = origin_of(request.headers.get("Referer", ""))
    sources = frame_ancestors(config).split()
    if not framer or not sources:
        return None
    keywords = {"'self'", "'none'"}
    if any(source.lower() not in keywords and origin_of(source) is None for source in sources):
        return None  # a wildcard or a scheme: the browser matches it
    allowed = {origin_of(source) for source in sources if source.lower() not in keywords}
    if "'self'" in (source.lower() for source in sources):
        allowed.add(origin_of(request.host_url))
    return None if framer in allowed else framer


def frame_refused(framer: str, page: str) -> Response:
    """The small page a refused frame gets instead of an empty box: a link to the exercise, and why."""
    response = Response(render_template("frame-refused.html", framer=framer, page=page), status=403)
    response.headers["Content-Security-Policy"] = REFUSED_POLICY
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"  # an isolated course page may show it
    response.headers["Cache-Control"] = "no-store"  # for this frame only: the page itself is not refused
    return response


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
