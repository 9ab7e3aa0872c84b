"""Whether the server may send a request to a URL another party named (an LMS's roster pages, its
Dynamic Registration endpoints: server/lti/reach.py): one rule for every request the server makes to a
host it was told of, so that such a URL cannot aim the server at its own network.

A URL is refused unless it is http(s) with a host, and, unless the host allows it (LTI_PRIVATE_ADDRESSES,
for an LMS on the same private network), every address its host resolves to is a global one: never
loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, a cloud's metadata
service; fe80::/10), shared (100.64/10), multicast or reserved. The check is made before each request;
a host whose DNS answer changes between the check and the connection is not caught.
"""

import ipaddress
import socket
from urllib.parse import urlsplit


def origin(url: str) -> tuple[str, str, int | None]:
    """A URL's scheme, host and port (the default port as None), lower-cased: what same-origin compares."""
    parts = urlsplit(url)
    port = parts.port
    if (parts.scheme, port) in (("http", 80), ("https", 443)):
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


def addresses_of(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Every address the host is (an IP literal) or resolves to (socket.gaierror: it does not)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in found]


def is_private(address: ipaddress.IPv4Address | ipaddress.IPv6Address | str) -> bool:
    """Whether an address is anything but a public unicast one: loopback, private, link-local, shared,
    unspecified, multicast or reserved, or an IPv6 address that carries such an IPv4 one (mapped, 6to4,
    Teredo). An IPv6 zone (fe80::1%eth0) is link-local."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour or (address.teredo or (None, None))[1]
        if embedded is not None and is_private(embedded):
            return True
    return (
        not address.is_global
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_multicast
        or address.is_reserved
    )


def refusal(url: str, allow_private: bool) -> str | None:
    """Why the server may not send a request to url, in a few words; None: it may."""
    scheme, host, _ = origin(url)
    if scheme not in ("http", "https") or not host:
        return f"{url[:100]} is not an http(s) URL with a host"
    if allow_private:
        return None
    try:
        found = addresses_of(host)
    except (socket.gaierror, UnicodeError) as exc:
        return f"{host} could not be resolved ({exc})"
    private = [str(a) for a in found if is_private(a)]
    if private or not found:
        shown = ", ".join(private)
        return f"{host} is at a private address ({shown}), which LTI_PRIVATE_ADDRESSES does not allow"
    return None
