"""LTI Dynamic Registration 1.0, the tool's half: read a platform's OpenID configuration and check it,
with what the tool asks a platform for (the services' scopes, the claims) and what goes wrong
(RegistrationError); server/lti/tool_registration.py posts the tool's registration to the platform
(https://www.imsglobal.org/spec/lti-dr/v1p0).

Both requests, the configuration's GET (here) and the registration's POST (tool_registration.py), go
through server/lti/reach.py: the host looked up once and refused on the host's own network (unless
LTI_PRIVATE_ADDRESSES), one deadline for the whole answer, no redirect followed, at most 256 kB read.
Every URL the platform names is https, or http on a loopback address (the tests' platform, with that
setting). What goes wrong is a RegistrationError whose message (a catalogue message, N_) says it in
words and whose params fill it in; what the LMS answered is never among them (its status is).
"""

import http.client
import ipaddress
import json
import time
from urllib.parse import urlsplit

from engine.words import N_
from server.lti import reach
from server.lti.claims import web_origin

CONFIG_TIMEOUT_S = 5.0  # the whole fetch of the configuration, connection to last byte
MAKE_ANOTHER = "flask --app server lti registration-url"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
AGS = "https://purl.imsglobal.org/spec/lti-ags/scope/"
# The services the tool uses: grades (AGS: the score of a pass, the line item Deep Linking makes) and the
# course's roster (NRPS: the class view's names). A platform that offers fewer gets asked for those only.
GRADE_SCOPES = (AGS + "lineitem", AGS + "score")
ROSTER_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
# Who launched (iss, sub) and, where the platform shares them, the learner's names for the class view.
CLAIMS = ["iss", "sub", "name", "given_name", "family_name"]
ENDPOINTS = ("authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")


class RegistrationError(Exception):
    """A registration that cannot go on: status, title and detail (messages, N_) and the detail's params;
    reached: the registration was sent to the LMS (its URL is then used up)."""

    def __init__(self, status: int, title: str, detail: str, reached: bool = False, **params: object) -> None:
        super().__init__(detail % params if params else detail)
        self.status, self.title, self.detail, self.params = status, title, detail, params
        self.reached = reached


def on_hosts_network(url: str) -> RegistrationError:
    return RegistrationError(
        403,
        N_("The LMS's address is on the playground server's own network"),
        N_(
            "%(url)s leads to an address on the playground server's own network (private, loopback or "
            "link-local), which a registration does not reach. If the LMS is on that network, the "
            "server's host can allow it with the setting LTI_PRIVATE_ADDRESSES."
        ),
        url=url,
    )


def unreachable(url: str, why: str) -> RegistrationError:
    return RegistrationError(
        502,
        N_("The LMS's configuration could not be read"),
        N_(
            "The playground could not read the LMS's configuration at %(url)s (%(reason)s). "
            "Check that the LMS can be reached from the playground's server, then try again."
        ),
        url=url,
        reason=why,
    )


def not_lti(url: str, why: str) -> RegistrationError:
    return RegistrationError(
        502,
        N_("This is not an LTI 1.3 platform's configuration"),
        N_("The configuration at %(url)s is not one an LTI 1.3 platform publishes: %(reason)s."),
        url=url,
        reason=why,
    )


def allowed_url(url: object) -> bool:
    """Whether a URL the platform names may be used: https, or http on a loopback address (the tests)."""
    origin = web_origin(url)
    if origin is None:
        return False
    parts = urlsplit(origin)
    if parts.scheme == "https":
        return True
    host = (parts.hostname or "").strip("[]")
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def fetch_configuration(url: str) -> dict:
    """The platform's OpenID configuration at url, read within CONFIG_TIMEOUT_S, or RegistrationError."""
    if not allowed_url(url):
        raise RegistrationError(
            400,
            N_("This registration was not opened by an LMS"),
            N_(
                "The address of the LMS's configuration (openid_configuration) is missing or is not an "
                "https address. Start the registration from the LMS: paste the registration URL there."
            ),
        )
    try:
        answer = reach.request(url, time.monotonic() + CONFIG_TIMEOUT_S)
        if answer.status != 200:
            raise ValueError(
                f"HTTP {answer.status}" + (" (a redirect: not followed)" if answer.status // 100 == 3 else "")
            )
        configuration = json.loads(answer.read())
    except reach.OnHostsNetwork as exc:
        raise on_hosts_network(url) from exc
    except (OSError, http.client.HTTPException, ValueError) as exc:  # a timeout is an OSError
        raise unreachable(url, f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(configuration, dict):
        raise not_lti(url, "it is not a JSON object")
    return configuration


def supported_messages(platform: dict) -> set[str]:
    """The message types a platform configuration says it supports (objects with a type, or names)."""
    listed = platform.get("messages_supported")
    if not isinstance(listed, list):
        return set()
    return {m.get("type") if isinstance(m, dict) else m for m in listed} - {None}


def check_configuration(url: str, configuration: dict) -> dict:
    """The checked configuration: issuer, endpoints, scopes to ask for; or RegistrationError saying why."""
    issuer = configuration.get("issuer")
    if not isinstance(issuer, str) or not allowed_url(issuer):
        raise not_lti(url, "it names no issuer, or one that is not an https address")
    if web_origin(issuer) != web_origin(url):  # the spec: the issuer and the configuration's URL match
        raise RegistrationError(
            502,
            N_("The LMS's configuration names another site"),
            N_(
                "Its issuer, %(issuer)s, is not on the site the configuration came from (%(url)s): "
                "the playground registers an LMS only with its own configuration."
            ),
            issuer=issuer,
            url=url,
        )
    platform = configuration.get(PLATFORM_CONFIGURATION)
    if not isinstance(platform, dict):
        raise not_lti(url, f"it has no {PLATFORM_CONFIGURATION}")
    for endpoint in ENDPOINTS:
        if not allowed_url(configuration.get(endpoint)):
            raise not_lti(url, f"its {endpoint} is missing or not an https address")
    if "LtiResourceLinkRequest" not in supported_messages(platform):
        raise not_lti(url, "it does not say it launches activities (LtiResourceLinkRequest)")
    for field, wanted in (
        ("token_endpoint_auth_methods_supported", "private_key_jwt"),
        ("id_token_signing_alg_values_supported", "RS256"),
    ):
        offered = configuration.get(field)
        if isinstance(offered, list) and wanted not in offered:
            raise not_lti(url, f"its {field} lacks {wanted}")
    offered = configuration.get("scopes_supported")
    offered = set(offered) if isinstance(offered, list) else set()
    audience = configuration.get("authorization_server")
    return {
        "issuer": issuer,
        "auth_login_url": configuration["authorization_endpoint"],
        "auth_token_url": configuration["token_endpoint"],
        "key_set_url": configuration["jwks_uri"],
        "auth_audience": audience if isinstance(audience, str) and audience else None,
        "registration_endpoint": configuration["registration_endpoint"],
        "scopes": [s for s in (*GRADE_SCOPES, ROSTER_SCOPE) if s in offered],
        "deep_linking": "LtiDeepLinkingRequest" in supported_messages(platform),
        "product": str(platform.get("product_family_code") or ""),
    }
