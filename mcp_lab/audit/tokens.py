"""What a client can do to a requestState it holds: flip a bit, cut it short, splice two, read it, edit it.

Spec context: Multi Round-Trip Requests, Server Requirements (Basic Workflow) item 4 and Security
Considerations -- "servers MUST treat requestState as an attacker-controlled input" -- and the SDK docs'
"opaque token ... only the server reads it". The audit does to a real token exactly what an attacker could,
without any key: these functions know no format but the common encodings a server might use (plain text,
JSON, base64 or base64url, dot-separated segments as in JWTs and the SDK's `v1.` envelope), so they work on
any server's tokens. A token that decodes to readable text is "readable", and `reveal` says what it shows.
"""

from __future__ import annotations

import json
import re

from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.protocol.readable import Readable, decode_segment, encode_segment, segment_spans

__all__ = ["Reveal", "edits", "flip_bit", "reveal", "splice", "truncate"]

Reveal = Readable
"""What a token shows to anyone who holds it (the keyless anatomy's readable part)."""
_decode, _encode, _segments = decode_segment, encode_segment, segment_spans


def _longest_binary(token: str) -> tuple[int, int, bytes, str] | None:
    best = None
    for start, end in _segments(token):
        decoded = _decode(token[start:end])
        if decoded is not None and (best is None or end - start > best[1] - best[0]):
            best = (start, end, decoded[0], decoded[1])
    return best


def flip_bit(token: str) -> tuple[str, str]:
    """The token with one bit flipped (in the decoded bytes of its longest base64 segment when it has one,
    else in the middle character), and where."""
    found = _longest_binary(token)
    if found is not None and found[2]:
        start, end, data, alphabet = found
        index = len(data) // 2
        flipped = bytearray(data)
        flipped[index] ^= 0x01
        new = _encode(bytes(flipped), alphabet)
        if new != token[start:end]:
            return token[:start] + new + token[end:], f"bit 0 of decoded byte {index} flipped"
    middle = len(token) // 2
    order = sorted(range(len(token)), key=lambda i: abs(i - middle))
    for i in order:
        flipped_char = chr(ord(token[i]) ^ 0x01)
        if token[i].isalnum() and flipped_char.isalnum():
            return token[:i] + flipped_char + token[i + 1 :], f"bit 0 of character {i} flipped"
    i = middle if token else 0
    return token[:i] + chr(ord(token[i]) ^ 0x01) + token[
        i + 1 :
    ] if token else "\x01", f"bit 0 of character {i} flipped"


def truncate(token: str) -> tuple[str, str]:
    """The token without about its last quarter (at least one character).

    Where the token is long enough and ends in a base64 segment, what is left of that segment is a whole
    number of base64 quads: it still decodes (a strict decoder refuses a final character whose unused bits are
    set, which a cut anywhere else leaves depending on the token's length), so the server refuses it because
    it no longer opens, the same reason every run."""
    cut = max(1, len(token) // 4)
    if len(token) >= 16:
        last = [(start, end) for start, end in _segments(token) if end == len(token)]
        tail = (last[0][1] - last[0][0]) % 4 if last else 0
        cut = max(4, cut - cut % 4) + tail
    return token[:-cut], f"the last {cut} of {len(token)} characters cut off"


def splice(first: str, second: str) -> tuple[str, str]:
    """The first half of one token with the second half of another (as long as the longer)."""
    half = len(first) // 2
    return first[:half] + second[half:], f"first {half} characters of one token, the rest of another"


def reveal(token: str) -> Reveal | None:
    """What the token shows without a key (None: nothing readable -- opaque), as the keyless anatomy the
    inspector shows reads it: one reader for both."""
    return keyless_anatomy(token).readable


def edits(token: str, limit: int = 3) -> list[tuple[str, str]]:
    """The token with one readable value changed, for each of its first `limit` values -- what a client that can
    read it could do ([] when nothing readable can be changed)."""
    found = reveal(token)
    if found is None:
        return []
    out: list[tuple[str, str]] = []
    if found.value is not None:
        for changed, what in _edit_json(found.value)[:limit]:
            out.append((_rebuilt(token, found, json.dumps(changed, separators=(",", ":"), ensure_ascii=False)), what))
        return out
    raw = token[found.start : found.end]
    text = raw if not found.alphabet else (_decode(raw) or (b"", ""))[0].decode("utf-8", "replace")
    for match in list(re.finditer(r"\d+", text))[:limit]:
        edited = text[: match.start()] + str(int(match.group()) + 1) + text[match.end() :]
        out.append((_rebuilt(token, found, edited), f"the number {match.group()} raised by one"))
    return out


def _rebuilt(token: str, found: Reveal, text: str) -> str:
    body = text if not found.alphabet else _encode(text.encode(), found.alphabet)
    return token[: found.start] + body + token[found.end :]


def _edit_json(value: object, path: str = "") -> list[tuple[object, str]]:
    """Copies of `value`, each with one number raised by one (or one string changed), in document order."""
    if isinstance(value, dict):
        return [
            ({**value, key: changed}, what)
            for key, item in value.items()
            for changed, what in _edit_json(item, f"{path}.{key}" if path else str(key))
        ]
    if isinstance(value, list):
        return [
            ([*value[:i], changed, *value[i + 1 :]], what)
            for i, item in enumerate(value)
            for changed, what in _edit_json(item, f"{path}[{i}]")
        ]
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int | float):
        return [(value + 1, f"{path or 'the value'} {value} raised by one")]
    if isinstance(value, str):
        return [(value + "x", f"{path or 'the value'} {value[:40]!r} changed")]
    return []
