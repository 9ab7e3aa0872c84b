"""server/keysets.py's fetch against one deadline: a key server that trickles, redirects or sends too much.

A real loopback server (a socket, a thread) answers as the test says; the fetch must give up by the
documented bound (TIMEOUT_S, 2 s: docs/security.md) with a clear error, and then fetch a right key set.
"""

import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask

from server.keysets import MAX_BYTES, TIMEOUT_S, KeySetError, KeySets

KEY_SET = json.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "AAAA", "kid": "k1"}]}).encode()
TRICKLED = 200  # bytes sent a byte at a time: 20 s at one byte every 100 ms


class KeyServer:
    """A key server on loopback that answers each connection as `mode` says."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/jwks.json"
        self.mode = "right"
        self.stopped = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        with conn:
            conn.recv(4096)  # the request, whole on loopback
            head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            try:
                if self.mode == "trickle":  # headers and body, a byte every 100 ms
                    for byte in (head + b"Content-Length: 9999\r\n\r\n" + b" " * TRICKLED)[:TRICKLED]:
                        if self.stopped.wait(0.1):
                            return
                        conn.sendall(bytes([byte]))
                elif self.mode == "redirect":
                    conn.sendall(
                        b"HTTP/1.1 302 Found\r\nLocation: http://192.0.2.1/\r\nContent-Length: 0\r\n\r\n"
                    )
                elif self.mode == "huge":
                    body = b"{" + b" " * (MAX_BYTES + 1) + b"}"
                    conn.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
                else:
                    conn.sendall(head + b"Content-Length: %d\r\n\r\n" % len(KEY_SET) + KEY_SET)
            except OSError:  # the fetch gave up and closed its end
                pass

    def stop(self) -> None:
        self.stopped.set()
        self.listener.close()


@pytest.fixture
def key_server() -> Iterator[KeyServer]:
    server = KeyServer()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def app_context():
    with Flask("keys").app_context():  # a failed fetch is logged with the app's logger
        yield


def fetch(url: str) -> tuple[float, dict | None, str]:
    """A fresh process's first fetch of url: (seconds it took, the key set or None, the error)."""
    start = time.monotonic()
    try:
        keys, error = KeySets(interval_s=0).get(url, "k1"), ""
    except KeySetError as exc:
        keys, error = None, str(exc)
    return time.monotonic() - start, keys, error


def test_a_trickling_key_server_is_given_up_by_the_bound_then_a_right_one_is_fetched(key_server):
    key_server.mode = "trickle"
    seconds, keys, error = fetch(key_server.url)
    assert keys is None and seconds < TIMEOUT_S + 1.5, seconds  # not the 20 s the trickle takes
    assert f"within {TIMEOUT_S:g} s" in error and "deadline" in error, error
    key_server.mode = "right"
    seconds, keys, error = fetch(key_server.url)
    assert keys is not None and keys["keys"][0]["kid"] == "k1", error
    assert seconds < TIMEOUT_S


@pytest.mark.parametrize(
    ("mode", "said"), [("redirect", "no redirect is followed"), ("huge", f"over {MAX_BYTES} bytes")]
)
def test_a_redirect_or_an_answer_over_the_cap_is_an_error(key_server, mode, said):
    key_server.mode = mode
    seconds, keys, error = fetch(key_server.url)
    assert keys is None and said in error, error
    assert seconds < TIMEOUT_S + 1.5
