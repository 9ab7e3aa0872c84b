"""pylti1p3's OIDC login and launch as the tool runs them, on its parts (server/lti/tool.py)."""

from pylti1p3.contrib.flask import FlaskMessageLaunch, FlaskOIDCLogin, FlaskRequest
from pylti1p3.exception import LtiException

from server.keys.keysets import KeySetError, key_sets
from server.lti.claims import check_texts
from server.lti.tool import DatabaseStorage, PartitionedCookies, ToolConf, ToolKeys


class Login(FlaskOIDCLogin):
    """pylti1p3's login, whose state carries the login's parameters, signed (nothing stored but a nonce)."""

    def __init__(self, flask_request: FlaskRequest, params: dict, keys: ToolKeys, **parts) -> None:
        super().__init__(flask_request, **parts)
        self.params = params
        self.keys = keys

    def _get_uuid(self) -> str:  # pylti1p3 makes the state "state-" + this
        return self.keys.seal(self.params)


class Launch(FlaskMessageLaunch):
    """pylti1p3's launch, with the LMS's key set from server/keys/keysets.py and no launch data stored.

    Its claims are checked to be text the database keeps as soon as they are decoded, before pylti1p3
    looks up the nonce, issuer or deployment there (ClaimError; the signature is checked after those).
    """

    def validate_jwt_format(self) -> "Launch":
        super().validate_jwt_format()
        check_texts(self._jwt["body"] if isinstance(self._jwt.get("body"), dict) else {})
        return self

    def fetch_public_key(self, key_set_url: str) -> dict:
        try:
            return key_sets().get(key_set_url, self._jwt.get("header", {}).get("kid"))
        except KeySetError as exc:
            raise LtiException(f"the LMS's keys could not be had: {exc}") from exc

    def save_launch_data(self) -> "Launch":
        return self  # the tool keeps its own record of a launch (store.add_launch), nothing of pylti1p3's


def tool_parts(tool: dict, flask_request: FlaskRequest) -> dict:
    """What pylti1p3's login and launch both take: the tool's config, its cookies, its launch storage."""
    return {
        "tool_config": ToolConf(tool["store"], tool["keys"]),
        "cookie_service": PartitionedCookies(flask_request),
        "launch_data_storage": DatabaseStorage(tool["store"]),
    }
