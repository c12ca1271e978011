"""The boundary's claim checks, mirrored step by step, and the resolver inner state decoded into questions.

Spec context: the SDK docs' "What a seal binds" -- time window, principal, original request, the exact
question. `RequestStateBoundary._unseal` (mcp 2.3.0, `mcp/server/request_state.py`) checks, after the
codec: `v == 1` with `iat`, `exp`, `s` present and `s` a string (`malformed`); `iat <= now + 60 s` of
clock skew (`minted in the future`); `now < exp` (`expired`); `m`, `t`, `a` equal to this request's method,
name or URI, and arguments digest (`request binding`); `aud` (`audience`); then the principal: a tag on
one side only is `principal drift`, a tag that does not match is `principal`. Conditions are written
positively, as there, so NaN fails. The digest and tag helpers are the SDK's own (private, pinned).

Inside `s`, resolver-driven tools keep `{"v":3,"outcomes":{key:{action,data,q}},"asked":{key:q}}`
(`mcp/server/mcpserver/resolve.py`), every answer pinned to a digest of the rendered question.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from mcp.server.request_state import _principal_matches, _request_identity  # private, pinned to mcp==2.3.0

from mcp_lab.inspect.report import Check, ClaimRow, QuestionRow, TokenReport

__all__ = ["FUTURE_SKEW", "UNKNOWN", "check_claims", "decode_inner", "question_texts", "request_identity"]

FUTURE_SKEW = 60.0
"""`_FUTURE_SKEW`: how far in the future an `iat` may lie (clock skew between instances)."""
ENVELOPE_VERSION = 1
RESOLVER_STATE_VERSION = 3


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
"""Marks an input the lab does not have (an audience, a principal, the call)."""


def request_identity(method: str, target: str, arguments: Mapping[str, Any] | None) -> tuple[str, str]:
    """(target, args digest) exactly as the boundary computes it for the request."""
    params: dict[str, Any] = {"uri": target} if method == "resources/read" else {"name": target}
    if method != "resources/read":
        params["arguments"] = dict(arguments or {})
    return _request_identity(method, params)


def when(value: Any) -> str | None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        return None
    try:
        return datetime.fromtimestamp(value, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


def _fail(report: TokenReport, step: str, reason: str, detail: str) -> None:
    report.checks.append(Check(step, "fail", reason, detail))


def check_claims(
    report: TokenReport,
    payload: bytes,
    *,
    now: float,
    call: tuple[str, str, str] | None,
    audience: Any,
    principal: Any,
    principal_note: str,
    principal_assumed: bool = False,
) -> None:
    """Append the checks after the codec; `call` is (method, target, args digest) or None."""
    try:
        claims = json.loads(payload)
        version, iat, exp, inner = claims["v"], claims["iat"], claims["exp"], claims["s"]
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        what = f"claim {exc} is missing" if isinstance(exc, KeyError) else "it is not a JSON object of claims"
        _fail(report, "version", "malformed", f"the payload opened, but {what}")
        return
    report.claims = claims
    report.opened = True
    _claim_rows(report, claims, now, call, audience)
    if version != ENVELOPE_VERSION or not isinstance(inner, str):
        bad = f"v={version!r}, expected 1" if version != ENVELOPE_VERSION else "s is not a string"
        _fail(report, "version", "malformed", bad)
        return
    report.checks.append(Check("version", "pass", None, "v=1 with iat, exp and s present"))
    report.inner_state = inner
    if not isinstance(iat, int | float) or not (iat <= now + FUTURE_SKEW):
        _fail(report, "issued-at", "minted in the future", f"iat lies more than {FUTURE_SKEW:g} s after now")
        return
    report.checks.append(Check("issued-at", "pass", None, f"iat is not after now + {FUTURE_SKEW:g} s skew"))
    if not isinstance(exp, int | float) or not (now < exp):
        _fail(report, "expiry", "expired", "now is past exp: re-sealed every round, so this round took too long")
        return
    report.checks.append(Check("expiry", "pass", None, "now < exp"))
    unknown_before = False
    if call is None:
        report.checks.append(Check("request binding", "unknown", None, "pass call= (the flow, or method/target/args)"))
        report.cannot_know.append("whether m/t/a match the request: the call was not given")
        unknown_before = True
    else:
        method, target, digest = call
        wrong = [c for c, want in (("m", method), ("t", target), ("a", digest)) if claims.get(c) != want]
        if wrong:
            _fail(report, "request binding", "request binding", f"{', '.join(wrong)} differ from this request")
            return
        report.checks.append(Check("request binding", "pass", None, "same method, target and arguments digest"))
    if audience is UNKNOWN:
        report.checks.append(Check("audience", "unknown", None, "pass server= or audience="))
        report.cannot_know.append("the server's audience (its name): pass server= or audience=")
        unknown_before = True
    elif claims.get("aud") != audience:
        _mark(report, unknown_before, "audience", "audience", f"aud is not {audience!r}")
        return
    else:
        report.checks.append(Check("audience", "pass", None, f"aud is {audience!r}"))
    _check_principal(report, claims.get("p"), principal, principal_note, unknown_before, principal_assumed)


def _mark(report: TokenReport, uncertain: bool, step: str, reason: str, detail: str) -> None:
    if uncertain:
        detail += " (unless an unchecked step above fails first)"
    _fail(report, step, reason, detail)


def _check_principal(
    report: TokenReport, claim: Any, principal: Any, note: str, uncertain: bool, assumed: bool
) -> None:
    if principal is UNKNOWN:
        if claim is None and assumed:
            report.checks.append(Check("principal", "pass", None, note))
            return
        report.checks.append(Check("principal", "unknown", None, note))
        report.cannot_know.append("the principal the server binds: " + note)
        return
    if (claim is None) != (principal is None):
        side = (
            "the token carries a principal tag, the request none"
            if principal is None
            else (f"the request's principal is {principal!r}, the token carries no tag")
        )
        _mark(report, uncertain, "principal", "principal drift", side)
        return
    if claim is not None and principal is not None:
        if not isinstance(claim, str) or not _principal_matches(claim, principal):
            _mark(report, uncertain, "principal", "principal", f"the tag was not made for {principal!r}")
            return
        report.checks.append(Check("principal", "pass", None, f"tag matches {principal!r} ({note})"))
        return
    report.checks.append(Check("principal", "pass", None, f"no principal on either side ({note})"))


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


def _claim_rows(report: TokenReport, claims: dict[str, Any], now: float, call: Any, audience: Any) -> None:
    iat, exp = claims.get("iat"), claims.get("exp")
    report.issued_at, report.expires_at = when(iat), when(exp)
    if isinstance(iat, int | float) and isinstance(exp, int | float) and math.isfinite(iat) and math.isfinite(exp):
        report.ttl = round(float(exp) - float(iat), 6)
        report.ttl_left = round(float(exp) - now, 6)
    rows = report.claim_rows
    for name in ("v", "iat", "exp", "m", "t", "a", "aud", "p", "s"):
        if name not in claims:
            if name in ("aud", "p"):
                rows.append(ClaimRow(name, None, _MEANINGS[name], "info", "absent"))
            continue
        value = claims[name]
        row = ClaimRow(name, value, _MEANINGS[name])
        if name in ("m", "t", "a") and call is not None:
            want = dict(zip(("m", "t", "a"), call, strict=True))[name]
            row.status = "ok" if value == want else "mismatch"
            row.note = "matches the call" if value == want else f"the call gives {want!r}"
        elif name in ("m", "t", "a"):
            row.status, row.note = "unknown", "call not given"
        elif name == "aud":
            if audience is UNKNOWN:
                row.status, row.note = "unknown", "server not given"
            else:
                row.status = "ok" if value == audience else "mismatch"
                row.note = "this server's audience" if value == audience else f"the server expects {audience!r}"
        elif name in ("iat", "exp"):
            row.note = when(value) or "not a time"
        rows.append(row)
    for name in claims:
        if name not in _MEANINGS:
            rows.append(ClaimRow(name, claims[name], "not an SDK claim (ignored by the boundary)"))


def decode_inner(report: TokenReport, texts: Mapping[str, str]) -> None:
    """Classify `report.inner_state`; resolver state becomes one row per question (text from the flow)."""
    inner = report.inner_state
    if inner is None:
        return
    try:
        state = json.loads(inner)
    except (ValueError, RecursionError):
        state = None
    if not (isinstance(state, dict) and state.get("v") == RESOLVER_STATE_VERSION):
        report.inner_kind = "handmade"
        return
    outcomes, asked = state.get("outcomes", {}), state.get("asked", {})
    if not isinstance(outcomes, dict) or not isinstance(asked, dict):
        report.inner_kind = "handmade"
        return
    report.inner_kind = "resolver"
    for key in [*outcomes, *(k for k in asked if k not in outcomes)]:
        row = QuestionRow(key=str(key), question=texts.get(str(key)))
        entry = outcomes.get(key)
        if isinstance(entry, dict):
            row.answered, row.action, row.data = True, entry.get("action"), entry.get("data")
            row.pinned = entry.get("q") if isinstance(entry.get("q"), str) else None
        digest = asked.get(key)
        row.asked = digest if isinstance(digest, str) else None
        report.questions.append(row)


def question_texts(rounds: Any) -> dict[str, str]:
    """Key -> question text for every input request a flow's rounds carried (the latest wins).

    Matched by key, not digest: the server digests its own rendering, and the client's parsed copy may
    drop fields (a schema's "title"), so the digest cannot be recomputed from what the client kept.
    """
    found: dict[str, str] = {}
    for rnd in rounds or []:
        for key, request in (getattr(rnd, "input_requests", None) or {}).items():
            if isinstance(request, dict):
                found[str(key)] = _question_text(request)
    return found


def _question_text(request: dict[str, Any]) -> str:
    params = request.get("params") or {}
    method = request.get("method", "")
    if method == "elicitation/create":
        return str(params.get("message") or params.get("url") or "elicitation")
    if method == "sampling/createMessage":
        return f"sampling: {len(params.get('messages', []))} message(s)"
    return "list roots"
