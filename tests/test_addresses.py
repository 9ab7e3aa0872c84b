"""Where the server may send a request another party named (server/http/addresses.py): http(s) to a global
address only, unless the host allows private ones; IP literals and localhost, no DNS beyond the machine."""

import pytest

from server.http.addresses import origin, refusal


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/memberships",  # loopback
        "http://localhost/memberships",  # loopback, by name
        "http://[::1]/memberships",
        "https://10.1.2.3/memberships",  # private
        "https://172.16.0.9/memberships",
        "https://192.168.1.1/memberships",
        "http://169.254.169.254/latest/meta-data/",  # link-local: a cloud's metadata service
        "http://[fe80::1]/memberships",
        "http://100.64.0.1/memberships",  # shared (carrier-grade NAT)
        "http://0.0.0.0/memberships",
        "http://[::ffff:127.0.0.1]/memberships",  # loopback, mapped in IPv6
        "http://[fd00::1]/memberships",  # unique local
        "http://224.0.0.1/memberships",  # multicast
    ],
)
def test_a_private_address_is_refused_unless_the_host_allows_it(url):
    assert "private address" in refusal(url, allow_private=False)
    assert refusal(url, allow_private=True) is None


def test_a_global_address_is_not_refused():
    assert refusal("https://93.184.215.14/lti/memberships", allow_private=False) is None
    assert refusal("https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/m", allow_private=False) is None


@pytest.mark.parametrize("url", ["file:///etc/passwd", "gopher://lms.example/", "https:///memberships", "x"])
def test_only_http_urls_with_a_host_are_taken_even_where_private_ones_are(url):
    assert "not an http(s) URL" in refusal(url, allow_private=True)


def test_an_origin_is_its_scheme_host_and_port_with_the_default_port_as_none():
    assert (
        origin("https://LMS.example:443/a?b")
        == origin("https://lms.example/c")
        == ("https", "lms.example", None)
    )
    assert origin("http://lms.example:8080/") == ("http", "lms.example", 8080)
    assert origin("http://lms.example/") != origin("https://lms.example/")
