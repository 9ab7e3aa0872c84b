"""LTI Dynamic Registration 1.0, the tool's registration: shaped as the spec has it (ToolRegistration,
pylti1p3's fields from the tool's own URLs) and posted to the platform's registration endpoint
(post_registration), the client and deployment ids of its answer read and checked
(https://www.imsglobal.org/spec/lti-dr/v1p0).

The POST goes through server/lti/reach.py as the configuration's GET does (server/lti/openid.py says
how); what goes wrong is openid.py's RegistrationError, `reached` once the POST was sent.
"""

import http.client
import json
import time
from urllib.parse import urlsplit

from pylti1p3.dynamic_registration import DynamicRegistration

from engine.words import N_
from server.lti import reach
from server.lti.claims import text
from server.lti.openid import CLAIMS, MAKE_ANOTHER, RegistrationError, on_hosts_network

POST_TIMEOUT_S = 10.0  # the whole registration's POST, connection to the answer's last byte
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"


class ToolRegistration(DynamicRegistration):
    """The tool's registration as pylti1p3 shapes it (the spec's fields), from the tool's own URLs."""

    def __init__(self, name: str, description: str, urls: dict, scopes: list[str], deep_linking: bool):
        self.client_name, self.description = name, description
        self.urls, self.scopes, self.deep_linking = urls, scopes, deep_linking

    def get_initiate_login_uri(self) -> str:
        return self.urls["login"]

    def get_jwks_uri(self) -> str:
        return self.urls["jwks"]

    def get_redirect_uris(self) -> list[str]:
        return [self.urls["launch"]]

    def get_target_link_uri(self) -> str:
        return self.urls["launch"]

    def get_domain(self) -> str:
        return urlsplit(self.urls["launch"]).netloc

    def get_scopes(self) -> list[str]:
        return self.scopes

    def get_claims(self) -> list[str]:
        return CLAIMS

    def get_messages(self) -> list[dict]:
        messages = [{"type": "LtiResourceLinkRequest", "target_link_uri": self.urls["launch"]}]
        if self.deep_linking:  # the teacher adds the exercise from the LMS's activity chooser
            messages.append(
                {
                    "type": "LtiDeepLinkingRequest",
                    "target_link_uri": self.urls["launch"],
                    "label": self.client_name,
                    "placements": ["ContentArea", "assignment_selection", "link_selection"],
                }
            )
        return messages

    def get_logo_uri(self) -> str:
        return ""  # none (the spec: optional); left out below

    def lti_registration_data(self) -> dict:
        data = super().lti_registration_data()
        del data["logo_uri"]
        return data


def post_registration(endpoint: str, token: str | None, body: dict) -> dict:
    """POST the tool's registration to the platform; its answer's client_id and deployment_id (None when
    it names none). A RegistrationError once the POST was sent is `reached`."""
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    refused = N_("The LMS did not take the registration")
    try:
        answer = reach.request(
            endpoint, time.monotonic() + POST_TIMEOUT_S, "POST", json.dumps(body).encode(), headers
        )
        said = answer.read()
    except reach.OnHostsNetwork as exc:
        raise on_hosts_network(endpoint) from exc
    except reach.NotReached as exc:
        raise RegistrationError(
            502,
            refused,
            N_("The playground could not reach the LMS's registration endpoint (%(reason)s). Try again."),
            reason=str(exc),
        ) from exc
    except (OSError, http.client.HTTPException, ValueError) as exc:  # sent: no whole answer in time
        raise RegistrationError(
            502,
            refused,
            N_(
                "The playground sent the registration to the LMS but read no answer (%(reason)s). "
                "Nothing was registered here, and this registration URL is used up: make a new one "
                "with `%(command)s` and start again from the LMS."
            ),
            reached=True,
            reason=type(exc).__name__,
            command=MAKE_ANOTHER,
        ) from exc
    if not 200 <= answer.status < 300:
        raise RegistrationError(
            502,
            refused,
            N_(
                "The LMS answered the registration with an error (HTTP %(code)s). Nothing was registered "
                "here, and this registration URL is used up: make a new one with `%(command)s` and start "
                "again from the LMS."
            ),
            reached=True,
            code=answer.status,
            command=MAKE_ANOTHER,
        )
    try:
        registered = json.loads(said)
        client_id = registered["client_id"]
        configuration = registered.get(TOOL_CONFIGURATION) or {}
        deployment_id = configuration.get("deployment_id")  # None: the LMS makes it when it installs the tool
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RegistrationError(
            502,
            refused,
            N_(
                "The LMS's answer to the registration has no client id (%(reason)s). "
                "Nothing was registered here."
            ),
            reached=True,
            reason=type(exc).__name__,
        ) from exc
    if not text(client_id) or not (deployment_id is None or text(deployment_id)):
        raise RegistrationError(
            502,
            refused,
            N_("The LMS's answer names a client id or deployment id that is not text (%(reason)s)."),
            reached=True,
            reason=f"client_id: {type(client_id).__name__}, deployment_id: {type(deployment_id).__name__}",
        )
    return {"client_id": client_id, "deployment_id": deployment_id}
