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
import math
import os
from collections.abc import Sequence
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from mcp.server.mcpserver import AESGCMRequestStateCodec, RequestStateSecurity

from mcp_lab.errors import LabError

__all__ = [
    "MAX_KEYS",
    "MAX_KEY_BYTES",
    "MIN_KEY_BYTES",
    "KeyRing",
    "checked_key",
    "checked_keys",
    "checked_ttl",
    "codec_key_ids",
    "key_id",
]

_KDF_INFO = b"mcp/request-state/v1/aes-256-gcm"
_KID_INFO = b"mcp/request-state/v1/kid:"


def _material(key: bytes | bytearray | str) -> bytes:
    if isinstance(key, str):
        return key.encode("utf-8", "surrogatepass")
    if not isinstance(key, bytes | bytearray):
        raise LabError(f"key_id() takes one key (bytes or str), not {type(key).__name__}")
    return bytes(key)


def key_id(key: bytes | bytearray | str) -> str:
    """The 4-byte key id (hex) the SDK's AES-GCM codec writes into every token sealed with `key`."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_KDF_INFO).derive(_material(key))
    return hashlib.sha256(_KID_INFO + derived).digest()[:4].hex()


MIN_KEY_BYTES = 32
"""The SDK's own floor for a request-state key."""
MAX_KEY_BYTES = 1024
"""HKDF derives 32 bytes from any input: a longer "key" adds nothing, and is most likely the wrong value
(a file's contents, a whole token) given by mistake."""
MAX_KEYS = 64
"""A ring seals with one key and unseals with the rest; more than this is not a rotation but a mistake."""

_EXAMPLE = "e.g. keys=[secrets.token_bytes(32)]"


def checked_keys(keys: object) -> list[bytes]:
    """The keys of a ring, checked (see `_checked`)."""
    return _checked(keys)[0]


def _checked(keys: object) -> tuple[list[bytes], list[str]]:
    """The keys of a ring, checked: a list or tuple of 1..MAX_KEYS distinct keys of MIN_KEY_BYTES..MAX_KEY_BYTES
    bytes, none all zero. Anything else is one `LabError` saying why. A key is bytes (or a str, taken as its
    UTF-8 as the SDK does: its own hint is `secrets.token_hex(32)`).

    Every ring the lab builds goes through here (`KeyRing`, hence `--keys`, `adopt(keys=)`, `Fleet(keys=)`,
    rotation, `inspect_token(ring=)`), so a weak ring -- a repeated key, an all-zero key, a bytes object
    read as a list of small integers -- is never built.
    """
    if isinstance(keys, KeyRing):
        return keys.secret_keys(), list(keys.ids)
    if keys is None:
        raise LabError(f"no keys given (None): give a list of keys, {_EXAMPLE}")
    if isinstance(keys, bytes | bytearray | memoryview):
        raise LabError(f"give a list of keys, not one bytes object: [key] ({_EXAMPLE})")
    if isinstance(keys, str):
        raise LabError(f"give a list of keys, not one str: [key] ({_EXAMPLE})")
    if not isinstance(keys, list | tuple):
        order = " (their order matters: keys[0] seals)" if isinstance(keys, set | frozenset | dict) else ""
        raise LabError(f"keys must be a list of byte strings, not {type(keys).__name__}{order}; {_EXAMPLE}")
    if not keys:
        raise LabError(f"a key ring needs at least one key; {_EXAMPLE}")
    if len(keys) > MAX_KEYS:
        raise LabError(f"a key ring holds at most {MAX_KEYS} keys, not {len(keys)} (keys[0] seals, the rest unseal)")
    material: list[bytes] = []
    seen: dict[str, int] = {}
    for index, key in enumerate(keys):
        where = f"keys[{index}]"
        if not isinstance(key, bytes | bytearray | str):
            raise LabError(f"{where} is {type(key).__name__}, not bytes; {_EXAMPLE}")
        value = _material(key)
        if not MIN_KEY_BYTES <= len(value) <= MAX_KEY_BYTES:
            raise LabError(f"{where} is {len(value)} bytes; each key must be {MIN_KEY_BYTES} to {MAX_KEY_BYTES} bytes")
        if not any(value) or (isinstance(key, str) and not key.strip("0")):  # b"\0" * 32, or "00" * 32 as hex
            raise LabError(f"{where} is all zeros: anyone could open what it seals; {_EXAMPLE}")
        kid = key_id(value)
        if kid in seen:  # the SDK refuses a ring whose key ids repeat; the same key twice is such a ring
            raise LabError(f"{where} repeats keys[{seen[kid]}]: every key of a ring must be different")
        seen[kid] = index
        material.append(value)
    return material, list(seen)


def checked_key(key: object, label: str) -> bytes:
    """One key (`RotationStepper(old=, new=)`, `rotated(new)`), checked as a ring's keys are; `label` names it."""
    if isinstance(key, list | tuple):
        raise LabError(f"{label} is one key (bytes), not a {type(key).__name__} of them")
    try:
        return _checked([key])[0][0]
    except LabError as exc:
        raise LabError(str(exc).replace("keys[0]", label, 1)) from None


def checked_ttl(ttl: object, what: str = "ttl") -> float:
    """A request_state lifetime: a positive, finite number of seconds (True is not a number here)."""
    if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not math.isfinite(ttl) or ttl <= 0:
        raise LabError(f"{what} must be a positive number of seconds, not {ttl!r}")
    return float(ttl)


class KeyRing:
    """An ordered ring of request-state keys: slot 0 seals, every slot unseals."""

    __slots__ = ("_keys", "generated", "ids")

    def __init__(self, keys: Sequence[bytes | bytearray | str], *, generated: bool = False) -> None:
        material, ids = _checked(keys)
        if not isinstance(generated, bool):
            raise LabError(f"generated= is True or False, not {generated!r}")
        self._keys = material
        self.generated = generated
        self.ids = ids

    @classmethod
    def fresh(cls) -> KeyRing:
        """One random 32-byte key, like the SDK's ephemeral default, but held by the lab."""
        return cls([os.urandom(32)], generated=True)

    @classmethod
    def coerce(cls, value: Any) -> KeyRing:
        """A KeyRing from a list (or tuple) of keys, or a KeyRing; anything else is refused (`checked_keys`)."""
        if isinstance(value, KeyRing):
            return value
        return cls(value)

    def security(self, *, ttl: float = 600.0, **kwargs: Any) -> RequestStateSecurity:
        """The SDK policy for this ring."""
        return RequestStateSecurity(keys=list(self._keys), ttl=ttl, **kwargs)

    def secret_keys(self) -> list[bytes]:
        """The raw keys, for code that must unseal (the inspector). Never display the result."""
        return list(self._keys)

    def rotated(self, new: bytes | bytearray | str | None = None) -> KeyRing:
        """A ring with `new` (or a fresh random key) in front of this one's keys."""
        key = os.urandom(32) if new is None else checked_key(new, "the new key")
        if key in self._keys:
            raise LabError("rotated(): the new key is already in the ring; rotate to a key it does not hold")
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


def codec_key_ids(codec: object) -> list[str]:
    """The key ids (public 4-byte fingerprints, hex) of an SDK AES-GCM codec's ring, slot 0 first; [] else."""
    if isinstance(codec, AESGCMRequestStateCodec):
        return [kid.hex() for kid in codec._ring]  # private, pinned to mcp==2.3.0
    return []
