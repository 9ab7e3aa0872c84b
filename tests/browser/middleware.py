"""WSGI middleware that makes a real server slow or stuck on one path, as a learner's line can be."""

import threading
import time
from collections.abc import Iterable, Iterator


class Gate:
    """Hold the requests for one path until the test opens the gate."""

    def __init__(self, app, path_part: str) -> None:
        self.app, self.path_part, self.open = app, path_part, threading.Event()

    def __call__(self, environ, start_response):
        if self.path_part in environ["PATH_INFO"]:
            self.open.wait(30)
        return self.app(environ, start_response)


class Halt:
    """Send one path's body up to a marker, then hold the rest until the test opens the gate: a page whose
    <head> has arrived, and its scripts started, while its body is still on the way."""

    def __init__(self, app, path: str, marker: bytes) -> None:
        self.app, self.path, self.marker, self.open = app, path, marker, threading.Event()

    def __call__(self, environ, start_response):
        body = self.app(environ, start_response)
        return self.halted(body) if environ["PATH_INFO"] == self.path else body

    def halted(self, body: Iterable[bytes]) -> Iterator[bytes]:
        try:
            whole = b"".join(body)
        finally:
            getattr(body, "close", lambda: None)()
        cut = whole.index(self.marker)
        yield whole[:cut]
        self.open.wait(30)
        yield whole[cut:]


class Trickle:
    """Send the body of one path in pieces of `piece` bytes, `pause` seconds apart: a slow line."""

    def __init__(self, app, path_part: str, piece: int, pause: float) -> None:
        self.app, self.path_part, self.piece, self.pause = app, path_part, piece, pause

    def __call__(self, environ, start_response):
        body = self.app(environ, start_response)
        return self.slowly(body) if self.path_part in environ["PATH_INFO"] else body

    def slowly(self, body: Iterable[bytes]) -> Iterator[bytes]:
        pending = b""
        try:
            for chunk in body:
                pending += chunk
                while len(pending) >= self.piece:
                    time.sleep(self.pause)
                    yield pending[: self.piece]
                    pending = pending[self.piece :]
            if pending:
                time.sleep(self.pause)
                yield pending
        finally:
            getattr(body, "close", lambda: None)()
