"""Response headers on every response: cross-origin isolation and the security headers (the page's
policy among them: server/page/policy.py), and the settings that go into them, checked at start-up.

They are added by a WSGI middleware around everything, WhiteNoise's static files included (it
answers before Flask, so Flask's after_request would not see those), and its 304s and 404s too.
"""

import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping

from server.page.policy import content_security_policy


def response_headers(config: Mapping) -> dict[str, str]:
    """The headers every response gets, from the app's configuration."""
    headers = {
        "Content-Security-Policy": config["CONTENT_SECURITY_POLICY"]
        or content_security_policy(config["FRAME_ANCESTORS"]),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if config["CROSS_ORIGIN_ISOLATION"]:
        # A SharedArrayBuffer lets Stop interrupt Python; the worker script needs COEP as the page does.
        headers["Cross-Origin-Opener-Policy"] = "same-origin"
        headers["Cross-Origin-Embedder-Policy"] = "require-corp"
        headers["Cross-Origin-Resource-Policy"] = "same-origin"
    return headers


class SettingError(ValueError):
    """A setting that would make a broken or dangerous header; the message names it and its value."""


CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # a newline would end the header: the rest, a header of its own
SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:")  # a scheme source: https:
HOST = re.compile(r"(\*|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*)")  # CSP's host-part; IP literals as dotted names
PORT = re.compile(r"[0-9]{1,5}|\*")
SOURCES = "'self', 'none', a scheme (https:) or a host (https://course.example.org, https://*.example.org)"


def refused(setting: str, value: object, why: str) -> SettingError:
    """The error that stops the app: the setting, its value as written (newlines shown), and why."""
    return SettingError(f"{setting}={value!r}: {why}")


def ascii_host(host: str, setting: str, value: str) -> str:
    """A host in its ASCII form: a non-ASCII name in punycode (IDNA, as Python's codec has it)."""
    if host.isascii():
        return host.lower()
    wildcard, name = ("*.", host[2:]) if host.startswith("*.") else ("", host)
    try:
        return wildcard + name.encode("idna").decode("ascii").lower()
    except UnicodeError as err:
        raise refused(setting, value, f"{host!r} is not a host name ({err})") from None


def frame_ancestors_source(source: str, setting: str, value: str, warn: Callable[[str], None]) -> str:
    """One source of frame-ancestors, checked and normalised; a URL with a path becomes its origin."""
    lowered = source.lower()
    if lowered in ("'self'", "'none'") or SCHEME.fullmatch(lowered):
        return lowered
    if source.startswith("'"):
        raise refused(setting, value, f"{source!r} is not a source frame-ancestors takes: {SOURCES}")
    scheme, separator, rest = source.partition("://")
    if not separator:
        scheme, rest = "", source
    elif not SCHEME.fullmatch(scheme.lower() + ":"):
        raise refused(setting, value, f"{scheme!r} in {source!r} is not a scheme")
    authority, path = re.fullmatch(r"([^/?#]*)(.*)", rest, re.S).groups()
    host, colon, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
    if "@" in authority or "[" in authority:
        raise refused(setting, value, f"{source!r} is not a source frame-ancestors takes: {SOURCES}")
    host = ascii_host(host, setting, value)
    if not HOST.fullmatch(host) or (colon and not PORT.fullmatch(port)):
        raise refused(setting, value, f"{source!r} is not a source frame-ancestors takes: {SOURCES}")
    origin = (scheme.lower() + "://" if separator else "") + host + (f":{port}" if colon else "")
    if path:
        warn(f"{setting}: {source!r} has a path; a page is framed by origin, so {origin!r} is used")
    return origin


def checked_frame_ancestors(value: object, warn: Callable[[str], None]) -> str:
    """PLAYGROUND_FRAME_ANCESTORS checked and normalised, or a SettingError naming what is wrong.

    Refused: anything but text, nothing at all, control characters (a newline would inject a header),
    `;` and `,` (another directive, another policy), sources frame-ancestors does not take, 'none'
    beside another source. A URL with a path is reduced to its origin (with a warning); a non-ASCII
    host is written in punycode.
    """
    setting = "PLAYGROUND_FRAME_ANCESTORS"
    if not isinstance(value, str):
        raise refused(setting, value, "must be text, e.g. \"'self' https://course.example.org\"")
    if bad := CONTROL.search(value) or re.search(r"[;,]", value):
        raise refused(setting, value, f"{bad[0]!r} is not allowed in it (it would change the header)")
    if not value.strip():
        raise refused(setting, value, "empty; 'none' lets no page frame it, 'self' only this site")
    sources = [frame_ancestors_source(s, setting, value, warn) for s in value.split()]
    if "'none'" in sources and len(sources) > 1:
        raise refused(setting, value, "'none' cannot stand beside other sources")
    return " ".join(dict.fromkeys(sources))


def checked_policy(value: object) -> str | None:
    """PLAYGROUND_CONTENT_SECURITY_POLICY checked: None or empty (ours), else text a header can carry."""
    setting = "PLAYGROUND_CONTENT_SECURITY_POLICY"
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise refused(setting, value, "must be text, a whole Content-Security-Policy")
    if bad := CONTROL.search(value) or re.search(r"[^\x00-\x7f]", value):
        raise refused(setting, value, f"{bad[0]!r} is not allowed in it (a header is ASCII, one line)")
    if not value.strip():
        raise refused(setting, value, "blank, which would send no policy at all")
    return value


def check_settings(config: MutableMapping, warn: Callable[[str], None]) -> None:
    """Check the settings that go into headers, at start-up: a SettingError stops the app there."""
    config["FRAME_ANCESTORS"] = checked_frame_ancestors(config["FRAME_ANCESTORS"], warn)
    config["CONTENT_SECURITY_POLICY"] = checked_policy(config["CONTENT_SECURITY_POLICY"])


class AddHeaders:
    """WSGI middleware: add headers to every response that does not already set them."""

    def __init__(self, app: Callable, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = list(headers.items())

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            present = {name.lower() for name, _ in headers}
            headers = headers + [(k, v) for k, v in self.headers if k.lower() not in present]
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
