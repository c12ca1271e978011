"""The parts of a keyless token anatomy: coloured segments, what they decode to, the strict base64url rule.

Spec context: the SDK docs' "Protecting requestState" (mcp 2.3.0): the Python SDK's codec writes unpadded,
canonical base64url and rejects any other spelling. Kept apart from the readers (`protocol.anatomy` for the
Python SDK's envelope and the dispatch, `protocol.structure` for other servers' formats) so both build the
same record.
"""

from __future__ import annotations

import base64
import binascii
import string
from dataclasses import dataclass, field

from mcp_lab.protocol.readable import Readable

__all__ = ["Anatomy", "Segment", "b64u", "b64u_decode_explained"]

_B64U_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


@dataclass(slots=True)
class Segment:
    """One coloured part of the token string: characters [start, end)."""

    part: str
    """prefix | kid | nonce | sealed | payload | dot | signature | body"""
    start: int
    end: int
    size: int | None = None
    """Bytes this part decodes to, when known."""
    note: str = ""


@dataclass(slots=True)
class Anatomy:
    """What the token shows without any key."""

    format: str
    """aes-gcm-v1 | signed-v1 | jws | jwe | json | hmac-sign-only | envelope | opaque | plaintext | empty"""
    label: str
    prefix: str | None = None
    segments: list[Segment] = field(default_factory=list)
    problem: str | None = None
    """Why the format's codec would refuse it (None when well-formed)."""
    reason: str | None = None
    """The reason that codec logs for the problem (the SDK codec: `malformed`)."""
    key_id: str | None = None
    nonce: str | None = None
    sealed_bytes: int | None = None
    """Ciphertext + tag (or signed payload) length in bytes."""
    confidential: bool | None = None
    """False for sign-only formats: the claims are readable by anyone holding the token."""
    readable_payload: bytes | None = field(default=None, repr=False)
    """The unverified payload of a sign-only token (never set for encrypted formats)."""
    readable: Readable | None = field(default=None, repr=False)
    """What anyone holding the token reads in it, and where (None: nothing readable)."""
    claims: object = field(default=None, repr=False)
    """The decoded JSON payload of a readable foreign format (signed-v1, JWS, plain JSON)."""
    carries: list[str] = field(default_factory=list)
    """What a readable payload carries, plainly: `expiry: exp ...`, `binding: b ...`, `the state itself: p`."""
    statement: str | None = None
    """One plain sentence on confidentiality: who can read this token."""
    sdk_refusal: str | None = None
    """Why the Python SDK's codec would refuse a token in another server's format (it is not 'malformed'
    for that server, which decides)."""


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64u_decode_explained(text: str, offset: int = 0) -> tuple[bytes | None, str | None]:
    """The SDK's strict decode (canonical unpadded base64url only), with a reason when it refuses."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None, _why_not_b64u(text, offset)
    if b64u(raw) != text:
        return None, _why_not_b64u(text, offset)
    return raw, None


def _why_not_b64u(text: str, offset: int) -> str:
    for i, ch in enumerate(text):
        if ch in _B64U_ALPHABET:
            continue
        where = f"at position {offset + i}"
        if ch == "=":
            return f"padding '=' {where}: the SDK writes unpadded base64url and accepts only that spelling"
        if ch in "+/":
            return f"{ch!r} {where} is standard base64; request_state uses base64url ('-' and '_')"
        return f"character {ch!r} {where} is not base64url"
    if len(text) % 4 == 1:
        return f"{len(text)} base64url characters cannot encode whole bytes (length ≡ 1 mod 4)"
    return "non-canonical base64url: the last character sets bits a canonical encoding leaves zero"
