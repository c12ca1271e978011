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

import base64
import hashlib
import json
from collections.abc import Mapping
from math import isfinite

from mcp.server.request_state import _principal_matches  # private, pinned to mcp==2.3.0

from mcp_lab.json_types import JsonValue
from mcp_lab.tokens.record import CheckRecord
from mcp_lab.tokens.report import TokenReport

__all__ = [
    "FUTURE_SKEW",
    "UNKNOWN",
    "check_claims",
    "request_identity",
]

FUTURE_SKEW = 60.0
"""`_FUTURE_SKEW`: how far in the future an `iat` may lie (clock skew between instances)."""
ENVELOPE_VERSION = 1
_NUMBER = (int, float)  # what the SDK's isinstance(x, int | float) admits (bool included)
# Checks that read the same every time (CheckRecord is frozen, so reports share them).
_VERSION_OK = CheckRecord(step="version", status="pass", reason=None, detail="v=1 with iat, exp and s present")
_ISSUED_OK = CheckRecord(step="issued-at", status="pass", reason=None, detail="iat is not after now + 60 s of clock skew")
_EXPIRY_OK = CheckRecord(step="expiry", status="pass", reason=None, detail="now < exp")
_BINDING_OK = CheckRecord(step="request binding", status="pass", reason=None, detail="same method, target and arguments digest")
_BINDING_UNKNOWN = CheckRecord(step="request binding", status="unknown", reason=None, detail="pass call= (the flow, or method/target/args)")
_AUDIENCE_UNKNOWN = CheckRecord(step="audience", status="unknown", reason=None, detail="pass server= or audience=")


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: object = _Unknown()
"""Marks an input the lab does not have (an audience, a principal, the call)."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""`compact_json(args, sort_keys=True)`: the SDK's canonical form for the arguments digest."""


def request_identity(method: str, target: str, arguments: Mapping[str, JsonValue] | None) -> tuple[str, str]:
    """(target, args digest) exactly as the SDK's private `_request_identity` computes it: SHA-256 of
    `compact_json(args, sort_keys=True)`, first 16 bytes, unpadded base64url (a test holds the two equal)."""
    args = {} if method == "resources/read" else (arguments or {})
    digest = hashlib.sha256(_CANONICAL.encode(args).encode()).digest()[:16]
    return str(target), base64.urlsafe_b64encode(digest).decode().rstrip("=")


def passed(step: str, detail: str) -> CheckRecord:
    return CheckRecord(step=step, status="pass", reason=None, detail=detail)


def _fail(report: TokenReport, step: str, reason: str, detail: str) -> None:
    report.checks.append(CheckRecord(step=step, status="fail", reason=reason, detail=detail))


def check_claims(
    report: TokenReport,
    payload: bytes,
    now: float,
    call: tuple[str, str, str] | None,
    audience: object,
    principal: object,
    principal_note: str,
    principal_assumed: bool = False,
) -> None:
    """Append the checks after the codec; `call` is (method, target, args digest) or None."""
    checks = report.checks
    try:
        claims = json.loads(payload)
        version, iat, exp, inner = claims["v"], claims["iat"], claims["exp"], claims["s"]
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        what = f"claim {exc} is missing" if isinstance(exc, KeyError) else "it is not a JSON object of claims"
        _fail(report, "version", "malformed", f"the payload opened, but {what}")
        return
    report.claims, report.opened = claims, True
    if isinstance(iat, _NUMBER) and isinstance(exp, _NUMBER) and isfinite(iat) and isfinite(exp):
        report.ttl, report.ttl_left = round(exp - iat, 6), round(exp - now, 6)
    if version != ENVELOPE_VERSION or not isinstance(inner, str):
        bad = f"v={version!r}, expected 1" if version != ENVELOPE_VERSION else "s is not a string"
        _fail(report, "version", "malformed", bad)
        return
    checks.append(_VERSION_OK)
    report.inner_state = inner
    if not isinstance(iat, _NUMBER) or not (iat <= now + FUTURE_SKEW):
        _fail(report, "issued-at", "minted in the future", "iat lies more than 60 s after now")
        return
    checks.append(_ISSUED_OK)
    if not isinstance(exp, _NUMBER) or not (now < exp):
        _fail(report, "expiry", "expired", "now is past exp: re-sealed every round, so this round took too long")
        return
    checks.append(_EXPIRY_OK)
    unknown_before = False
    if call is None:
        checks.append(_BINDING_UNKNOWN)
        report.cannot_know.append("whether m/t/a match the request: the call was not given")
        unknown_before = True
    elif claims.get("m") != call[0] or claims.get("t") != call[1] or claims.get("a") != call[2]:
        wrong = [c for c, want in zip(("m", "t", "a"), call, strict=True) if claims.get(c) != want]
        _fail(report, "request binding", "request binding", f"{', '.join(wrong)} differ from this request")
        return
    else:
        checks.append(_BINDING_OK)
    if audience is UNKNOWN:
        checks.append(_AUDIENCE_UNKNOWN)
        report.cannot_know.append("the server's audience (its name): pass server= or audience=")
        unknown_before = True
    elif claims.get("aud") != audience:
        _mark(report, unknown_before, "audience", "audience", f"aud is not {audience!r}")
        return
    else:
        checks.append(passed("audience", f"aud is {audience!r}"))
    _check_principal(report, claims.get("p"), principal, principal_note, unknown_before, principal_assumed)


def _mark(report: TokenReport, uncertain: bool, step: str, reason: str, detail: str) -> None:
    if uncertain:
        detail += " (unless an unchecked step above fails first)"
    _fail(report, step, reason, detail)


def _check_principal(
    report: TokenReport, claim: JsonValue, principal: object, note: str, uncertain: bool, assumed: bool
) -> None:
    if principal is UNKNOWN:
        if claim is None and assumed:
            report.checks.append(passed("principal", note))
            return
        report.checks.append(CheckRecord(step="principal", status="unknown", reason=None, detail=note))
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
        if not isinstance(claim, str) or not isinstance(principal, str) or not _principal_matches(claim, principal):
            _mark(report, uncertain, "principal", "principal", f"the tag was not made for {principal!r}")
            return
        report.checks.append(passed("principal", f"tag matches {principal!r} ({note})"))
        return
    report.checks.append(passed("principal", f"no principal on either side ({note})"))
