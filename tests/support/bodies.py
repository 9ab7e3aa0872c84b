"""Requests whose body is larger than what is sent: a length declared and not sent, or chunks with no end.

A server that reads such a body waits for the rest; one that bounds it answers at once. Either way
only a few kB cross the loopback.
"""

import http.client
import ssl
from urllib.parse import urlsplit

ANSWER_S = 10  # a bounded server answers in well under this; one that reads the body never does


def connection(url: str, ca_file: str | None = None) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=ca_file)
        return http.client.HTTPSConnection(parts.hostname, parts.port, timeout=ANSWER_S, context=context)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=ANSWER_S)


def answer(conn: http.client.HTTPConnection) -> tuple[int, str, str]:
    response = conn.getresponse()
    return response.status, response.getheader("Content-Type") or "", response.read().decode()


def declared(
    url: str,
    path: str,
    length: int,
    method: str = "POST",
    content_type: str = "application/x-www-form-urlencoded",
    ca_file: str | None = None,
    headers: dict | None = None,
) -> tuple[int, str, str]:
    """Send the headers of a body of length bytes, and none of it: the status, type and text of the answer."""
    conn = connection(url, ca_file)
    conn.putrequest(method, urlsplit(url).path.rstrip("/") + path)
    said = {"Content-Type": content_type, "Content-Length": str(length), **(headers or {})}
    for name, value in said.items():
        conn.putheader(name, value)
    conn.endheaders()
    try:
        return answer(conn)
    finally:
        conn.close()


def unended(
    url: str,
    path: str,
    sent: int,
    content_type: str = "application/json",
    ca_file: str | None = None,
) -> tuple[int, str, str]:
    """Send sent bytes of a chunked body without its last chunk: the status, type and text of the answer."""
    conn = connection(url, ca_file)
    conn.putrequest("POST", urlsplit(url).path.rstrip("/") + path)
    conn.putheader("Content-Type", content_type)
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    conn.send(b"%x\r\n%s\r\n" % (sent, b" " * sent))  # JSON's whitespace, as much as sent
    try:
        return answer(conn)
    finally:
        conn.close()
