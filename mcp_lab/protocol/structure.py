"""Other servers' request_state formats, recognised by their structure: what anyone holding them reads.

Spec context: 2026-07-28 `requestState` is opaque to the client; how a server protects it is the server's
choice. Tokens seen from real servers:

- The TypeScript SDK's `createRequestStateCodec` (npm `@modelcontextprotocol/server` 2.4.0) *signs* but does
  not encrypt: `v1.` + base64url(JSON `{"p": state, "exp": seconds, "b"?: binding tag}`) + `.` +
  base64url(HMAC-SHA256). It shares the Python SDK's `v1.` prefix, so a prefix says nothing: the shape does
  (a second dot, and a payload that decodes to a JSON object).
- JWS / JWT compact form (`header.payload.signature`, the header a JSON object with `alg`): signed, payload
  readable; JWE (five segments, the header naming `enc`): encrypted.
- Plain JSON: not protected at all.
- Anything else is opaque to the lab: a random handle, or ciphertext in a format it does not know.

Each reader says plainly who can read the token and, for a readable payload, which claims it carries
(expiry, binding). None calls a readable token encrypted, and none calls a foreign token malformed: only the
server that issued it decides; `sdk_refusal` says what the *Python* SDK's codec would make of it.
"""

from __future__ import annotations

import json
import time

from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.readable import decode_segment, find_readable, segment_spans, text_of
from mcp_lab.protocol.token_parts import Anatomy, Segment, b64u_decode_explained

__all__ = ["READABLE_BY_ANYONE", "foreign_anatomy", "signed_v1_anatomy"]

SIGNED_V1 = "signed-v1"
SIGNED_V1_LABEL = "signed v1 (base64url JSON + HMAC signature, as the TypeScript SDK's request-state codec writes)"
READABLE_BY_ANYONE = (
    "signed, not encrypted: anyone holding this token can read its payload; the signature only lets the "
    "server that holds the key notice a change"
)
NOT_THE_PYTHON_ENVELOPE = (
    "not the Python SDK's AES-GCM envelope: that codec would refuse it as malformed; the server that issued "
    "it decides whether it is valid"
)


def _json_object(segment: str) -> tuple[JsonObject, bytes] | None:
    decoded = decode_segment(segment) if segment else None
    text = text_of(decoded[0]) if decoded is not None else None
    if text is None or decoded is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return (value, decoded[0]) if isinstance(value, dict) else None


def _when(value: object, now: float) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{value!r} (not a number of seconds)"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))
    left = value - now
    rel = f"in {left:.0f} s" if left >= 0 else f"{-left:.0f} s ago: expired"
    shown = str(int(value)) if float(value).is_integer() else f"{value:.3f}"
    return f"{shown} = {stamp} ({rel})"


def _carries(claims: JsonObject, now: float) -> list[str]:
    """The claims a readable payload carries, named for what they do."""
    out: list[str] = []
    if "exp" in claims:
        out.append(f"expiry: exp {_when(claims['exp'], now)}")
    else:
        out.append("expiry: none (no exp claim: nothing in the token ends its life)")
    for key in ("b", "bind", "sub", "aud", "cnf"):
        if key in claims:
            out.append(f"binding: {key} = {json.dumps(claims[key])[:60]} (checked by the server against the request)")
    if not any(line.startswith("binding") for line in out):
        out.append("binding: none (no binding claim: any holder may present it)")
    for key in ("p", "s", "state"):
        if key in claims:
            out.append(f"the state itself: {key} = {json.dumps(claims[key], ensure_ascii=False)[:120]}")
    return out


