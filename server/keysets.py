"""Key sets (JWKS) of courses and LMSs, fetched from their URLs rarely, briefly and one at a time.

A key set is kept once fetched. It is fetched again only when a token names a key it lacks (or it is
older than MAX_AGE_S), and then at most once per INTERVAL_S per URL in this process, whoever asks:
a flood of tokens with unknown key ids costs one fetch a minute. A fetch that fails counts too. One
thread fetches a URL at a time, within TIMEOUT_S in all (a key server that answers slowly holds a
request thread that long at most); the others use what is kept.
"""

import json
import threading
import time

import requests
from flask import Flask, current_app

TIMEOUT_S = 2.0  # a whole fetch, connection to last byte
INTERVAL_S = 60.0  # between two fetches of one URL
MAX_AGE_S = 3600.0  # a key set kept longer than this is fetched again (at the next token)
MAX_BYTES = 256 * 1024


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
        deadline = time.monotonic() + self.timeout_s
        try:
            with requests.get(url, timeout=self.timeout_s, stream=True) as response:
                response.raise_for_status()
                body = b""
                for chunk in response.iter_content(8192):
                    body += chunk
                    if len(body) > MAX_BYTES or time.monotonic() > deadline:
                        raise requests.Timeout(f"no whole key set within {self.timeout_s:g} s")
            keys = json.loads(body)
            if not isinstance(keys, dict) or not isinstance(keys.get("keys"), list):
                raise ValueError("it is not a JWK Set")
            keys["keys"] = [k for k in keys["keys"] if isinstance(k, dict)]
            return time.monotonic(), keys, ""
        except (requests.RequestException, ValueError) as exc:
            error = f"the key set at {url} could not be fetched ({type(exc).__name__}: {exc})"
            current_app.logger.warning("%s", error)
            return time.monotonic(), None, error


def key_sets(app: Flask | None = None) -> KeySets:
    """The app's key sets (one per app, made on first use)."""
    app = app or current_app._get_current_object()
    return app.extensions.setdefault("key_sets", KeySets())
