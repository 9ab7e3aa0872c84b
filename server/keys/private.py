"""The instance's private keys, each kept in a file (made once, whichever process comes first), and
base64url as JOSE writes keys and ids: what receipts (server/verify), LTI (server/lti) and the records'
pseudonyms (server/records) share."""

import base64
import os
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes


def b64url(data: bytes) -> str:
    """Base64url without padding, as JOSE writes it."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def keep_private_key(path: Path, generate: Callable[[], PrivateKeyTypes]) -> bytes:
    """Read a private key's PEM; make one first (mode 0600) if there is none, once across processes."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(pem)
        try:
            os.link(partial, path)  # fails if another process made one first: theirs is used
        except FileExistsError:
            pass
        finally:
            partial.unlink()
    return path.read_bytes()
