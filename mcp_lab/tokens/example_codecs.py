"""Two example request_state codecs for the "bring your own codec" lessons, and a way to install one.

Spec context: the SDK docs' "Using your own crypto". `RequestStateSecurity(codec=...)` takes anything with
`seal(bytes) -> str` and `unseal(str) -> bytes` raising `InvalidRequestState` for tokens it did not mint;
the SDK still stamps and re-checks every claim (expiry, request binding, audience, principal), so a codec
only owes integrity and, ideally, confidentiality. The two shapes here show both ends of that:

- `HMACSignOnlyCodec`: integrity only. The claims travel base64url-encoded beside an HMAC tag, so anyone
  holding the token can read them -- exactly what the docs warn a sign-only codec gives away.
- `EnvelopeCodec`: the docs' KMS envelope-encryption shape -- one data key unwrapped at start-up, AES-GCM
  per token locally, its own `kms1.` prefix bound under the tag, canonical lowercase hex.

Both print and pickle without their keys (a 4-byte fingerprint names them), and both teach the keyless
inspector their format, so `inspect_token` can say what each can and cannot open.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from functools import partial
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from mcp.server.mcpserver import InvalidRequestState, RequestStateBoundary, RequestStateSecurity

from mcp_lab.errors import LabError
from mcp_lab.given import shown
from mcp_lab.protocol.anatomy import (
    TAG_LEN,
    Anatomy,
    Segment,
    b64u,
    b64u_decode_explained,
    register_format,
)
from mcp_lab.protocol.keys import checked_ttl
from mcp_lab.tokens.codec import is_codec

if TYPE_CHECKING:
    from mcp_lab.servers.lab_server import LabServer

__all__ = ["EnvelopeCodec", "HMACSignOnlyCodec", "use_codec"]

HMAC_PREFIX = "hs1."
ENVELOPE_PREFIX = "kms1."
_NONCE = 12


def _secret(key: bytes | bytearray | str, what: str) -> bytes:
    if not isinstance(key, bytes | bytearray | str):  # never bytes(n): n zero bytes would make a key
        raise LabError(f"{what} needs one key (bytes of at least 32), not {type(key).__name__}")
    material = key.encode() if isinstance(key, str) else bytes(key)
    if len(material) < 32:
        raise LabError(f"{what} needs a key of at least 32 bytes, not {len(material)}")
    if not any(material):
        raise LabError(f"{what}: the key is all zero bytes, which anyone can guess; use secrets.token_bytes(32)")
    return material


def _prefix(prefix: object, what: str) -> str:
    """A token prefix such as `hs1.`: short printable text, so a token stays one recognisable word."""
    if not isinstance(prefix, str) or not prefix or len(prefix) > 16 or not prefix.isprintable() or " " in prefix:
        raise LabError(f"{what}: prefix= is a short word such as 'hs1.' (1 to 16 printable characters), not {shown(prefix)}")
    return prefix


def _fingerprint(label: bytes, key: bytes) -> str:
    return hashlib.sha256(label + key).digest()[:4].hex()


class _KeyedCodec:
    """Shared hygiene: no key in repr, str, pickle or copy."""

    label = "codec"
    fingerprint = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key {self.fingerprint})"

    __str__ = __repr__

    def __getstate__(self) -> None:
        raise TypeError(f"{type(self).__name__} holds a secret key and cannot be pickled or saved")


class HMACSignOnlyCodec(_KeyedCodec):
    """`hs1.` + base64url(payload) + `.` + base64url(HMAC-SHA256(key, prefix + payload)). Sign-only."""

    label = "lab HMAC-SHA256 sign-only"
    confidential = False
    can_open = (
        "sign-only: anyone holding the token can read its claims; only the key holder can tell whether "
        "they were altered (integrity without confidentiality)"
    )

    def __init__(self, key: bytes | bytearray | str, *, prefix: str = HMAC_PREFIX) -> None:
        self._key = _secret(key, "HMACSignOnlyCodec")
        self.prefix = prefix = _prefix(prefix, "HMACSignOnlyCodec")
        self.fingerprint = _fingerprint(b"mcp-lab/hs1:", self._key)
        register_format(prefix, partial(sign_only_anatomy, prefix=prefix))

    def _tag(self, payload: bytes) -> bytes:
        return hmac.new(self._key, self.prefix.encode() + payload, hashlib.sha256).digest()

    def seal(self, payload: bytes) -> str:
        return f"{self.prefix}{b64u(payload)}.{b64u(self._tag(payload))}"

    def unseal(self, token: str) -> bytes:
        if not token.startswith(self.prefix):
            raise InvalidRequestState("malformed")
        body, dot, signature = token[len(self.prefix) :].rpartition(".")
        payload, _ = b64u_decode_explained(body)
        tag, _ = b64u_decode_explained(signature)
        if not dot or payload is None or tag is None or len(tag) != 32:
            raise InvalidRequestState("malformed")
        if not hmac.compare_digest(tag, self._tag(payload)):
            raise InvalidRequestState("seal")
        return payload

    def anatomy(self, token: str) -> Anatomy:
        return sign_only_anatomy(token, self.prefix)


def sign_only_anatomy(token: str, prefix: str = HMAC_PREFIX) -> Anatomy:
    """What anyone sees in a sign-only token: everything but whether it is authentic."""
    anatomy = Anatomy(format="hmac-sign-only", label=HMACSignOnlyCodec.label, prefix=prefix, confidential=False)
    n = len(prefix)
    anatomy.segments.append(Segment("prefix", 0, n, None, "format version, covered by the HMAC"))
    body, dot, signature = token[n:].rpartition(".")
    if not dot:
        anatomy.segments.append(Segment("body", n, len(token), None, "no '.' before the signature"))
        anatomy.problem, anatomy.reason = "no '.' separating the payload from its signature", "malformed"
        return anatomy
    payload, problem = b64u_decode_explained(body, n)
    tag, tag_problem = b64u_decode_explained(signature, n + len(body) + 1)
    dot_at = n + len(body)
    anatomy.segments += [
        Segment("payload", n, dot_at, None if payload is None else len(payload), "the claims, readable by anyone"),
        Segment("dot", dot_at, dot_at + 1),
        Segment("signature", dot_at + 1, len(token), None if tag is None else len(tag), "HMAC-SHA256 tag"),
    ]
    anatomy.reason = "malformed"
    if payload is None:
        anatomy.problem = f"payload: {problem}"
    elif tag is None:
        anatomy.problem = f"signature: {tag_problem}"
    elif len(tag) != 32:
        anatomy.problem = f"signature is {len(tag)} bytes, HMAC-SHA256 gives 32"
    else:
        anatomy.readable_payload = payload
        anatomy.sealed_bytes = len(payload)
        anatomy.reason = None
    return anatomy


class EnvelopeCodec(_KeyedCodec):
    """The docs' envelope-encryption shape: `kms1.` + hex(nonce + AES-GCM(data key, payload))."""

    label = "lab envelope AES-GCM (KMS data key)"
    confidential = True
    can_open = "encrypted under the unwrapped data key: without it only the prefix, the nonce and the length show"

    def __init__(self, data_key: bytes | bytearray | str, *, prefix: str = ENVELOPE_PREFIX) -> None:
        key = _secret(data_key, "EnvelopeCodec")
        prefix = _prefix(prefix, "EnvelopeCodec")
        if len(key) != 32:
            raise LabError(f"EnvelopeCodec needs a 32-byte data key (AES-256), not {len(key)} bytes")
        self._aesgcm = AESGCM(key)
        self.prefix = prefix
        self.fingerprint = _fingerprint(b"mcp-lab/kms1:", key)
        register_format(prefix, partial(envelope_anatomy, prefix=prefix))

    @classmethod
    def unwrap_data_key(cls) -> bytes:
        """Stand-in for the one KMS decrypt at process start: a fresh random data key."""
        return os.urandom(32)

    def seal(self, payload: bytes) -> str:
        nonce = os.urandom(_NONCE)
        return self.prefix + (nonce + self._aesgcm.encrypt(nonce, payload, self.prefix.encode())).hex()

    def unseal(self, token: str) -> bytes:
        if not token.startswith(self.prefix):
            raise InvalidRequestState("unknown token format")
        body = token[len(self.prefix) :]
        try:
            raw = bytes.fromhex(body)
            if raw.hex() != body:  # only the exact string seal() wrote verifies
                raise ValueError("non-canonical hex")
            return self._aesgcm.decrypt(raw[:_NONCE], raw[_NONCE:], self.prefix.encode())
        except (ValueError, InvalidTag):
            raise InvalidRequestState("token failed verification") from None

    def anatomy(self, token: str) -> Anatomy:
        return envelope_anatomy(token, self.prefix)


