"""`inspect_token`: a sealed request_state opened by its server's owner, checked as the server checks it.

Spec context: 2026-07-28 multi round-trip requests make `requestState` an opaque token only the server
reads; a client must never parse it. The lab *is* the owner of its sandbox servers and holds their key
rings, so it may open what they sealed and show, for any string: its anatomy (keyless), the ring slot that
sealed it, the claims and the resolver questions inside, and the boundary's checklist in
`RequestStateBoundary._unseal`'s order (mcp 2.3.0) with the exact reason the server would log. Without a
key the report says what it cannot know. It never raises on the token, whatever it is.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from mcp.server.mcpserver import (
    AESGCMRequestStateCodec,
    InvalidRequestState,
    RequestStateBoundary,
    authenticated_principal,
)

from mcp_lab.errors import LabError
from mcp_lab.flow import Flow, Round
from mcp_lab.inspect.anatomy import AES_LABEL, AES_PREFIX, Anatomy, aes_anatomy, keyless_anatomy, quick_key_id
from mcp_lab.inspect.claims import UNKNOWN, check_claims, question_texts, request_identity
from mcp_lab.inspect.report import STEPS, Check, Status, TokenReport
from mcp_lab.keys import KeyRing
from mcp_lab.sandbox import LabServer, sandbox

__all__ = ["UNKNOWN", "boundary_of", "inspect_token"]

DANGER = (
    "requestState is attacker-controlled (spec): this server has no RequestStateBoundary, so any client "
    "can read this state and send back whatever it likes, and the handler will believe it. Seal it: "
    "server.middleware.append(RequestStateBoundary(RequestStateSecurity(keys=[...]), default_audience=name))."
)


class _Infer:
    def __repr__(self) -> str:
        return "<infer>"


_INFER: Any = _Infer()


@dataclass
class _Context:
    server: str | None = None
    opener: str = "keyless"
    codec: Any = None
    ring_ids: list[str] = field(default_factory=list)
    can_open: str = ""
    audience: Any = UNKNOWN
    principal: Any = UNKNOWN
    principal_note: str = "pass server= or principal= to check it"
    principal_assumed: bool = False
    call: tuple[str, str, str] | None = None
    texts: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@lru_cache(maxsize=32)
def _ring_codec(keys: tuple[bytes, ...]) -> AESGCMRequestStateCodec:
    return AESGCMRequestStateCodec(list(keys))


_RINGS: dict[int, tuple[KeyRing, AESGCMRequestStateCodec, list[str]]] = {}


def _ring_opener(ring: KeyRing) -> tuple[AESGCMRequestStateCodec, list[str]]:
    """The SDK codec for a ring (built once per ring: key derivation is the slow part) and its key ids."""
    hit = _RINGS.get(id(ring))
    if hit is None or hit[0] is not ring:
        if len(_RINGS) >= 32:
            _RINGS.clear()
        hit = _RINGS[id(ring)] = (ring, _ring_codec(tuple(ring.secret_keys())), list(ring.ids))
    return hit[1], hit[2]


def boundary_of(entry: Any) -> RequestStateBoundary | None:
    """The RequestStateBoundary in a sandbox server's middleware chain (None: plaintext state)."""
    for middleware in getattr(entry.lowlevel, "middleware", []):
        if isinstance(middleware, RequestStateBoundary):
            return middleware
    return None


def _lab_server(server: Any) -> Any:
    if isinstance(server, str):
        return sandbox.get(server)
    if isinstance(server, LabServer):
        return server
    raise LabError(f"server= takes a sandbox server's name or LabServer, not {type(server).__name__}")


def _from_flow(token: Any) -> tuple[Any, Any]:
    """A Flow or Round given as the token: its latest sealed token, and the flow as the call."""
    if isinstance(token, str) or token is None:
        return token, None
    if isinstance(token, Round):
        return (token.request_state if token.request_state is not None else token.sent_request_state), None
    if isinstance(token, Flow):
        for rnd in reversed(token.rounds):
            if rnd.request_state is not None:
                return rnd.request_state, token
        return None, token
    return token, None


