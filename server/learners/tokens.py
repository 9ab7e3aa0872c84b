"""Who the learner is, where a course says so: a token the course signs, put in the iframe's URL.

The course page embeds the playground as `<prefix>/?learner=<JWT>`, a JWT it signs with a secret it
shares with the playground (HS256, LEARNER_TOKEN_SECRET) or with its own keys (LEARNER_TOKEN_JWKS_URL).
The page sends it with a pass to /verify; when it checks out, the receipt carries its `sub`.
"""

from collections.abc import Mapping

import jwt

from server.keys.keysets import KeySetError, KeySets

ASYMMETRIC = ["RS256", "ES256", "EdDSA"]
MIN_SECRET = 32  # bytes: RFC 7518 asks an HS256 key to be at least as long as the hash
LEEWAY_S = 30  # clocks of the course's server and ours may differ a little
MAX_SUB = 255


class LearnerTokenError(Exception):
    """The learner token was refused (its message says why)."""


class Learners:
    """Check learner tokens against the course's secret or keys; None when none is configured."""

    def __init__(
        self,
        secret: str | None,
        jwks_url: str | None,
        issuer: str | None,
        audience: str | None,
        key_sets: KeySets | None = None,
    ):
        if secret is not None and len(secret.encode()) < MIN_SECRET:
            raise ValueError(f"PLAYGROUND_LEARNER_TOKEN_SECRET must be at least {MIN_SECRET} bytes")
        self.secret = secret
        self.jwks_url = jwks_url
        # fetched rarely, briefly, one at a time (server/keys/keysets.py)
        self.key_sets = key_sets or KeySets()
        self.issuer = issuer
        self.audience = audience

    @classmethod
    def from_config(cls, config: Mapping, key_sets: KeySets | None = None) -> "Learners | None":
        """The checker the settings ask for, or None (no learner tokens: receipts have no sub)."""
        secret, url = config["LEARNER_TOKEN_SECRET"], config["LEARNER_TOKEN_JWKS_URL"]
        if secret is None and url is None:
            return None
        if secret is not None and url is not None:
            raise ValueError(
                "Set PLAYGROUND_LEARNER_TOKEN_SECRET or PLAYGROUND_LEARNER_TOKEN_JWKS_URL, not both"
            )
        return cls(
            None if secret is None else str(secret),
            url,
            config["LEARNER_TOKEN_ISSUER"],
            config["LEARNER_TOKEN_AUDIENCE"],
            key_sets,
        )

    def subject(self, token: str) -> str:
        """The learner the token names (its sub), once its signature, expiry, issuer and audience hold."""
        return self.claims(token)["sub"]

    def claims(self, token: str) -> dict:
        """The token's claims (its sub checked: a text), once its signature, expiry, issuer and audience
        hold: records read its iss and course too (server/records/)."""
        try:
            if self.jwks_url is not None:
                key, algorithms = self.course_key(token), ASYMMETRIC
            else:
                key, algorithms = self.secret, ["HS256"]
            claims = jwt.decode(
                token,
                key,
                algorithms=algorithms,
                issuer=self.issuer,
                audience=self.audience,
                leeway=LEEWAY_S,
                options={"require": ["sub", "exp"], "verify_aud": self.audience is not None},
            )
        except jwt.PyJWTError as exc:
            raise LearnerTokenError(str(exc) or type(exc).__name__) from exc
        except KeySetError as exc:
            raise LearnerTokenError(f"the course's keys could not be had: {exc}") from exc
        sub = claims["sub"]
        if not isinstance(sub, str) or not sub or len(sub) > MAX_SUB:
            raise LearnerTokenError(f"its sub must be a text of 1 to {MAX_SUB} characters")
        return claims

    def course_key(self, token: str):
        """The course's public key the token's kid names, from its key set (fetched rarely)."""
        kid = jwt.get_unverified_header(token).get("kid")
        for jwk in self.key_sets.get(self.jwks_url, kid)["keys"]:
            if kid is not None and jwk.get("kid") == kid:
                return jwt.PyJWK(jwk).key
        raise jwt.InvalidTokenError(f"the course's key set has no key {kid!r}")