def envelope_anatomy(token: str, prefix: str = ENVELOPE_PREFIX) -> Anatomy:
    anatomy = Anatomy(format="envelope", label=EnvelopeCodec.label, prefix=prefix, confidential=True)
    n = len(prefix)
    anatomy.segments.append(Segment("prefix", 0, n, None, "format version, bound into the GCM associated data"))
    body = token[n:]
    try:
        raw = bytes.fromhex(body)
        canonical = raw.hex() == body
    except ValueError:
        raw, canonical = b"", False
    if not canonical:
        anatomy.segments.append(Segment("body", n, len(token), None, "not canonical hex"))
        anatomy.problem = "body is not canonical lowercase hex (the codec accepts only what seal() wrote)"
        anatomy.reason = "token failed verification"
        return anatomy
    if len(raw) < _NONCE + TAG_LEN:
        anatomy.segments.append(Segment("body", n, len(token), len(raw), "too short"))
        anatomy.problem = f"too short: {len(raw)} bytes, at least {_NONCE + TAG_LEN} (nonce + tag) needed"
        anatomy.reason = "token failed verification"
        return anatomy
    anatomy.nonce = raw[:_NONCE].hex()
    anatomy.sealed_bytes = len(raw) - _NONCE
    anatomy.segments += [
        Segment("nonce", n, n + 2 * _NONCE, _NONCE, "random per token"),
        Segment("sealed", n + 2 * _NONCE, len(token), anatomy.sealed_bytes, "ciphertext + 16-byte tag"),
    ]
    return anatomy


