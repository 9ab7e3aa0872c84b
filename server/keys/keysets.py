"""Key sets (JWKS) of courses and LMSs, fetched from their URLs rarely, briefly and one at a time.

A key set is kept once fetched. It is fetched again only when a token names a key it lacks (or it is
older than MAX_AGE_S), and then at most once per INTERVAL_S per URL in this process, whoever asks:
a flood of tokens with unknown key ids costs one fetch a minute. A fetch that fails counts too. One
thread fetches a URL at a time, within TIMEOUT_S in all (a key server that answers slowly, or trickles
its answer a byte at a time, holds a request thread that long at most); the others use what is kept.

A fetch is one plain GET against one deadline: connecting, the TLS handshake and every small read
wait only for the time left, the answer is read whole up to MAX_BYTES and then parsed (so a trickle of
headers is bounded too), and a redirect is an error (a key set's URL is its own). Only the name's
lookup (DNS) is not bounded by it: the system resolver's own timeouts apply. The certificates are
requests' (REQUESTS_CA_BUNDLE, else certifi's). A proxy the environment names (HTTPS_PROXY for an
https URL, HTTP_PROXY for an http one, NO_PROXY's hosts excepted), as requests took it: an http://
proxy, through a CONNECT tunnel for https, within the same deadline. Its two halves, connect (to an
address the caller looked up, when it gives one) and exchange (any method, a body), also carry Dynamic
Registration's requests (server/lti/reach.py).
"""

import http.client
import io
import json
import os
import socket
import ssl
import threading
import time
from base64 import b64encode
from urllib.parse import SplitResult, unquote, urlsplit
from urllib.request import getproxies, proxy_bypass

import certifi
from flask import Flask, current_app

TIMEOUT_S = 2.0  # a whole fetch, connection to last byte
INTERVAL_S = 60.0  # between two fetches of one URL
MAX_AGE_S = 3600.0  # a key set kept longer than this is fetched again (at the next token)
MAX_BYTES = 256 * 1024  # the whole answer, its headers too
READ_BYTES = 4096  # one read: the deadline is checked between reads
PROXY_HEAD_BYTES = 8192  # a proxy's answer to CONNECT, its headers


class KeySetError(Exception):
    """No key set to check with (its message says why)."""


class KeySets:
    """The key sets this process keeps, by URL."""

    def __init__(self, timeout_s: float = TIMEOUT_S, interval_s: float = INTERVAL_S) -> None:
        self.timeout_s = timeout_s
        self.interval_s = interval_s
        self.kept: dict[str, tuple[float, dict | None, str]] = {}  # url: (fetched at, key set, error)
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()
        self.fetches = 0  # how many fetches this process started (the tests count them)

    def get(self, url: str, kid: str | None) -> dict:
        """The key set at url: the one kept, or fetched now if that lacks kid and the interval allows."""
        with self.guard:
            lock = self.locks.setdefault(url, threading.Lock())
        if (found := self.usable(url, kid)) is not None:
            return found
        if not lock.acquire(timeout=self.timeout_s):  # another thread is fetching it: use what is kept
            return self.kept_or_error(url)
        try:
            if (found := self.usable(url, kid)) is not None:  # fetched while this thread waited
                return found
            fetched = self.fetch(url)
            if fetched[1] is None and url in self.kept:  # a failed fetch keeps the key set there was
                fetched = (fetched[0], self.kept[url][1], fetched[2])
            self.kept[url] = fetched
        finally:
            lock.release()
        return self.kept_or_error(url)

    def usable(self, url: str, kid: str | None) -> dict | None:
        """The kept key set, if it has kid or may not be fetched again yet; else None (fetch it)."""
        fetched, keys, error = self.kept.get(url, (0.0, None, ""))
        age = time.monotonic() - fetched if fetched else float("inf")
        has_kid = keys is not None and (kid is None or any(k.get("kid") == kid for k in keys["keys"]))
        if has_kid and age < MAX_AGE_S:
            return keys
        if age < self.interval_s:
            return self.kept_or_error(url)
        return None

    def kept_or_error(self, url: str) -> dict:
        """The kept key set, or KeySetError saying why there is none."""
        fetched, keys, error = self.kept.get(url, (0.0, None, "not fetched yet"))
        if keys is None:
            raise KeySetError(error)
        return keys

    def fetch(self, url: str) -> tuple[float, dict | None, str]:
        """Fetch a key set within the time limit: (when, the key set or None, why not)."""
        self.fetches += 1
        try:
            keys = json.loads(get(url, time.monotonic() + self.timeout_s))
            if not isinstance(keys, dict) or not isinstance(keys.get("keys"), list):
                raise ValueError("it is not a JWK Set")
            keys["keys"] = [k for k in keys["keys"] if isinstance(k, dict)]
            return time.monotonic(), keys, ""
        except (OSError, http.client.HTTPException, ValueError) as exc:  # socket.timeout is an OSError
            why = f"{type(exc).__name__}: {exc}"
            error = f"the key set at {url} could not be fetched within {self.timeout_s:g} s ({why})"
            current_app.logger.warning("%s", error)
            return time.monotonic(), None, error


class KeySetTimeout(TimeoutError):
    """No whole answer before the deadline."""


