"""Keyless anatomy of a request_state token: what anyone holding it can see, and why it may be malformed.

Spec context: the SDK docs' "Protecting requestState". `AESGCMRequestStateCodec` writes
`"v1." + base64url(kid[4] + nonce[12] + ciphertext + tag[16])`, unpadded and canonical: `_b64u_decode` in
`mcp/server/request_state.py` (mcp 2.3.0) re-encodes what it decoded and rejects any other spelling, and
anything shorter than 32 bytes is `malformed`. This module mirrors those rules to *explain* a rejection
(which character, which length) without a key. The 4-byte key id is a public fingerprint, not key material.

Lab codecs (`mcp_lab.tokens.lab_codecs`) register their own prefixes here, so a keyless look also recognises a
sign-only token (whose claims anyone can read) or an envelope-encrypted one.
"""

from __future__ import annotations

import base64
import binascii
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcp_lab.lab import lab

__all__ = [
    "AES_PREFIX",
    "Anatomy",
    "Segment",
    "b64u",
    "b64u_decode_explained",
    "keyless_anatomy",
    "register_format",
]

AES_PREFIX = "v1."
AES_LABEL = "SDK AES-256-GCM v1"
KID_LEN = 4
NONCE_LEN = 12
TAG_LEN = 16
MIN_SEALED = KID_LEN + NONCE_LEN + TAG_LEN
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
    """aes-gcm-v1 | hmac-sign-only | envelope | plaintext | empty"""
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


def _char(byte_offset: int) -> int:
    """Character index where a part ending at `byte_offset` ends (a straddling character goes to that part)."""
    return -(-byte_offset * 8 // 6)


def aes_anatomy(token: str) -> Anatomy:
    """`v1.` + base64url(kid | nonce | ciphertext+tag), as `AESGCMRequestStateCodec.seal` writes it."""
    anatomy = Anatomy(format="aes-gcm-v1", label=AES_LABEL, prefix=AES_PREFIX, confidential=True)
    n = len(AES_PREFIX)
    anatomy.segments.append(Segment("prefix", 0, n, None, "format version, bound into the GCM associated data"))
    body = token[n:]
    raw, problem = b64u_decode_explained(body, n)
    if raw is None:
        anatomy.segments.append(Segment("body", n, len(token), None, "not decodable"))
        anatomy.problem, anatomy.reason = problem, "malformed"
        return anatomy
    if len(raw) < MIN_SEALED:
        anatomy.segments.append(Segment("body", n, len(token), len(raw), "too short"))
        anatomy.problem = (
            f"too short: {len(raw)} bytes after 'v1.', at least {MIN_SEALED} needed "
            f"({KID_LEN} key id + {NONCE_LEN} nonce + {TAG_LEN} tag)"
        )
        anatomy.reason = "malformed"
        return anatomy
    kid_end, nonce_end = n + _char(KID_LEN), n + _char(KID_LEN + NONCE_LEN)
    anatomy.key_id = raw[:KID_LEN].hex()
    anatomy.nonce = raw[KID_LEN : KID_LEN + NONCE_LEN].hex()
    anatomy.sealed_bytes = len(raw) - KID_LEN - NONCE_LEN
    anatomy.segments += [
        Segment("kid", n, kid_end, KID_LEN, "public fingerprint of the sealing key"),
        Segment("nonce", kid_end, nonce_end, NONCE_LEN, "random per token"),
        Segment(
            "sealed",
            nonce_end,
            len(token),
            anatomy.sealed_bytes,
            f"ciphertext ({anatomy.sealed_bytes - TAG_LEN} bytes of claims) + {TAG_LEN}-byte tag",
        ),
    ]
    return anatomy


FormatReader = Callable[[str], Anatomy]


def register_format(prefix: str, reader: FormatReader) -> None:
    """Teach the keyless reader another token format (the lab codecs register theirs); kept in the Lab."""
    lab.token_formats[prefix] = reader


def keyless_anatomy(token: str) -> Anatomy:
    """Anatomy by the longest prefix that fits (the SDK's `v1.` or a registered one); anything unrecognised is
    explained as what an SDK server would make of it."""
    reader: Callable[[str], Any] | None = aes_anatomy if token.startswith(AES_PREFIX) else None
    best = AES_PREFIX if reader is not None else ""
    for prefix, registered in lab.token_formats.items():
        if len(prefix) > len(best) and token.startswith(prefix):
            best, reader = prefix, registered
    if reader is not None:
        anatomy: Anatomy = reader(token)
        return anatomy
    if not token:
        return Anatomy(format="empty", label="empty string", problem="empty: no 'v1.' prefix", reason="malformed")
    return Anatomy(
        format="plaintext",
        label="no known format (plaintext?)",
        segments=[Segment("body", 0, len(token), len(token.encode("utf-8", "surrogatepass")), "not sealed")],
        problem="no 'v1.' prefix: not a token the SDK's codec sealed",
        reason="malformed",
        confidential=False,
    )