register_format(HMAC_PREFIX, sign_only_anatomy)
register_format(ENVELOPE_PREFIX, envelope_anatomy)


def use_codec(entry: str | LabServer, codec: object, *, ttl: float | None = None, **policy: Any) -> None:
    """Make a sandbox server seal with `codec` instead of its key ring (its ring is dropped).

    `policy` goes to `RequestStateSecurity` (`bind_principal=`, `audience=`), as for `install_ring`.
    """
    from mcp_lab.servers.lab_server import LabServer
    from mcp_lab.servers.sandbox import sandbox

    if isinstance(entry, str):
        entry = sandbox.lab_server(entry)
    if not isinstance(entry, LabServer):
        raise LabError(f"use_codec takes a server the lab started (its name or entry), not {type(entry).__name__}")
    if not is_codec(codec):
        raise LabError("a request-state codec needs seal(bytes) -> str and unseal(str) -> bytes")
    if ttl is not None:
        entry.ttl = checked_ttl(ttl)
    if policy:
        entry.policy = dict(policy)
    policy = dict(getattr(entry, "policy", {}))
    security = RequestStateSecurity(codec=codec, ttl=entry.ttl, **policy)
    boundary = RequestStateBoundary(security, default_audience=entry.name)
    chain = entry.lowlevel.middleware
    entry.ring = None
    for i, middleware in enumerate(chain):
        if isinstance(middleware, RequestStateBoundary):
            chain[i] = boundary
            return
    chain.append(boundary)