def left(deadline: float) -> float:
    """Seconds until the deadline; KeySetTimeout once it has passed."""
    seconds = deadline - time.monotonic()
    if seconds <= 0:
        raise KeySetTimeout("no whole answer before the deadline")
    return seconds


def get(url: str, deadline: float) -> bytes:
    """The body of a 200 answer to GET url, read whole before the deadline (monotonic seconds)."""
    parts = urlsplit(url)
    sock = connect(parts, deadline)
    try:
        response = exchange(sock, parts, deadline)
    finally:
        sock.close()  # the TLS socket's, when there is one: the plain one is then detached
    if response.status in (301, 302, 303, 307, 308):
        raise ValueError(
            f"HTTP {response.status} to {response.getheader('Location')}: no redirect is followed"
        )
    if response.status != 200:
        raise ValueError(f"HTTP {response.status}")
    return response.read()


def connect(parts: SplitResult, deadline: float, address: str | None = None) -> socket.socket:
    """A connection to the URL's server (TLS for https, checked against its name), through the proxy the
    environment names; to address (an IP address the caller looked the name up to) when given, so that
    the name is not looked up again: the Host header and TLS keep the name."""
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("not an http(s) URL")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    target = address or parts.hostname
    proxy = proxy_for(parts)
    via = (proxy.hostname, proxy.port or 80) if proxy else (target, port)
    sock = socket.create_connection(via, timeout=left(deadline))
    try:
        if proxy and parts.scheme == "https":  # a tunnel to the server, then TLS inside it
            tunnel(sock, f"[{target}]:{port}" if ":" in target else f"{target}:{port}", proxy, deadline)
        if parts.scheme == "https":  # the handshake, like sendall, waits at most its timeout in all
            sock.settimeout(left(deadline))
            sock = ssl.create_default_context(cafile=ca_file()).wrap_socket(
                sock, server_hostname=parts.hostname
            )
    except BaseException:
        sock.close()
        raise
    return sock


def exchange(
    sock: socket.socket,
    parts: SplitResult,
    deadline: float,
    method: str = "GET",
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> http.client.HTTPResponse:
    """Send one request on a connection made by connect() and read its whole answer before the deadline:
    the answer, parsed (its body read with .read())."""
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host = parts.netloc.rpartition("@")[2]
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    proxy = proxy_for(parts)
    if proxy and parts.scheme == "http":  # a plain request through the proxy names the whole URL
        path, extra = f"http://{host}{path}", extra + proxy_authorization(proxy)
    if body or method != "GET":
        extra += f"Content-Length: {len(body)}\r\n"
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
    sock.settimeout(left(deadline))
    sock.sendall(head.encode() + body)
    answer = bytearray()
    while chunk := recv(sock, deadline):
        answer += chunk
        if len(answer) > MAX_BYTES:
            raise ValueError(f"the answer is over {MAX_BYTES} bytes")
    response = http.client.HTTPResponse(Received(bytes(answer)))  # parsed once whole: headers, chunks
    response.begin()
    return response


def proxy_for(parts: SplitResult) -> SplitResult | None:
    """The http:// proxy the environment names for this URL's scheme, or None (none, or NO_PROXY's host)."""
    proxy = getproxies().get(parts.scheme)
    if not proxy or proxy_bypass(parts.hostname or ""):
        return None
    found = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if found.scheme != "http" or not found.hostname:
        raise ValueError(f"the proxy {found.scheme}://{found.hostname} is not an http:// proxy")
    return found


def proxy_authorization(proxy: SplitResult) -> str:
    """The Proxy-Authorization header line for a proxy URL's user and password, or nothing."""
    if proxy.username is None:
        return ""
    secret = f"{unquote(proxy.username)}:{unquote(proxy.password or '')}".encode()
    return f"Proxy-Authorization: Basic {b64encode(secret).decode()}\r\n"


def tunnel(sock: socket.socket, target: str, proxy: SplitResult, deadline: float) -> None:
    """Ask the proxy on sock for a tunnel to target (host:port); return once it is open."""
    sock.settimeout(left(deadline))
    auth = proxy_authorization(proxy)
    sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{auth}\r\n".encode())
    head = bytearray()
    while b"\r\n\r\n" not in head:
        chunk = recv(sock, deadline)
        if not chunk or len(head) > PROXY_HEAD_BYTES:
            raise ValueError("the proxy closed the tunnel or sent too much before opening it")
        head += chunk
    status = bytes(head).split(b"\r\n", 1)[0].decode("latin-1")
    if status.split(" ")[1:2] != ["200"]:
        raise ValueError(f"the proxy refused the tunnel: {status}")


def ca_file() -> str:
    """The certificates a key server's is checked against: requests' choice (its variables, or certifi's)."""
    return os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or certifi.where()


def recv(sock: socket.socket, deadline: float) -> bytes:
    """One small read, waiting only for the time left."""
    sock.settimeout(left(deadline))
    try:
        return sock.recv(READ_BYTES)
    except TimeoutError as exc:
        raise KeySetTimeout("no whole answer before the deadline") from exc


class Received:
    """A whole answer as http.client reads one: from a file."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def makefile(self, mode: str) -> io.BytesIO:
        return io.BytesIO(self.data)


def key_sets(app: Flask | None = None) -> KeySets:
    """The app's key sets (one per app, made on first use)."""
    app = app or current_app._get_current_object()
    return app.extensions.setdefault("key_sets", KeySets())
