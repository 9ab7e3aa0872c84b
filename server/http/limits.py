"""Rate limits, and one sandbox at a time per client, counted where every process can see them.

Counted with `limits` (the library Flask-Limiter is built on; its moving window): in this process's
memory by default, so each gunicorn process and each instance counts alone, or in Redis when
RATELIMIT_STORAGE_URL is set (`redis://host:6379/0`, `redis+unix:///run/redis.sock`), so every
process of every instance that names the same Redis counts together.

Redis gets connect and read timeouts (TIMEOUT_S); when it fails or does not answer, this process counts
in its own memory for DOWN_S seconds before it asks Redis again (the log says so), so a Redis that is
down or stopped makes the limits per process for a while, never a 500 or a held request thread. The
one-at-a-time hold is then the instance's (server/sandbox/holds.py's files), as it always is without Redis.

A client is the address a request comes from, as PROXY_FIX gives it (the one the trusted proxy saw,
whatever a client puts before it in X-Forwarded-For), an IPv6 address by its /64 network: one host
gets a whole /64, so its addresses in it count as one. A port a proxy writes after the address
(`203.0.113.5:4711`, `[2001:db8::1]:4711`) is no part of the client: each connection has its own.
"""

import contextlib
import logging
import math
import time
from collections.abc import Callable, Iterator
from ipaddress import ip_address, ip_network
from typing import TypeVar

from flask import Flask, current_app, request
from limits import RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from server.sandbox.holds import Holds

PREFIX = "backprop-playground"
TIMEOUT_S = 1.0  # Redis's connect and read timeouts
DOWN_S = 10.0  # after a failure, count in this process's memory this long before asking Redis again

log = logging.getLogger(__name__)
Answer = TypeVar("Answer")


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
    """Moving-window rate limits and holds, in the storage a URL names (memory:// by default), and in
    this process's memory while that storage fails."""

    def __init__(self, url: str | None) -> None:
        self.url = url or "memory://"
        self.local = storage_from_string("memory://")
        options = {} if self.url.startswith("memory:") else {"wrap_exceptions": True}
        if self.url.startswith(("redis:", "rediss:", "redis+unix:")):
            options |= {"socket_timeout": TIMEOUT_S, "socket_connect_timeout": TIMEOUT_S}
        self.storage = storage_from_string(self.url, **options) if options else self.local
        self.windows = {id(s): MovingWindowRateLimiter(s) for s in (self.storage, self.local)}
        self.down_until = 0.0

    @property
    def shared(self) -> bool:
        """Whether the counts are in a storage other processes share (Redis), and it answers."""
        return self.storage is not self.local and time.monotonic() >= self.down_until

    def ask(self, question: Callable[[Storage], Answer]) -> Answer:
        """question's answer from the shared storage, or from this process's memory while that fails."""
        if self.shared:
            try:
                return question(self.storage)
            except StorageError as exc:
                self.failed(exc)
        return question(self.local)

    def failed(self, exc: StorageError) -> None:
        """Count in this process's memory for a while: the shared storage failed."""
        self.down_until = time.monotonic() + DOWN_S
        log.warning("the limits' storage failed (%s); counting in this process for %g s", exc, DOWN_S)

    def hit(self, scope: str, limit: int, window_s: float, who: str) -> float:
        """Count a request of who in scope: 0 if it may go on, else the seconds until one may."""
        item = RateLimitItemPerSecond(int(limit), max(1, math.ceil(window_s)))

        def wait(storage: Storage) -> float:
            window = self.windows[id(storage)]
            if window.hit(item, PREFIX, scope, who):
                return 0.0
            reset = window.get_window_stats(item, PREFIX, scope, who).reset_time
            return max(1.0, reset - time.time())

        return self.ask(wait)

    def count(self, scope: str, limit: int, window_s: float, who: str) -> float:
        """Count a request of who in a window of window_s seconds from its first: 0 if it may go on,
        else the seconds until the window ends. A request counted may be refunded (a 503)."""
        key = f"{PREFIX}/count/{scope}/{who}"
        window = max(1, math.ceil(window_s))

        def wait(storage: Storage) -> float:
            if storage.incr(key, window) <= int(limit):
                return 0.0
            return max(1.0, storage.get_expiry(key) - time.time())

        return self.ask(wait)

    def refund(self, scope: str, who: str, window_s: float) -> None:
        """Take back a request count() let go on (it was not served after all)."""
        key = f"{PREFIX}/count/{scope}/{who}"
        self.ask(lambda storage: storage.incr(key, max(1, math.ceil(window_s)), -1))

    @contextlib.contextmanager
    def hold(self, scope: str, who: str, at_most_s: float, instance: Holds) -> Iterator[bool]:
        """Hold who's one place in scope for the block (True), or say another request holds it (False):
        in Redis, across instances, else (and while Redis fails) across the instance's processes.

        A holder that dies without letting go (a killed process) holds it in Redis for at_most_s seconds.
        """
        key = f"{PREFIX}/hold/{scope}/{who}"
        taken = None  # None: no Redis, or it failed: the instance's files hold
        if self.shared:
            try:
                taken = self.storage.incr(key, max(1, math.ceil(at_most_s))) == 1
            except StorageError as exc:
                self.failed(exc)
        if taken is None:
            with instance.hold(f"{scope}/{who}") as mine:
                yield mine
            return
        try:
            yield taken
        finally:
            if taken:
                try:
                    self.storage.clear(key)
                except StorageError as exc:  # Redis lets go of it at_most_s after it was taken
                    self.failed(exc)


def init_app(app: Flask) -> None:
    """Open the limits' storage (RATELIMIT_STORAGE_URL, or this process's memory)."""
    app.extensions["limits"] = Limits(app.config["RATELIMIT_STORAGE_URL"])


def limits() -> Limits:
    """The app's limits."""
    return current_app.extensions["limits"]
