"""The rows of a token report: the boundary's checks, the sealed claims with their meanings, the questions
the SDK's resolver state records -- and the functions that read claims and inner state into them.

Spec context: the SDK docs' "What a seal binds" (the claims `v`, `iat`, `exp`, `m`, `t`, `a`, `aud`, `p`,
`s`) and the resolver-driven tools' inner state `{"v":3,"outcomes":{key:{action,data,q}},"asked":{key:q}}`
(`mcp/server/mcpserver/resolve.py`). Plain data, below both the report (report.py) and the claim checks
(claims.py), so neither imports the other back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from mcp_lab.json_types import JsonObject, JsonValue

__all__ = [
    "RESOLVER_STATE_VERSION",
    "ClaimRow",
    "QuestionRow",
    "Status",
    "claim_rows",
    "decode_inner",
    "question_texts",
    "when",
]

RESOLVER_STATE_VERSION = 3

Status = Literal["pass", "fail", "unknown", "not reached", "skipped"]


@dataclass
class ClaimRow:
    """One claim of the sealed envelope, what it means, and whether it fits."""

    claim: str
    value: object
    meaning: str
    status: Literal["ok", "mismatch", "unknown", "info"] = "info"
    note: str = ""


@dataclass
class QuestionRow:
    """One resolver question recorded in the SDK's inner state (v3)."""

    key: str
    asked: str | None = None
    """Digest of the question asked last round and still awaiting its answer."""
    answered: bool = False
    action: str | None = None
    data: object = None
    pinned: str | None = None
    """Digest of the exact question the recorded answer belongs to."""
    question: str | None = None
    """The question's text, when the flow that carried it is known."""


def when(value: object) -> str | None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        return None
    try:
        return datetime.fromtimestamp(value, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


_MEANINGS = {
    "v": "envelope version",
    "iat": "issued at",
    "exp": "expires at (iat + the server's ttl)",
    "m": "method it was minted for",
    "t": "tool / prompt name or resource URI",
    "a": "digest of the arguments (first 16 bytes of SHA-256, base64url)",
    "aud": "audience: the minting server's name",
    "p": "salted tag of the principal (never the name itself)",
    "s": "the inner state the handler wrote",
}


def claim_rows(claims: JsonObject, expected: JsonObject) -> list[ClaimRow]:
    """One row per claim: what it means and whether it fits what the server expects (`expected`)."""
    rows = []
    for name in ("v", "iat", "exp", "m", "t", "a", "aud", "p", "s"):
        if name not in claims:
            if name in ("aud", "p"):
                rows.append(ClaimRow(name, None, _MEANINGS[name], "info", "absent"))
            continue
        value = claims[name]
        row = ClaimRow(name, value, _MEANINGS[name])
        if name in ("m", "t", "a", "aud"):
            if name not in expected:
                row.status, row.note = "unknown", "server not given" if name == "aud" else "call not given"
            elif value == expected[name]:
                row.status, row.note = "ok", "this server's audience" if name == "aud" else "matches the call"
            else:
                row.status = "mismatch"
                row.note = (
                    f"the server expects {expected[name]!r}" if name == "aud" else f"the call gives {expected[name]!r}"
                )
        elif name in ("iat", "exp"):
            row.note = when(value) or "not a time"
        rows.append(row)
    for name in claims:
        if name not in _MEANINGS:
            rows.append(ClaimRow(name, claims[name], "not an SDK claim (ignored by the boundary)"))
    return rows


def decode_inner(inner: str | None, texts: Mapping[str, str]) -> tuple[str | None, list[QuestionRow]]:
    """Classify the inner state; resolver state becomes one row per question (text from the flow)."""
    if inner is None:
        return None, []
    try:
        state = json.loads(inner)
    except (ValueError, RecursionError):
        state = None
    if not (isinstance(state, dict) and state.get("v") == RESOLVER_STATE_VERSION):
        return "handmade", []
    outcomes, asked = state.get("outcomes", {}), state.get("asked", {})
    if not isinstance(outcomes, dict) or not isinstance(asked, dict):
        return "handmade", []
    rows = []
    for key in [*outcomes, *(k for k in asked if k not in outcomes)]:
        row = QuestionRow(key=str(key), question=texts.get(str(key)))
        entry = outcomes.get(key)
        if isinstance(entry, dict):
            row.answered, row.action, row.data = True, entry.get("action"), entry.get("data")
            row.pinned = entry.get("q") if isinstance(entry.get("q"), str) else None
        digest = asked.get(key)
        row.asked = digest if isinstance(digest, str) else None
        rows.append(row)
    return "resolver", rows


def question_texts(rounds: object) -> dict[str, str]:
    """Key -> question text for every input request a flow's rounds carried (the latest wins).

    Matched by key, not digest: the server digests its own rendering, and the client's parsed copy may
    drop fields (a schema's "title"), so the digest cannot be recomputed from what the client kept.
    """
    found: dict[str, str] = {}
    if not isinstance(rounds, Iterable):
        return found
    for rnd in rounds:
        for key, request in (getattr(rnd, "input_requests", None) or {}).items():
            if isinstance(request, dict):
                found[str(key)] = _question_text(request)
    return found


def _question_text(request: Mapping[str, JsonValue]) -> str:
    found = request.get("params")
    params: Mapping[str, JsonValue] = found if isinstance(found, Mapping) else {}
    method = request.get("method", "")
    if method == "elicitation/create":
        return str(params.get("message") or params.get("url") or "elicitation")
    if method == "sampling/createMessage":
        messages = params.get("messages", [])
        return f"sampling: {len(messages) if isinstance(messages, list) else 0} message(s)"
    return "list roots"
