"""Keyless anatomy of a request_state token: what anyone holding it can see, and why it may be malformed.

Spec context: the SDK docs' "Protecting requestState". `AESGCMRequestStateCodec` writes
`"v1." + base64url(kid[4] + nonce[12] + ciphertext + tag[16])`, unpadded and canonical: `_b64u_decode` in
`mcp/server/request_state.py` (mcp 2.3.0) re-encodes what it decoded and rejects any other spelling, and
anything shorter than 32 bytes is `malformed`. This module mirrors those rules to *explain* a rejection
(which character, which length) without a key. The 4-byte key id is a public fingerprint, not key material.

Formats are told apart by their structure, not by a prefix alone: the TypeScript SDK's signed-only tokens
also begin with `v1.` (`protocol.structure` reads them, and JWS/JWE, plain JSON and opaque tokens). Lab codecs
(`mcp_lab.tokens.example_codecs`) register their own prefixes here, so a keyless look also recognises a sign-only
token (whose claims anyone can read) or an envelope-encrypted one. Every anatomy carries what anyone can read
in the token (`protocol.readable`), the same answer the audit's token probes use.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp_lab.protocol.readable import find_readable
from mcp_lab.protocol.structure import foreign_anatomy, signed_v1_anatomy
from mcp_lab.protocol.token_parts import Anatomy, Segment, b64u, b64u_decode_explained

__all__ = [
    "AES_PREFIX",
    "Anatomy",
    "Segment",
    "TokenFormats",
    "b64u",
    "b64u_decode_explained",
    "keyless_anatomy",
    "register_format",
    "token_formats",
]

AES_PREFIX = "v1."
AES_LABEL = "SDK AES-256-GCM v1"
KID_LEN = 4
NONCE_LEN = 12
TAG_LEN = 16
MIN_SEALED = KID_LEN + NONCE_LEN + TAG_LEN
ENCRYPTED = "encrypted (AES-256-GCM): past the prefix and the key id nothing is readable without the key"


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


class TokenFormats:
    """Token prefix -> its keyless reader: the formats the lab codecs registered (kept across resets)."""

    def __init__(self) -> None:
        self.readers: dict[str, FormatReader] = {}

    def reader_for(self, token: str) -> FormatReader | None:
        """The reader of the longest registered prefix `token` starts with."""
        reader: FormatReader | None = None
        best = ""
        for prefix, registered in self.readers.items():
            if len(prefix) > len(best) and token.startswith(prefix):
                best, reader = prefix, registered
        return reader


token_formats = TokenFormats()
"""The process's one table of registered token formats (composed by `mcp_lab.lab.Lab`)."""


def register_format(prefix: str, reader: FormatReader) -> None:
    """Teach the keyless reader another token format (the lab codecs register theirs)."""
    token_formats.readers[prefix] = reader


def keyless_anatomy(token: str) -> Anatomy:
    """Anatomy by structure: a registered lab prefix (longest first), the TypeScript SDK's signed `v1.` shape,
    the Python SDK's `v1.` envelope, then other servers' formats (JWS/JWE, plain JSON, readable, opaque)."""
    if not token:
        return Anatomy(format="empty", label="empty string", problem="empty: no 'v1.' prefix", reason="malformed")
    reader = token_formats.reader_for(token)
    anatomy = reader(token) if reader is not None else None
    if anatomy is None and token.startswith(AES_PREFIX):
        anatomy = signed_v1_anatomy(token)
        if anatomy is None and "." not in token[len(AES_PREFIX) :]:
            anatomy = aes_anatomy(token)
            anatomy.statement = ENCRYPTED if anatomy.problem is None else None
    if anatomy is None:
        return foreign_anatomy(token)
    if anatomy.readable is None and anatomy.confidential is False:
        anatomy.readable = find_readable(token)
    return anatomy