def _call_identity(call: Any, ctx: _Context) -> None:
    rounds = None
    if isinstance(call, (tuple, list)) and len(call) in (2, 3):
        method, target, arguments = (*call, None) if len(call) == 2 else call
    elif isinstance(call, Mapping):
        method = call.get("method", "tools/call")
        target = call.get("target", call.get("name", call.get("uri")))
        arguments = call.get("arguments")
    elif all(hasattr(call, a) for a in ("method", "target", "arguments")):
        method, target, arguments = call.method, call.target, call.arguments
        rounds = getattr(call, "rounds", None)
        if method == "prompts/get":  # the flow engine sends prompt arguments as strings
            arguments = {k: str(v) for k, v in (arguments or {}).items()}
    else:
        raise LabError("call= takes a Flow, (method, target, arguments), or {'method', 'target', 'arguments'}")
    if not isinstance(method, str) or not isinstance(target, str):
        raise LabError("call= needs a method and a target (tool or prompt name, or resource URI) as strings")
    if arguments is not None and not isinstance(arguments, dict) and not isinstance(arguments, Mapping):
        raise LabError(f"call arguments must be a dict, not {type(arguments).__name__}")
    try:
        target, digest = request_identity(method, target, arguments)
    except (TypeError, ValueError) as exc:
        ctx.notes.append(f"the call's arguments are not JSON ({exc}); request binding not checked")
        return
    ctx.call = (method, target, digest)
    ctx.texts = question_texts(rounds)


def _principal_from(bind: Any, ctx: _Context) -> None:
    if bind is None:
        ctx.principal, ctx.principal_note = None, "the server binds no principal"
    elif bind is authenticated_principal:
        ctx.principal = None
        ctx.principal_note = "authenticated_principal: the lab's transports carry no OAuth token, so none"
    elif getattr(bind, "mcp_lab_kind", None) == "lab":
        from mcp_lab.principal import current_principal

        ctx.principal = current_principal()
        ctx.principal_note = "the lab identity from set_principal()"
    elif getattr(bind, "mcp_lab_kind", None) == "header":
        ctx.principal_note = f"read per request from header {bind.mcp_lab_header!r}; pass principal="
    else:
        ctx.principal_note = "a custom bind_principal computes it per request; pass principal="


def _context(server: Any, ring: Any, codec: Any, call: Any, principal: Any, audience: Any) -> _Context:
    ctx = _Context()
    entry = _lab_server(server) if server is not None else None
    boundary = boundary_of(entry) if entry is not None else None
    if entry is not None:
        ctx.server = entry.name
        if boundary is None and ring is None and codec is None:
            ctx.opener = "unprotected"
        elif boundary is not None:
            security = boundary._security  # private, pinned to mcp==2.3.0
            ctx.audience = boundary._audience
            _principal_from(security.bind_principal, ctx)
            ctx.codec = security.codec
            ctx.opener = "codec"
            if entry.ring is not None and isinstance(security.codec, AESGCMRequestStateCodec):
                ctx.opener, ctx.ring_ids = "ring", list(entry.ring.ids)
    if codec is not None:
        if not (callable(getattr(codec, "seal", None)) and callable(getattr(codec, "unseal", None))):
            raise LabError("codec= needs an object with seal(bytes) -> str and unseal(str) -> bytes")
        ctx.opener, ctx.codec, ctx.ring_ids = "codec", codec, []
    elif ring is not None:
        ctx.opener = "ring"
        ctx.codec, ctx.ring_ids = _ring_opener(ring if isinstance(ring, KeyRing) else KeyRing.coerce(ring))
    if entry is None and ctx.opener in ("ring", "codec"):
        ctx.principal_assumed = True
        ctx.principal_note = "assumed none (the SDK default without authentication); pass principal= to check"
    if principal is not _INFER:
        if principal is not None and not isinstance(principal, str):
            raise LabError("principal= is the string the server's bind_principal returns, or None")
        ctx.principal, ctx.principal_assumed, ctx.principal_note = principal, False, "as given"
    if audience is not _INFER:
        ctx.audience = audience
    if call is not None:
        _call_identity(call, ctx)
    return ctx


