"""Key rings the lab creates for the servers it starts, shown only by key id.

Spec context: the SDK docs' "Protecting requestState". `MCPServer` seals `request_state` with AES-256-GCM
under `RequestStateSecurity(keys=[...])`; `keys[0]` seals and every key unseals. When the user gives no
keys the SDK would use `RequestStateSecurity.ephemeral()`, a random key nobody else can read; the lab makes
that random key itself instead, so the server's owner (the notebook) can inspect what was sealed.

Key material must never reach an output, repr, log or saved notebook: a `KeyRing` prints key ids -- the
same 4-byte fingerprint every token carries after `v1.` -- and nothing else.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from mcp.server.mcpserver import AESGCMRequestStateCodec, RequestStateSecurity

from mcp_lab.errors import LabError

__all__ = ["KeyRing", "codec_key_ids", "key_id"]

_KDF_INFO = b"mcp/request-state/v1/aes-256-gcm"
_KID_INFO = b"mcp/request-state/v1/kid:"


def _material(key: bytes | bytearray | str) -> bytes:
    return key.encode() if isinstance(key, str) else bytes(key)


def key_id(key: bytes | bytearray | str) -> str:
    """The 4-byte key id (hex) the SDK's AES-GCM codec writes into every token sealed with `key`."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_KDF_INFO).derive(_material(key))
    return hashlib.sha256(_KID_INFO + derived).digest()[:4].hex()


class KeyRing:
    """An ordered ring of request-state keys: slot 0 seals, every slot unseals."""

    __slots__ = ("_keys", "generated", "ids")

    def __init__(self, keys: Sequence[bytes | bytearray | str], *, generated: bool = False) -> None:
        material = [_material(k) for k in keys]
        if not material:
            raise LabError("a key ring needs at least one key")
        for i, k in enumerate(material):
            if len(k) < 32:
                raise LabError(f"key {i} is {len(k)} bytes; request-state keys must be at least 32 bytes")
        self._keys = material
        self.generated = generated
        self.ids = [key_id(k) for k in material]

    @classmethod
    def fresh(cls) -> KeyRing:
        """One random 32-byte key, like the SDK's ephemeral default, but held by the lab."""
        return cls([os.urandom(32)], generated=True)

    @classmethod
    def coerce(cls, value: Any) -> KeyRing:
        """A KeyRing from a key, a list of keys, or a KeyRing."""
        if isinstance(value, KeyRing):
            return value
        if isinstance(value, bytes | bytearray | str):
            return cls([value])
        if isinstance(value, Iterable):
            items = list(value)
            if all(isinstance(k, bytes | bytearray | str) for k in items):
                return cls(items)
        raise LabError("keys must be bytes or str of at least 32 bytes, or a list of them")

    def security(self, *, ttl: float = 600.0, **kwargs: Any) -> RequestStateSecurity:
        """The SDK policy for this ring."""
        return RequestStateSecurity(keys=list(self._keys), ttl=ttl, **kwargs)

    def secret_keys(self) -> list[bytes]:
        """The raw keys, for code that must unseal (the inspector). Never display the result."""
        return list(self._keys)

    def rotated(self, new: bytes | bytearray | str | None = None) -> KeyRing:
        """A ring with `new` (or a fresh random key) in front of this one's keys."""
        key = _material(new) if new is not None else os.urandom(32)
        return KeyRing([key, *self._keys], generated=self.generated and new is None)

    def __len__(self) -> int:
        return len(self._keys)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyRing) and other._keys == self._keys

    def __hash__(self) -> int:
        return hash(tuple(self.ids))

    def __repr__(self) -> str:
        origin = "lab-generated" if self.generated else "given"
        return f"KeyRing([{', '.join(self.ids)}], {origin})"

    __str__ = __repr__

    def __getstate__(self) -> None:
        raise TypeError("a KeyRing holds secrets and cannot be pickled or saved")


def codec_key_ids(codec: Any) -> list[str]:
    """The key ids (public 4-byte fingerprints, hex) of an SDK AES-GCM codec's ring, slot 0 first; [] else."""
    if isinstance(codec, AESGCMRequestStateCodec):
        return [kid.hex() for kid in codec._ring]  # private, pinned to mcp==2.3.0
    return []
