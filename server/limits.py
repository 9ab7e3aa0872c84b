"""Rate limits, and one sandbox at a time per client, counted where every process can see them.

Counted with `limits` (the library Flask-Limiter is built on; its moving window): in this process's
memory by default, so each gunicorn process and each instance counts alone, or in Redis when
RATELIMIT_STORAGE_URL is set (`redis://host:6379/0`, `redis+unix:///run/redis.sock`), so every
process of every instance that names the same Redis counts together.

A client is the address a request comes from, as PROXY_FIX gives it (the one the trusted proxy saw,
whatever a client puts before it in X-Forwarded-For), an IPv6 address by its /64 network: one host
gets a whole /64, so its addresses in it count as one. A port a proxy writes after the address
(`203.0.113.5:4711`, `[2001:db8::1]:4711`) is no part of the client: each connection has its own.
"""

import contextlib
import math
import time
from collections.abc import Iterator
from ipaddress import ip_address, ip_network

from flask import Flask, current_app, request
from limits import RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

PREFIX = "backprop-playground"


def without_port(address: str) -> str:
    """The address a proxy wrote, without the port it may add: 203.0.113.5:4711, [2001:db8::1]:4711."""
    if address.startswith("["):
        inside, _, port = address[1:].partition("]")
        return inside if port == "" or (port[:1] == ":" and port[1:].isdigit()) else address
    host, colon, port = address.partition(":")
    return host if colon and port.isdigit() else address  # one colon and digits: IPv4 and a port


def client_of(address: str | None) -> str:
    """The client an address counts as: itself (without a port), or its /64 network for IPv6."""
    try:
        ip = ip_address(without_port(address or ""))
    except ValueError:
        return address or "?"
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client() -> str:
    """The client of the request under way."""
    return client_of(request.remote_addr)


class Limits:
    """Moving-window rate limits and holds, in the storage a URL names (memory:// by default)."""

    def __init__(self, url: str | None) -> None:
        self.url = url or "memory://"
        self.storage = storage_from_string(self.url)
        self.window = MovingWindowRateLimiter(self.storage)

    def hit(self, scope: str, limit: int, window_s: float, who: str) -> float:
        """Count a request of who in scope: 0 if it may go on, else the seconds until one may."""
        item = RateLimitItemPerSecond(int(limit), max(1, math.ceil(window_s)))
        if self.window.hit(item, PREFIX, scope, who):
            return 0.0
        reset = self.window.get_window_stats(item, PREFIX, scope, who).reset_time
        return max(1.0, reset - time.time())

    def count(self, scope: str, limit: int, window_s: float, who: str) -> float:
        """Count a request of who in a window of window_s seconds from its first: 0 if it may go on,
        else the seconds until the window ends. A request counted may be refunded (a 503)."""
        key = f"{PREFIX}/count/{scope}/{who}"
        window = max(1, math.ceil(window_s))
        if self.storage.incr(key, window) <= int(limit):
            return 0.0
        return max(1.0, self.storage.get_expiry(key) - time.time())

    def refund(self, scope: str, who: str, window_s: float) -> None:
        """Take back a request count() let go on (it was not served after all)."""
        self.storage.incr(f"{PREFIX}/count/{scope}/{who}", max(1, math.ceil(window_s)), -1)

    @contextlib.contextmanager
    def hold(self, scope: str, who: str, at_most_s: float) -> Iterator[bool]:
        """Hold who's one place in scope for the block (True), or say another request holds it (False).

        A holder that dies without letting go (a killed process) holds it for at_most_s seconds.
        """
        key = f"{PREFIX}/hold/{scope}/{who}"
        taken = self.storage.incr(key, max(1, math.ceil(at_most_s))) == 1
        try:
            yield taken
        finally:
            if taken:
                self.storage.clear(key)


def init_app(app: Flask) -> None:
    """Open the limits' storage (RATELIMIT_STORAGE_URL, or this process's memory)."""
    app.extensions["limits"] = Limits(app.config["RATELIMIT_STORAGE_URL"])


def limits() -> Limits:
    """The app's limits."""
    return current_app.extensions["limits"]
