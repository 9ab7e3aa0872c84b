"""The playground as an LTI 1.3 tool, on pylti1p3 (pylti1p3next): its registrations, keys and storage.

pylti1p3 checks the OIDC login and the launch (state, nonce, signature, registration, deployment,
message); this module gives it the registrations from the database, a launch-data storage there (so
nonces are good once, in every process), and cookies a browser keeps inside an LMS's iframe even
with third-party cookies blocked: `SameSite=None; Secure; Partitioned` (CHIPS).
"""

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from pathlib import Path

import jwt
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pylti1p3.contrib.flask import FlaskCookieService
from pylti1p3.deployment import Deployment
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from server.keys.private import keep_private_key
from server.lti.registered import takes_any_deployment
from server.lti.store import Store
from server.records.pseudonyms import pseudonym_of

HTTP_TIMEOUT_S = 10  # every request to a platform (tokens, scores), all made in the background
LOGIN_LIFETIME_S = 600  # a login's nonce is kept this long: a launch comes seconds after its login
STATE_PREFIX = "state-"
# A launch token's iss and aud: any instance sharing the key (LTI_KEY_FILE) accepts it, whatever its host.
LAUNCH_TOKEN_ISSUER = "backprop-playground:lti"
LAUNCH_TOKEN_AUDIENCE = "backprop-playground:lti-launch"


class TimeoutSession(requests.Session):
    """A requests session whose every request has a time limit (pylti1p3 sets none)."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return super().request(*args, **kwargs)


def load_or_create_rsa(path: Path) -> str:
    """The tool's RSA private key (PEM), made on first start (mode 0600), once across processes."""
    return keep_private_key(
        path, lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ).decode()


class ToolKeys:
    """The tool's key: signs its service requests to platforms (RS256) and the page's launch tokens."""

    def __init__(self, key_file: Path) -> None:
        self.private_pem = load_or_create_rsa(key_file)
        key = serialization.load_pem_private_key(self.private_pem.encode(), password=None)
        self.public_pem = (
            key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    def secret(self, purpose: str) -> bytes:
        """A secret of the tool's own for one purpose, derived from its private key."""
        return hashlib.sha256(f"{purpose}\n{self.private_pem}".encode()).digest()

    def seal(self, params: dict) -> str:
        """A login's state that carries its parameters, signed: nothing of the login is stored."""
        body = json.dumps(
            {"p": params, "t": int(time.time()), "r": secrets.token_urlsafe(12)}, separators=(",", ":")
        )
        data = b64url(body.encode())
        return f"{data}.{b64url(hmac.digest(self.secret('state'), data.encode(), 'sha256')[:16])}"

    def unseal(self, state: str) -> dict | None:
        """The login parameters a state this tool made carries (within LOGIN_LIFETIME_S), else None."""
        data, _, mac = state.removeprefix(STATE_PREFIX).partition(".")
        want = b64url(hmac.digest(self.secret("state"), data.encode(), "sha256")[:16])
        if not mac or not hmac.compare_digest(mac, want):
            return None
        try:
            body = json.loads(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
        except ValueError:
            return None
        if not isinstance(body, dict) or time.time() - body.get("t", 0) > LOGIN_LIFETIME_S:
            return None
        return body.get("p") if isinstance(body.get("p"), dict) else None

    def learner_id(self, issuer: str, course: str, sub: str) -> str:
        """A learner's pseudonym in one course of a platform (course: its context id, as the records name
        it; "" for a launch without one): it names nobody, and one learner's in two courses are two, so
        exports of two courses cannot be joined on it."""
        return pseudonym_of(self.secret("pseudonym"), issuer, course, sub)

    def storage_key(self, issuer: str, sub: str) -> str:
        """The key a launched learner's page keeps their code and progress under in their own browser: the
        same in each course of the platform (as it was before pseudonyms were per course, so what a
        browser kept is found again). Only the learner's page has it: never shown to a teacher, never
        exported."""
        return b64url(hmac.digest(self.secret("learner"), f"{issuer}\n{sub}".encode(), "sha256")[:12])

    def jwks(self) -> dict:
        """The public key as a JWKS, its kid the key's thumbprint (as pylti1p3 names it)."""
        return {"keys": [Registration.get_jwk(self.public_pem)]}

    def signed(self, payload: dict, audience: str, lifetime_s: int) -> str:
        """A token of the tool's for audience, signed with its key (RS256), valid for lifetime_s."""
        now = int(time.time())
        claims = {"iss": LAUNCH_TOKEN_ISSUER, "aud": audience, "iat": now, "exp": now + lifetime_s}
        return jwt.encode({**payload, **claims, "jti": uuid.uuid4().hex}, self.private_pem, "RS256")

    def checked(self, token: str, audience: str, required: list[str]) -> dict:
        """A token's claims, once its signature, expiry, issuer, audience and required claims hold (or
        PyJWTError)."""
        return jwt.decode(
            token,
            self.public_pem,
            algorithms=["RS256"],
            audience=audience,
            issuer=LAUNCH_TOKEN_ISSUER,
            options={"require": ["exp", *required]},
        )

    def launch_token(self, launch_id: str, lifetime_s: int) -> str:
        """A signed, short-lived token naming a launch, for the launched page to send with a pass."""
        return self.signed({"launch": launch_id}, LAUNCH_TOKEN_AUDIENCE, lifetime_s)

    def launch_of(self, token: str) -> str:
        """The launch a token names, once its signature, expiry, issuer and audience hold (or PyJWTError)."""
        return str(self.checked(token, LAUNCH_TOKEN_AUDIENCE, ["launch"])["launch"])


def b64url(data: bytes) -> str:
    """Base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def registration_of(row: dict, keys: ToolKeys) -> Registration:
    """A stored registration as pylti1p3 has it, with the tool's key."""
    registration = (
        Registration()
        .set_issuer(row["issuer"])
        .set_client_id(row["client_id"])
        .set_auth_login_url(row["auth_login_url"])
        .set_auth_token_url(row["auth_token_url"])
        .set_key_set_url(row["key_set_url"])
        .set_tool_private_key(keys.private_pem)
        .set_tool_public_key(keys.public_pem)
    )
    if row.get("auth_audience"):
        registration.set_auth_audience(row["auth_audience"])
    return registration


class ToolConf(ToolConfAbstract):
    """pylti1p3's tool configuration, read from the database: every issuer may have several clients."""

    def __init__(self, store: Store, keys: ToolKeys) -> None:
        super().__init__()
        self.store = store
        self.keys = keys

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss: str, *args, **kwargs) -> Registration | None:
        rows = self.store.registrations(iss)
        return registration_of(rows[0], self.keys) if len(rows) == 1 else None

    def find_registration_by_params(self, iss: str, client_id: str | None, *args, **kwargs):
        if client_id is None:
            return self.find_registration_by_issuer(iss)
        row = self.store.registration(iss, client_id)
        return registration_of(row, self.keys) if row else None

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        found = self.store.has_deployment(iss, None, deployment_id)
        return Deployment().set_deployment_id(deployment_id) if found else None

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args, **kwargs
    ) -> Deployment | None:
        found = self.store.has_deployment(iss, client_id, deployment_id) or (
            client_id is not None and takes_any_deployment(iss, client_id)  # registered without one
        )
        return Deployment().set_deployment_id(deployment_id) if found else None