def inspect_token(
    token: Any,
    *,
    server: Any = None,
    ring: Any = None,
    codec: Any = None,
    call: Any = None,
    principal: Any = _INFER,
    audience: Any = _INFER,
    now: float | None = None,
) -> TokenReport:
    """Open and check `token` as its server would. Bad arguments raise LabError; the token never does.

    `token` may also be a Flow or Round (its latest token; the flow then serves as `call`, and its server
    as `server` when the sandbox knows it). `server` is a sandbox name or LabServer; `ring` (a KeyRing or
    keys) or `codec` open the token without a server. `principal` and `audience` override what the lab
    infers; `now` (epoch seconds) fixes the clock.
    """
    token, flow = _from_flow(token)
    if flow is not None:
        call = flow if call is None else call
        if server is None and ring is None and codec is None:
            server = sandbox.servers.get(flow.server)
    ctx = _context(server, ring, codec, call, principal, audience)
    at = time.time() if now is None else float(now)
    try:
        return _inspect(token, ctx, at)
    except Exception as exc:  # the promise is a report for any input; an inspector bug is shown, not raised
        report = TokenReport(
            token=token if isinstance(token, str) else None, length=0, format="error", format_label="inspector error"
        )
        report.notes.append(f"inspector error: {type(exc).__name__}: {exc}")
        report.verdict_detail = "the inspector failed on this input; nothing can be said"
        return report


def _inspect(token: Any, ctx: _Context, now: float) -> TokenReport:
    report = TokenReport(
        token=None, length=0, format="absent", format_label="no token", server=ctx.server, opener=ctx.opener
    )
    report.ring_ids, report.notes, report.question_texts = list(ctx.ring_ids), list(ctx.notes), ctx.texts
    if ctx.call is not None:
        method, target, digest = ctx.call
        report.expected = {"m": method, "t": target, "a": digest}
    if ctx.audience is not UNKNOWN:
        report.expected["aud"] = ctx.audience
    if token is None:
        report.verdict = "ok"
        report.verdict_detail = "no requestState: nothing to verify (JSON null counts as absent); a fresh call"
        return report
    if not isinstance(token, str):
        report.format, report.format_label = "non-string", f"a {type(token).__name__}, not a string"
        report.checks.append(Check("codec", "fail", "non-string requestState", "the wire value must be a string"))
        return _finish(report)
    report.token, report.length = token, len(token)
    key_id = quick_key_id(token) if ctx.opener == "ring" else None
    if key_id is not None:  # the SDK codec is about to check the whole token: the anatomy can wait for a view
        anatomy = Anatomy(format="aes-gcm-v1", label=AES_LABEL, prefix=AES_PREFIX, key_id=key_id, confidential=True)
        report.format, report.format_label, report.prefix = anatomy.format, anatomy.label, AES_PREFIX
        report.key_id, report.confidential = key_id, True
    else:
        anatomy = keyless_anatomy(token)
        _copy_anatomy(report, anatomy)
    if ctx.opener == "unprotected":
        return _unprotected(report, ctx)
    payload: bytes | None = None
    if ctx.opener in ("ring", "codec"):
        _foreign_format(report, anatomy, ctx)
        payload = _unseal(report, token, anatomy, ctx)
    elif anatomy.problem is not None:
        report.checks.append(Check("codec", "fail", anatomy.reason, f"{anatomy.problem} (as its codec would say)"))
    elif anatomy.readable_payload is not None:
        payload = anatomy.readable_payload
        report.checks.append(Check("codec", "unknown", None, "sign-only: readable, but only the key verifies it"))
        report.cannot_know.append("whether these claims are authentic: the signature needs the key")
    else:
        report.checks.append(Check("codec", "unknown", None, "encrypted: pass server= or ring= to open it"))
        report.cannot_know.append("the claims and the inner state: they are encrypted and no key was given")
    report.can_open = _can_open(ctx, anatomy)
    if payload is not None:
        check_claims(
            report,
            payload,
            now=now,
            call=ctx.call,
            audience=ctx.audience,
            principal=ctx.principal,
            principal_note=ctx.principal_note,
            principal_assumed=ctx.principal_assumed,
        )
    return _finish(report)


def _copy_anatomy(report: TokenReport, anatomy: Anatomy) -> None:
    report.format, report.format_label, report.prefix = anatomy.format, anatomy.label, anatomy.prefix
    report.key_id, report.problem, report.confidential = anatomy.key_id, anatomy.problem, anatomy.confidential
    report.__dict__["anatomy"] = anatomy  # primes the cached property: no second parse for the view


def _foreign_format(report: TokenReport, anatomy: Anatomy, ctx: _Context) -> None:
    """Say so when the token is in a format the opener does not speak."""
    own = "aes-gcm-v1" if ctx.opener == "ring" else None
    prefix = getattr(ctx.codec, "prefix", None)
    if ctx.opener == "codec" and isinstance(prefix, str):
        own = anatomy.format if report.token is not None and report.token.startswith(prefix) else "other"
    if own is not None and anatomy.format != own and anatomy.format not in ("plaintext", "empty"):
        opener = "the ring's SDK codec" if ctx.opener == "ring" else getattr(ctx.codec, "label", "this codec")
        report.notes.append(f"this token looks like {anatomy.label}; {opener} cannot open that format")


