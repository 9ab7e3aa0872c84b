"""The platform's half of LTI Dynamic Registration 1.0, for the tests, written from the spec
(https://www.imsglobal.org/spec/lti-dr/v1p0): beside the test platform's launch and grades
(tests/support/lti_platform.py), its OpenID configuration and a registration endpoint.

The administrator's side as Moodle and Canvas run it: the LMS opens the tool's registration URL (in its
window: here /add-tool, a page with an iframe) with `openid_configuration` and a `registration_token`
of its own added; the tool reads the configuration and POSTs its registration to the endpoint with that
token as a bearer token; the endpoint checks it as the spec says, answers the tool's configuration with
the client id and deployment id it gave, and from then on the platform launches the tool at the URLs
the tool registered, with those ids. The page records the messages the tool's page posts to it.
"""

import secrets
import threading
from pathlib import Path
from urllib.parse import urlencode

from flask import jsonify, render_template_string, request

from tests.support.lti import Rig, Served
from tests.support.lti_platform import Platform

PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]
REFUSAL_WORDS = "<b>ask-the-LMS-admin</b>"
INSTALLED_LATER = "installed-later"  # the deployment an LMS that names none at registration launches with
# The LMS's page, as an LMS shows it: the frame no wider than the window (a phone's, in the tests).
ADD_TOOL = """<!doctype html><html lang="en"><title>Add a tool</title><main><h1>Add a tool</h1>
<iframe id="tool" title="The tool's registration" src="{{ start }}" width="1000" height="700"
  style="max-width: 100%; box-sizing: border-box"></iframe>
<ol id="messages"></ol></main>
<script>window.addEventListener("message", (event) => {
  const item = document.createElement("li");
  item.textContent = JSON.stringify(event.data);
  document.getElementById("messages").append(item);
});</script></html>"""


def spec_problems(tool: dict) -> list[str]:
    """What a tool's registration lacks of what the spec requires (empty: it is one the platform takes)."""
    problems = []
    wanted = {
        "application_type": lambda v: v == "web",
        "response_types": lambda v: isinstance(v, list) and "id_token" in v,
        "grant_types": lambda v: isinstance(v, list) and {"implicit", "client_credentials"} <= set(v),
        "initiate_login_uri": lambda v: isinstance(v, str) and v.startswith("https://"),
        "redirect_uris": lambda v: isinstance(v, list) and v and all(u.startswith("https://") for u in v),
        "client_name": lambda v: isinstance(v, str) and v,
        "jwks_uri": lambda v: isinstance(v, str) and v.startswith("https://"),
        "token_endpoint_auth_method": lambda v: v == "private_key_jwt",
        "scope": lambda v: isinstance(v, str),
        TOOL_CONFIGURATION: lambda v: isinstance(v, dict),
    }
    problems += [f"{field}: {tool.get(field)!r}" for field, ok in wanted.items() if not ok(tool.get(field))]
    config = tool.get(TOOL_CONFIGURATION) or {}
    for field in ("domain", "target_link_uri", "claims", "messages"):
        if field not in config:
            problems.append(f"{TOOL_CONFIGURATION}.{field} missing")
    for message in config.get("messages", []):
        if message.get("type") not in ("LtiResourceLinkRequest", "LtiDeepLinkingRequest"):
            problems.append(f"a message of type {message.get('type')!r}")
    return problems