def signed_v1_anatomy(token: str, now: float | None = None) -> Anatomy | None:
    """`v1.<base64url JSON>.<base64url signature>`; None when the token does not have that shape."""
    body, dot, signature = token[3:].rpartition(".")
    if not dot or "." in body:
        return None
    found = _json_object(body)
    tag, _ = b64u_decode_explained(signature, 3 + len(body) + 1)
    if found is None or tag is None or not tag:
        return None
    claims, payload = found
    anatomy = Anatomy(format=SIGNED_V1, label=SIGNED_V1_LABEL, prefix="v1.", confidential=False)
    dot_at = 3 + len(body)
    anatomy.segments = [
        Segment("prefix", 0, 3, None, "format version, covered by the signature"),
        Segment("payload", 3, dot_at, len(payload), "base64url JSON: readable by anyone holding the token"),
        Segment("dot", dot_at, dot_at + 1),
        Segment("signature", dot_at + 1, len(token), len(tag), f"{len(tag)}-byte signature (HMAC-SHA256: 32)"),
    ]
    anatomy.readable_payload, anatomy.sealed_bytes, anatomy.claims = payload, len(payload), claims
    anatomy.statement = READABLE_BY_ANYONE
    anatomy.carries = _carries(claims, time.time() if now is None else now)
    anatomy.sdk_refusal = NOT_THE_PYTHON_ENVELOPE
    return anatomy


def _jose(token: str, now: float) -> Anatomy | None:
    parts = token.split(".")
    if len(parts) not in (3, 5):
        return None
    found = _json_object(parts[0])
    if found is None:
        return None
    header = found[0]
    spans = segment_spans(token)
    if len(parts) == 5 and "enc" in header:
        anatomy = Anatomy(format="jwe", label=f"JWE ({header.get('alg')}, {header.get('enc')})", confidential=True)
        anatomy.segments = [Segment(n, a, b) for n, (a, b) in zip(("header", "key", "iv", "sealed", "tag"), spans, strict=True)]
        anatomy.statement = "encrypted (JWE): only its header is readable; the payload needs the key"
        anatomy.claims = {"header": header}
        anatomy.sdk_refusal = NOT_THE_PYTHON_ENVELOPE
        return anatomy
    if len(parts) != 3 or "alg" not in header:
        return None
    alg = str(header.get("alg"))
    anatomy = Anatomy(format="jws", label=f"JWS / JWT (alg {alg})", confidential=False)
    names = ("header", "payload", "signature")
    anatomy.segments = [Segment(n, a, b) for n, (a, b) in zip(names, spans, strict=True)]
    payload = _json_object(parts[1])
    if payload is not None:
        anatomy.claims, anatomy.readable_payload = payload[0], payload[1]
        anatomy.carries = _carries(payload[0], now)
    anatomy.statement = (
        "unsigned (alg none): anyone can read and change it"
        if alg.lower() == "none"
        else "signed, not encrypted (JWS): anyone holding this token can read its payload"
    )
    anatomy.sdk_refusal = NOT_THE_PYTHON_ENVELOPE
    return anatomy


def foreign_anatomy(token: str, now: float | None = None) -> Anatomy:
    """A token that is not the Python SDK's envelope nor a lab codec's: JWS/JWE, plain JSON, readable, opaque."""
    at = time.time() if now is None else now
    readable = find_readable(token)
    anatomy = _jose(token, at)
    if anatomy is None and readable is not None and readable.form == "plain JSON":
        anatomy = Anatomy(format="json", label="plain JSON", confidential=False)
        anatomy.segments = [Segment("body", 0, len(token), len(token.encode("utf-8", "surrogatepass")), "plain")]
        anatomy.claims = readable.value
        anatomy.statement = "not protected: anyone holding this token can read it and change it"
        if isinstance(readable.value, dict):
            anatomy.carries = _carries(readable.value, at)
    if anatomy is None and readable is not None:
        anatomy = Anatomy(format="plaintext", label=f"readable ({readable.form})", confidential=False)
        anatomy.segments = [Segment("body", 0, len(token), len(token.encode("utf-8", "surrogatepass")), "readable")]
        anatomy.statement = f"readable by anyone holding it ({readable.form}); whether it is signed, only its server knows"
        if isinstance(readable.value, dict):
            anatomy.claims = readable.value
            anatomy.carries = _carries(readable.value, at)
    if anatomy is None:
        anatomy = Anatomy(format="opaque", label="opaque (no format the lab knows)", confidential=None)
        anatomy.segments = [Segment("body", 0, len(token), None, "opaque")]
        anatomy.statement = (
            "nothing readable: a random handle, or ciphertext in a format the lab does not know; only its "
            "server can say"
        )
    anatomy.readable = readable
    anatomy.sdk_refusal = anatomy.sdk_refusal or NOT_THE_PYTHON_ENVELOPE
    return anatomy
