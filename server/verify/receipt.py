"""Signed receipts: a JWT (EdDSA, Ed25519, PyJWT) per verification, its claims, public keys as a JWKS.

The private key is made on first start into the instance folder (or read from SIGNING_KEY_FILE) and
never leaves the server process: not served, not in the export, not in the sandbox. Key rotation:
put the old key (or only its public half) in the retired folder and remove the current file; the new
key signs from the next start, and the old kid stays in the JWKS, so receipts it signed keep verifying
until that file is removed.
"""

import hashlib
import json
import time
import uuid
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from server.exercises.registry import LEGACY
from server.keys.private import b64url, keep_private_key
from server.sandbox.graded import seed_version

ALGORITHM = "EdDSA"

# A receipt's claims, each with what it says: docs/verification.md lists exactly these (a test holds
# it to them), and claims() writes no other.
CLAIMS = {
    "iss": "the page's URL",
    "iat": "when it was signed (seconds since 1970)",
    "jti": "unique to this receipt",
    "exercise": "the exercise's id (one of the course's, `ops` to `train`, or a teacher's own): the one"
    " verified",
    "version": "a hash of the exercise's archive (the grader, its engine) and cases: its exact version",
    "rule": f"the verdict's rule: `seed` or `strict` for `{LEGACY}`; another exercise's own (`all`)",
    "passed": "the verdict",
    "expressions": 'each counted expression\'s verdict, `[{"name", "passed"}]`',
    "source_sha256": "the SHA-256 of the source, as UTF-8",
    "sub": "the learner, when a course's learner token or an LTI launch named them (below)",
    "lms": "the LTI platform's issuer, when the pass came from a launch: `sub` is that platform's user",
}


def claims(
    issuer: str,
    report: dict,
    source: str,
    sub: str | None = None,
    lms: str | None = None,
    exercise: str = LEGACY,
    version: str | None = None,
) -> dict:
    """The claims of a receipt for a verification's report of source in an exercise, at its version
    (None: the seed's, under the report's rule); CLAIMS says what each means."""
    said = {
        "iss": issuer,
        "iat": int(time.time()),
        "jti": uuid.uuid4().hex,
        "exercise": exercise,
        "version": version or seed_version(report["rule"]),
        "rule": report["rule"],
        "passed": report["passed"],
        "expressions": [{"name": e["name"], "passed": e["passed"]} for e in report["expressions"]],
        "source_sha256": hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(),
    }
    if sub is not None:
        said["sub"] = sub
    if lms is not None:
        said["lms"] = lms
    return said


def public_jwk(key: Ed25519PublicKey) -> dict:
    """The key as a JWK, its kid the RFC 7638 thumbprint (so the same key always has the same kid)."""
    x = b64url(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
    members = {"crv": "Ed25519", "kty": "OKP", "x": x}  # the required members, in order, no spaces
    kid = b64url(hashlib.sha256(json.dumps(members, separators=(",", ":")).encode()).digest())
    return {**members, "kid": kid, "alg": ALGORITHM, "use": "sig"}


def load_or_create(path: Path) -> Ed25519PrivateKey:
    """Read the private key; make one first if there is none (once, even with several processes)."""
    key = serialization.load_pem_private_key(
        keep_private_key(path, Ed25519PrivateKey.generate), password=None
    )
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    """Read a retired key: a public key, or a private one whose public half is published."""
    data = path.read_bytes()
    if b"PRIVATE KEY" in data:
        key = serialization.load_pem_private_key(data, password=None).public_key()
    else:
        key = serialization.load_pem_public_key(data)
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError(f"{path} is not an Ed25519 key")
    return key


class Signer:
    """Sign receipts with the current key; publish it and the retired ones."""

    def __init__(self, key_file: Path, retired: Path) -> None:
        self.key = load_or_create(key_file)
        self.jwk = public_jwk(self.key.public_key())
        old = [public_jwk(load_public(p)) for p in sorted(retired.glob("*.pem"))] if retired.is_dir() else []
        self.keys = [self.jwk, *[k for k in old if k["kid"] != self.jwk["kid"]]]

    @property
    def kid(self) -> str:
        """The id of the key that signs."""
        return self.jwk["kid"]

    def sign(self, claims: dict) -> str:
        """A compact JWT of claims, signed with the current key, its kid in the header."""
        return jwt.encode(claims, self.key, algorithm=ALGORITHM, headers={"kid": self.kid})

    def jwks(self) -> dict:
        """The public keys, current first, as a JWK Set."""
        return {"keys": self.keys}
