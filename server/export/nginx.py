"""The nginx configuration for a static export, written beside its files by `flask export`.

It sends what the app itself sends (server/http/headers.py, server/page/static.py), with this export's
settings filled in: the policy (with frame-ancestors, which a <meta> tag cannot carry), the isolation headers,
who may embed the page, and the caching. The tests read it back and compare, file by file, with the
app's own answers (tests/test_nginx.py), and the browser tests serve exports with these headers.
"""

from collections.abc import Mapping

from server.http.headers import response_headers
from server.page.policy import content_security_policy, embeddable

FILE = "nginx.conf"
IMMUTABLE = "public, max-age=31536000, immutable"


def quoted(value: str) -> str:
    """A value as an nginx string: in double quotes, with \\ and " escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def nginx_conf(config: Mapping, location: str, folder: str) -> str:
    """nginx's `map`s (for http { }) and the `location` that serves the export at location from folder."""
    location = "/" + location.strip("/") + "/" if location.strip("/") else "/"
    headers = response_headers(config)
    policy = config["CONTENT_SECURITY_POLICY"] or content_security_policy(config["FRAME_ANCESTORS"])
    headers["Content-Security-Policy"] = policy
    # Cross-Origin-Resource-Policy: embed.js is for course pages of any origin; the page is for other
    # sites' frames where they may frame it; the rest same-origin (none where isolation is off).
    rest = headers.pop("Cross-Origin-Resource-Policy", "")
    page = "cross-origin" if rest and embeddable(config) else rest
    lines = [
        "# Written by `flask --app server export` for this export: its settings are filled in. The maps go",
        "# in http { }, the location in your server { }. The host must send .wasm as application/wasm and",
        "# .mjs as text/javascript (nginx's mime.types has wasm; add mjs to its text/javascript line).",
        "map $uri $playground_cache {",
        f'    ~/static/                  "{IMMUTABLE}";  # names that change with their content',
        f'    ~/engine-[0-9a-f]+\\.zip$   "{IMMUTABLE}";',
        f'    ~/exercise-[a-z][a-z0-9-]*-[0-9a-f]+\\.zip$  "{IMMUTABLE}";  # each exercise\'s archive',
        '    default                    "no-cache";  # the page, sw.js, embed.js: a cheap 304 when unchanged',
        "}",
        "map $uri $playground_cors {",
        '    ~/static/  "*";  # the runner frame (an opaque origin) may fetch the stdlib archives itself',
        '    default    "";   # empty: no header',
        "}",
        "map $uri $playground_corp {",
        '    ~/embed\\.js$        "cross-origin";  # course pages of any origin load it (<script src>)',
        f'    ~/(index\\.html)?$   "{page}";  # the pages: the front page and each exercise\'s',
        f'    default             "{rest}";',
        "}",
    ]
    lines += [
        f"location {location} {{",
        f"    alias {folder.rstrip('/')}/;",
        "    index index.html;",
        "    gzip_static on;  # the .gz copies beside each file; with ngx_brotli, brotli_static on; too",
        "    add_header Cache-Control $playground_cache always;",
        "    add_header Access-Control-Allow-Origin $playground_cors always;",
    ]
    lines.append("    add_header Cross-Origin-Resource-Policy $playground_corp always;")
    lines += [f"    add_header {name} {quoted(value)} always;" for name, value in headers.items()]
    lines += [f"    location = {location}{FILE} {{ return 404; }}  # this file: not for the public", "}"]
    return "\n".join(lines) + "\n"