class DatabaseStorage(LaunchDataStorage):
    """pylti1p3's launch data (nonces, valid states, launches) in the database, shared by every process.

    No session cookie of its own: the only cookie a launch needs is the OIDC state (partitioned).
    """

    _session_cookie_name = ""

    def __init__(self, store: Store, lifetime_s: float = LOGIN_LIFETIME_S) -> None:
        super().__init__()
        self.store = store
        self.lifetime_s = lifetime_s  # the longest any value is kept: a login's nonce

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str) -> object:
        return self.store.get(self._prepare_key(key))

    def set_value(self, key: str, value: object, exp: int | None = None) -> None:
        self.store.put(self._prepare_key(key), value, min(exp or self.lifetime_s, self.lifetime_s))

    def check_value(self, key: str) -> bool:
        return self.store.take(self._prepare_key(key))  # a nonce is good once


class PartitionedCookies(FlaskCookieService):
    """The OIDC state cookie, kept by a browser that blocks third-party cookies: Secure, Partitioned.

    Over plain HTTP (a developer's machine) it is an ordinary cookie, Lax, which works first-party only.
    Its name and value are digests of the state (which carries the login's parameters, so may be long):
    the cookie stays small, and the launch's state is checked against it all the same.
    """

    @staticmethod
    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def set_cookie(self, name: str, value: str, exp: int = 3600) -> None:
        super().set_cookie(self.digest(name), self.digest(value), exp)

    def get_cookie(self, name: str) -> str | None:
        """The state, when the browser kept the cookie its login set (pylti1p3 sets value = name)."""
        kept = super().get_cookie(self.digest(name))
        return name if kept is not None and hmac.compare_digest(kept, self.digest(name)) else None

    def update_response(self, response) -> None:
        secure = self._request.is_secure()
        for key, data in self._cookie_data_to_set.items():
            response.set_cookie(
                key,
                data["value"],
                max_age=data["exp"],
                secure=secure,
                httponly=True,
                path="/",
                samesite="None" if secure else "Lax",
                partitioned=secure,
            )
