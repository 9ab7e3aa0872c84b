"""Dynamic Registration's requests to an LMS (its configuration's GET, the registration's POST), kept off
the host's own network.

Each request looks the URL's host up once, refuses it when any address it has is not a public one
(server/http/addresses.py's is_private: private, loopback, link-local, unspecified, multicast, reserved or
shared) unless the host allows it with LTI_PRIVATE_ADDRESSES (an LMS on its own network; the tests' LMS
on loopback), and connects to the address it checked: the name is not looked up again, so a name
that answers a public address first and a private one next reaches nothing private. The Host header and
TLS keep the name. The request itself is server/keys/keysets.py's: one deadline for all of it, no redirect
followed, the answer read whole up to its size limit.
"""

import http.client
import socket
import time
from urllib.parse import urlsplit

from flask import current_app

from server.http.addresses import is_private
from server.keys import keysets


class OnHostsNetwork(Exception):
    """The URL's host is (or its name leads to) an address on the host's own network."""


class NotReached(OSError):
    """No connection to the LMS: nothing was sent to it."""


def allow_private() -> bool:
    return bool(current_app.config["LTI_PRIVATE_ADDRESSES"])


def addresses(url: str) -> list[str]:
    """The addresses of a URL's host, looked up once; OnHostsNetwork if any is on the host's network (and
    that is not allowed); NotReached if the name has none."""
    parts = urlsplit(url)
    host = (parts.hostname or "").strip("[]")
    try:
        found = socket.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise NotReached(f"{type(exc).__name__}: {exc}") from exc
    listed = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not listed:
        raise NotReached(f"{host} has no address")
    if not allow_private() and any(is_private(address) for address in listed):
        raise OnHostsNetwork(url)
    return listed


def request(
    url: str, deadline: float, method: str = "GET", body: bytes = b"", headers: dict | None = None
) -> http.client.HTTPResponse:
    """One request to url at an address checked by addresses(), its answer read whole before the deadline.
    OnHostsNetwork or NotReached before anything is sent; once connected, what keysets' exchange raises."""
    parts = urlsplit(url)
    sock, why = None, "no address"
    for address in addresses(url):  # each one checked; the first that answers
        try:
            sock = keysets.connect(parts, deadline, address)
            break
        except (OSError, ValueError) as exc:
            why = f"{type(exc).__name__}: {exc}"
            if time.monotonic() >= deadline:
                break
    if sock is None:
        raise NotReached(why)
    try:
        return keysets.exchange(sock, parts, deadline, method, body, headers)
    finally:
        sock.close()
