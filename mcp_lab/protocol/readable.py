"""What part of a token anyone can read, found by its encoding alone -- no format, no key.

Spec context: 2026-07-28 `requestState` is opaque to the client, and "servers MUST treat requestState as an
attacker-controlled input": whatever a server puts in it readably, every client holding it can read (and
try to change). This module finds that part in any server's token -- plain JSON or text, or a base64 /
base64url segment of a dot-separated token (a JWT, the TypeScript SDK's `v1.<payload>.<signature>`, a lab
codec's) that decodes to text -- and says where it sits and how it is encoded, so a reader can show it and
the audit can edit it in its own encoding. The keyless anatomy (`protocol.anatomy`) and the audit's token
probes (`audit.tokens`) both use it: one answer to "what does this token show?".
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass

__all__ = ["SHOWN", "Readable", "decode_segment", "encode_segment", "find_readable", "segment_spans"]

_B64 = re.compile(r"[A-Za-z0-9_\-+/]{8,}={0,2}")
SHOWN = 160
"""How much of what a token reveals is shown."""


def decode_segment(segment: str) -> tuple[bytes, str] | None:
    """The bytes of a base64url or base64 segment, and which alphabet it used (None: not base64)."""
    if not _B64.fullmatch(segment):
        return None
    urlsafe = "-" in segment or "_" in segment or not ("+" in segment or "/" in segment)
    padded = segment + "=" * (-len(segment.rstrip("=")) % 4) if "=" not in segment else segment
    try:
        data = (base64.urlsafe_b64decode if urlsafe else base64.b64decode)(padded.encode())
    except (binascii.Error, ValueError):
        return None
    return data, ("url" if urlsafe else "std") + ("" if "=" in segment else "-nopad")


def encode_segment(data: bytes, alphabet: str) -> str:
    text = (base64.urlsafe_b64encode if alphabet.startswith("url") else base64.b64encode)(data).decode()
    return text.rstrip("=") if alphabet.endswith("-nopad") else text


def segment_spans(token: str) -> list[tuple[int, int]]:
    """(start, end) of each dot-separated segment."""
    spans, start = [], 0
    for part in token.split("."):
        spans.append((start, start + len(part)))
        start += len(part) + 1
    return spans


@dataclass
class Readable:
    """What a token shows to anyone who holds it."""

    form: str
    """`plain JSON`, `plain text`, `base64url JSON (segment k of n)`, ..."""
    text: str
    """The readable content (clipped)."""
    value: object = None
    """The parsed JSON value, when it is JSON."""
    start: int = 0
    end: int = 0
    alphabet: str = ""
    """Where in the token it sits and how it is encoded ("" : verbatim)."""

    def describe(self) -> str:
        return f"readable {self.form}: {self.text}"


def text_of(data: bytes) -> str | None:
    """`data` as text when it is (almost all) printable UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if text and printable >= 0.95 * len(text) else None


def clip(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + f"… ({len(text)} chars)"


def find_readable(token: str) -> Readable | None:
    """What the token shows without a key (None: nothing readable -- opaque)."""
    try:
        value = json.loads(token)
    except ValueError:
        value = None
    if isinstance(value, dict | list):
        return Readable("plain JSON", clip(token), value, 0, len(token))
    spans = segment_spans(token)
    found: list[Readable] = []
    for start, end in spans:
        decoded = decode_segment(token[start:end])
        text = text_of(decoded[0]) if decoded is not None else None
        if decoded is None or text is None or len(text) < 2:
            continue
        where = f" (segment {spans.index((start, end)) + 1} of {len(spans)})" if len(spans) > 1 else ""
        encoding = "base64url" if decoded[1].startswith("url") else "base64"
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        kind = "JSON" if isinstance(parsed, dict | list) else "text"
        found.append(
            Readable(f"{encoding} {kind}{where}", clip(text), parsed if kind == "JSON" else None, start, end, decoded[1])
        )
    if found:  # JSON first (claims), then the longest text
        return max(found, key=lambda r: (r.value is not None, r.end - r.start))
    if text_of(token.encode()) and any(ch.isalpha() for ch in token) and not _looks_random(token):
        return Readable("plain text", clip(token), None, 0, len(token))
    return None


def _looks_random(token: str) -> bool:
    """A long run of base64-ish characters with no separators reads as an opaque blob, not as text."""
    core = token.split(".")[-1]
    return len(core) >= 24 and bool(_B64.fullmatch(core))