class RegisteringPlatform(Platform):
    """The test platform with Dynamic Registration: it launches the tool as the tool registered itself."""

    def __init__(self, ca_file: str) -> None:
        self.tokens: set[str] = set()  # registration tokens given out and not used
        self.registered: list[dict] = []  # every registration the tool posted and the platform took
        self.posts = 0  # registrations posted, taken or not
        self.client_id = "dyn-client-1"  # what the next registration is given
        self.deployment_id: str | None = "dyn-deployment-1"  # None: named at install, after (Canvas)
        self.changes: dict = {}  # changed fields of the configuration (None: left out)
        self.refusal: int | None = None  # a status the registration endpoint answers with
        self.answer: dict | None = None  # fields the registration's answer has changed (None: as it is)
        self.reads = 0  # reads of the configuration
        self.gate: threading.Barrier | None = None  # a configuration read waits here for the others
        super().__init__(tool_url="", ca_file=ca_file)

    @property
    def configuration_url(self) -> str:
        return self.url + ".well-known/openid-configuration"

    def configuration(self) -> dict:
        base = self.url
        configuration = {
            "issuer": base.rstrip("/"),
            "authorization_endpoint": base + "authorize",
            "token_endpoint": base + "token",
            "jwks_uri": base + "jwks",
            "registration_endpoint": base + "register-tool",
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", *SCOPES],
            "response_types_supported": ["id_token"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "claims_supported": ["sub", "iss", "name", "given_name", "family_name"],
            "subject_types_supported": ["public", "pairwise"],
            PLATFORM_CONFIGURATION: {
                "product_family_code": "lti1p3platform-tests",
                "version": "1",
                "messages_supported": [
                    {"type": "LtiResourceLinkRequest"},
                    {"type": "LtiDeepLinkingRequest", "placements": ["ContentArea"]},
                ],
            },
        }
        for field, value in self.changes.items():
            if value is None:
                configuration.pop(field, None)
            else:
                configuration[field] = value
        return configuration

    def opened(self, registration_url: str, configuration_url: str | None = None) -> str:
        """The tool's registration URL as the LMS opens it: with its configuration's URL and a new token."""
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        query = {
            "openid_configuration": configuration_url or self.configuration_url,
            "registration_token": token,
        }
        return registration_url + "&" + urlencode(query)

    def registration(self):
        registration = super().registration()
        if not self.registered:
            return registration
        tool = self.registered[-1]
        config = tool[TOOL_CONFIGURATION]
        deep_link = next(
            (m["target_link_uri"] for m in config["messages"] if m["type"] == "LtiDeepLinkingRequest"),
            config["target_link_uri"],
        )
        return (
            registration.set_client_id(tool["client_id"])
            .set_deployment_id(config.get("deployment_id", INSTALLED_LATER))
            .set_launch_url(config["target_link_uri"])
            .set_deeplink_launch_url(deep_link)
            .set_oidc_login_url(tool["initiate_login_uri"])
            .set_tool_key_set_url(tool["jwks_uri"])
        )

    def make_app(self):
        app = super().make_app()
        platform = self

        @app.get("/.well-known/openid-configuration")
        def openid_configuration():
            platform.reads += 1
            if platform.gate is not None:  # every LMS's read under way at once (the race to register)
                platform.gate.wait()
            return jsonify(platform.configuration())

        @app.post("/register-tool")
        def register_tool():
            platform.posts += 1
            token = request.headers.get("Authorization", "").removeprefix("Bearer ")
            if token not in platform.tokens:
                return jsonify(error="invalid_token"), 401
            if platform.refusal is not None:
                said = f"refused {REFUSAL_WORDS}"  # words of the LMS's own that the tool's page must not show
                return jsonify(error="invalid_client_metadata", error_description=said), platform.refusal
            tool = request.get_json(silent=True)
            if not isinstance(tool, dict) or (problems := spec_problems(tool)):
                return jsonify(error="invalid_client_metadata", error_description=str(problems)), 400
            platform.tokens.discard(token)  # a registration token is good once
            answer = {**tool, "client_id": platform.client_id}
            answer[TOOL_CONFIGURATION] = dict(tool[TOOL_CONFIGURATION])
            if platform.deployment_id is not None:
                answer[TOOL_CONFIGURATION]["deployment_id"] = platform.deployment_id
            if platform.answer is not None:
                return jsonify({**answer, **platform.answer})
            platform.registered.append(answer)
            return jsonify(answer)

        @app.get("/add-tool")
        def add_tool():
            return render_template_string(ADD_TOOL, start=platform.opened(request.args["url"]))

        return app


class RegisteringRig(Rig):
    """The tests' rig (the CA, a tool to start) with a platform that registers the tool by itself."""

    def __init__(self, folder: Path, database_url: str | None = None) -> None:
        super().__init__(folder, database_url)
        self.platform_server.stop()
        self.platform = self.another_platform()
        self.platform_server = Served(self.platform.app)
        self.platform.url = f"http://127.0.0.1:{self.platform_server.port}/"

    def tool_config(self, **extra) -> dict:
        """The tool's settings: its LMS is on loopback, where Dynamic Registration goes only when allowed."""
        return super().tool_config(**{"LTI_PRIVATE_ADDRESSES": True, **extra})

    def another_platform(self) -> RegisteringPlatform:
        return RegisteringPlatform(ca_file=self.ca_file)

    def registration_url(self, app) -> str:
        """A registration URL the administrator's command prints (its last word on its line)."""
        printed = app.test_cli_runner().invoke(
            args=["lti", "registration-url", "--tool-url", self.platform.tool_url]
        )
        assert printed.exit_code == 0, printed.output
        return next(w for w in printed.output.split() if "/lti/register?token=" in w)
