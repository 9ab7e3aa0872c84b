"""server/keys/keysets.py's fetch against one deadline: a key server that trickles, redirects or sends too
much.

A real loopback server (a socket, a thread) answers as the test says; the fetch must give up by the
documented bound (TIMEOUT_S, 2 s: docs/security.md) with a clear error, and then fetch a right key set.
"""

import contextlib
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator

import pytest
import trustme
from flask import Flask

from server.keys.keysets import MAX_BYTES, TIMEOUT_S, KeySetError, KeySets
from tests.support.sockets import Loopback

KEY_SET = json.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "AAAA", "kid": "k1"}]}).encode()
TRICKLED = 200  # bytes sent a byte at a time: 20 s at one byte every 100 ms


class KeyServer(Loopback):
    """A key server on loopback that answers each connection as `mode` says (over TLS with tls)."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        super().__init__()
        scheme, self.tls = ("https" if tls else "http"), tls
        self.url = f"{scheme}://localhost:{self.port}/jwks.json"
        self.mode = "right"
        self.stopped = threading.Event()

    def answer(self, conn: socket.socket) -> None:
        if self.tls:
            conn = self.tls.wrap_socket(conn, server_side=True)
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
        self.stopped.set()  # ends a trickle under way
        super().stop()


@pytest.fixture
def key_server() -> Iterator[KeyServer]:
    server = KeyServer()
    yield server
    server.stop()


class Proxy(Loopback):
    """An HTTP proxy on loopback, as a host's outgoing one: a CONNECT tunnel, or a GET of a whole URL
    passed on; it notes each request's first line."""

    def __init__(self) -> None:
        super().__init__()
        self.url = f"http://127.0.0.1:{self.port}"
        self.seen: list[str] = []

    def answer(self, conn: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            head += conn.recv(4096)
        method, target, _ = head.split(b"\r\n", 1)[0].decode().split(" ")
        self.seen.append(f"{method} {target}")
        if method == "CONNECT":
            upstream = socket.create_connection(tuple(target.rsplit(":", 1)))
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:  # GET http://host:port/path: passed on as GET /path
            host, _, path = target.removeprefix("http://").partition("/")
            upstream = socket.create_connection(tuple(host.rsplit(":", 1)))
            upstream.sendall(head.replace(target.encode(), b"/" + path.encode(), 1))
        threading.Thread(target=self.pipe, args=(upstream, conn), daemon=True).start()
        self.pipe(conn, upstream)

    @staticmethod
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(4096):
                sink.sendall(data)
        except OSError:
            pass
        finally:  # shut down, not only closed: the other direction's recv is woken, the fetch sees the end
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()


@pytest.fixture
def proxy(monkeypatch) -> Iterator[Proxy]:
    """A proxy named as a host names one: HTTPS_PROXY and HTTP_PROXY, and no NO_PROXY."""
    server = Proxy()
    for name in ("no_proxy", "NO_PROXY", "https_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", server.url)
    monkeypatch.setenv("HTTP_PROXY", server.url)
    yield server
    server.stop()


@pytest.fixture
def tls_key_server(tmp_path, monkeypatch) -> Iterator[KeyServer]:
    """A key server over TLS, its certificate from a CA the fetch trusts (REQUESTS_CA_BUNDLE)."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost").configure_cert(context)
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tmp_path / "ca.pem"))
    server = KeyServer(tls=context)
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


def test_a_proxy_the_host_names_carries_the_fetch_of_an_https_and_an_http_key_set(
    proxy, tls_key_server, key_server
):
    """Behind a proxy (HTTPS_PROXY, HTTP_PROXY), as requests took it: https through a CONNECT tunnel,
    its certificate still checked; http as a GET of the whole URL; a trickle still bounded."""
    seconds, keys, error = fetch(tls_key_server.url)
    assert (error, keys["keys"][0]["kid"]) == ("", "k1")
    assert proxy.seen == [f"CONNECT {tls_key_server.url.split('/')[2]}"]
    seconds, keys, error = fetch(key_server.url)
    assert (error, keys["keys"][0]["kid"]) == ("", "k1") and proxy.seen[-1] == f"GET {key_server.url}"
    key_server.mode = "trickle"
    seconds, keys, error = fetch(key_server.url)
    assert keys is None and "deadline" in error and seconds < TIMEOUT_S + 1.5


def test_no_proxy_names_the_hosts_fetched_straight(proxy, key_server, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "localhost")
    seconds, keys, error = fetch(key_server.url)
    assert (error, keys["keys"][0]["kid"]) == ("", "k1") and proxy.seen == []