def _unseal(report: TokenReport, token: str, anatomy: Anatomy, ctx: _Context) -> bytes | None:
    if anatomy.key_id is not None and anatomy.key_id in ctx.ring_ids:
        report.slot = ctx.ring_ids.index(anatomy.key_id)
    try:
        payload = ctx.codec.unseal(token)
    except InvalidRequestState as exc:
        reason = str(exc)
        if reason == "malformed" and anatomy.problem is None and token.startswith(AES_PREFIX):
            anatomy = aes_anatomy(token)  # now the full check, for its explanation
            _copy_anatomy(report, anatomy)
        detail = {
            "malformed": anatomy.problem or "the codec found it malformed",
            "unknown key": "the sealing key's id is in no slot of this ring (a restart, or another service)",
            "seal": "the tag does not verify: the token was altered after sealing",
        }.get(reason, f"the codec refused it: {reason}")
        report.checks.append(Check("codec", "fail", reason, detail))
        return None
    except Exception as exc:  # the boundary fails closed on a codec bug, logging "codec error"
        report.checks.append(Check("codec", "fail", "codec error", f"the codec raised {type(exc).__name__}"))
        return None
    if not isinstance(payload, (bytes, bytearray)):
        report.checks.append(Check("codec", "fail", "malformed", "the codec returned no bytes"))
        return None
    report.verified = True
    where = f"ring slot {report.slot}" if report.slot is not None else "the codec"
    report.checks.append(Check("codec", "pass", None, f"opened and authenticated by {where}"))
    return bytes(payload)


def _can_open(ctx: _Context, anatomy: Anatomy) -> str:
    if ctx.opener == "ring":
        return f"the ring's {len(ctx.ring_ids)} key(s) [{', '.join(ctx.ring_ids)}]: slot 0 seals, every slot opens"
    if ctx.opener == "codec":
        known = getattr(ctx.codec, "can_open", None)
        label = getattr(ctx.codec, "label", type(ctx.codec).__name__)
        if known:
            return f"{label}: {known}; the lab holds this codec, so it opens and verifies its own tokens"
        return f"{label}: opaque to the lab, its unseal() decides what opens"
    if anatomy.format == "hmac-sign-only":
        return "the claims of a sign-only token are readable anyway, but not verifiable"
    if anatomy.format in ("plaintext", "empty"):
        return "none needed to read it: this is not sealed"
    return "past the prefix" + (" and the key id" if anatomy.key_id else "") + " everything is encrypted"


def _unprotected(report: TokenReport, ctx: _Context) -> TokenReport:
    report.opened, report.inner_state, report.danger = True, report.token, DANGER
    report.can_open = "nothing to open: the server sends and accepts its state in plaintext"
    for step in STEPS:
        report.checks.append(Check(step, "skipped", None, "no RequestStateBoundary on this server"))
    if report.format == "aes-gcm-v1":
        report.notes.append("this looks sealed, but this server hands it to its handler verbatim")
    report.verdict = "ok"
    report.verdict_detail = "accepted unverified: the handler reads exactly what the client sent"
    return report


def _finish(report: TokenReport) -> TokenReport:
    checks = report.checks
    failed, unknown_first = None, False
    for check in checks:
        if check.status == "fail":
            failed = check
            break
        unknown_first = unknown_first or check.status == "unknown"
    if len(checks) < len(STEPS):
        status: Status = "not reached" if failed is not None else "unknown"
        detail = "" if failed is not None else "needs the claims"
        checks += [Check(step, status, None, detail) for step in STEPS[len(checks) :]]
        unknown_first = unknown_first or failed is None
    if failed is not None:
        report.verdict = failed.reason or "unknown"
        report.verdict_detail = f"rejected at {failed.step}: {failed.detail}"
        if unknown_first:
            report.verdict_detail += "; an unchecked earlier step could fail first with another reason"
    elif unknown_first:
        report.verdict, report.verdict_detail = "unknown", "the lab cannot decide: " + "; ".join(report.cannot_know)
    else:
        report.verdict = "ok"
        report.verdict_detail = "accepted: the handler will see the inner state as plaintext"
    return report
