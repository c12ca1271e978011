"""`inspect_token`: a sealed request_state opened by its server's owner, checked as the server checks it.

Spec context: 2026-07-28 multi round-trip requests make `requestState` an opaque token only the server
reads; a client must never parse it. The lab *is* the owner of its sandbox servers and holds their key
rings, so it may open what they sealed and show, for any string: its anatomy (keyless), the ring slot that
sealed it, the claims and the resolver questions inside, and the boundary's checklist in
`RequestStateBoundary._unseal`'s order (mcp 2.3.0) with the exact reason the server would log. Without a
key the report says what it cannot know. It never raises on the token, whatever it is.
"""

from __future__ import annotations

import math
import time

from mcp.server.mcpserver import InvalidRequestState

from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.protocol.token_parts import Anatomy
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.claims import UNKNOWN, check_claims, passed
from mcp_lab.tokens.codec import DescribedCodec, codec_label
from mcp_lab.tokens.context import INFER, Context, from_flow, resolve_context
from mcp_lab.tokens.record import CheckRecord
from mcp_lab.tokens.report import STEPS, Status, TokenReport

__all__ = ["UNKNOWN", "inspect_token"]

DANGER = (
    "requestState is attacker-controlled (spec): this server has no RequestStateBoundary, so any client "
    "can read this state and send back whatever it likes, and the handler will believe it. Seal it: "
    "server.middleware.append(RequestStateBoundary(RequestStateSecurity(keys=[...]), default_audience=name))."
)


def inspect_token(
    token: object,
    *,
    server: object = None,
    ring: object = None,
    codec: object = None,
    call: object = None,
    principal: object = INFER,
    audience: object = INFER,
    now: float | None = None,
) -> TokenReport:
    """Open and check `token` as its server would. Bad arguments raise LabError; the token never does.

    `token` may also be a Flow or Round (its latest token; the flow then serves as `call`, and its server
    as `server` when the sandbox knows it). `server` is a sandbox name or LabServer; `ring` (a KeyRing or
    keys) or `codec` open the token without a server. `principal` and `audience` override what the lab
    infers; `now` (epoch seconds) fixes the clock.
    """
    flow = None
    if type(token) is not str:
        token, flow = from_flow(token)
    if flow is not None:
        call = flow if call is None else call
        if server is None and ring is None and codec is None:
            server = sandbox.servers.get(flow.server)
    ctx = resolve_context(server, ring, codec, call, principal, audience)
    at = time.time() if now is None else _epoch(now)
    try:
        return _inspect(token, ctx, at, flow if flow is not None else call).settle()
    except Exception as exc:  # the promise is a report for any input; an inspector bug is shown, not raised
        report = TokenReport.begin(
            token=token if isinstance(token, str) else None, length=0, format="error", format_label="inspector error"
        )
        report.notes.append(f"inspector error: {type(exc).__name__}: {exc}")
        report.verdict_detail = "the inspector failed on this input; nothing can be said"
        return report.settle()


def _epoch(now: object) -> float:
    """`now=` is a point in time: epoch seconds (a finite number) or a datetime."""
    if hasattr(now, "timestamp") and callable(now.timestamp):
        return float(now.timestamp())
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise LabError(f"now= must be epoch seconds (a number, e.g. time.time()) or a datetime, not {now!r}")
    return float(now)


def _inspect(token: object, ctx: Context, now: float, carrier: object = None) -> TokenReport:
    expected: JsonObject = {}
    if ctx.call is not None:
        method, target, digest = ctx.call
        expected = {"m": method, "t": target, "a": digest}
    if ctx.audience is not UNKNOWN:
        expected["aud"] = ctx.audience
    report = TokenReport.begin(
        token=None, length=0, format="absent", format_label="no token", server=ctx.server, opener=ctx.opener
    )
    if ctx.ring_ids:
        report.ring_ids = list(ctx.ring_ids)
    if ctx.notes:
        report.notes = list(ctx.notes)
    if ctx.texts:
        report.question_texts = ctx.texts
    if expected:
        report.expected = expected
    if token is None:
        report.verdict = "ok"
        report.verdict_detail = "no requestState: nothing to verify (JSON null counts as absent); a fresh call"
        return report
    if not isinstance(token, str):
        report.format, report.format_label = "non-string", f"a {type(token).__name__}, not a string"
        report.checks.append(CheckRecord(step="codec", status="fail", reason="non-string requestState", detail="the wire value must be a string"))
        return _finish(report)
    report.token, report.length = token, len(token)
    anatomy = keyless_anatomy(token)
    _copy_anatomy(report, anatomy)
    if ctx.opener == "unprotected":
        return _unprotected(report, ctx)
    payload: bytes | None = None
    if ctx.opener in ("ring", "codec") and ctx.codec is not None:  # the server's own codec decides, as the boundary's would
        _foreign_format(report, anatomy, ctx)
        try:
            opened = ctx.codec.unseal(token)
        except Exception as exc:
            _refused(report, anatomy, ctx, exc)
        else:
            payload = _opened(report, anatomy, ctx, opened)
    elif anatomy.problem is not None:
        report.checks.append(CheckRecord(step="codec", status="fail", reason=anatomy.reason, detail=f"{anatomy.problem} (as its codec would say)"))
    elif anatomy.format in FOREIGN:
        return _foreign(report, anatomy, flow_of(carrier, token))
    elif anatomy.readable_payload is not None:
        payload = anatomy.readable_payload
        report.checks.append(CheckRecord(step="codec", status="unknown", reason=None, detail="sign-only: readable, but only the key verifies it"))
        report.cannot_know.append("whether these claims are authentic: the signature needs the key")
    else:
        report.checks.append(CheckRecord(step="codec", status="unknown", reason=None, detail="encrypted: pass server= or ring= to open it"))
        report.cannot_know.append("the claims and the inner state: they are encrypted and no key was given")
    report.can_open = _can_open(ctx, anatomy)
    if payload is not None:
        _check_claims(report, payload, now, ctx)
    return _finish(report)


FOREIGN = ("signed-v1", "jws", "jwe", "json", "plaintext", "opaque")
"""Formats of other servers (protocol.structure): the Python SDK boundary's checks are not theirs."""


def flow_of(call: object, token: str) -> object:
    """The flow that carried `token`, when the call given is one (it shows whether the server took it)."""
    return call if hasattr(call, "rounds") and any(r.request_state == token for r in call.rounds) else None


def _foreign(report: TokenReport, anatomy: Anatomy, flow: object) -> TokenReport:
    """Another server's format: read what anyone can, say who can read it, leave the verdict to its server."""
    # Its claims stay on the anatomy (report.anatomy.claims), said in plain words in the notes: the claim
    # rows explain the Python SDK's claims (`p` there is a principal tag, here the state itself).
    statement = anatomy.statement or "a format the lab does not know"
    report.checks.append(CheckRecord(step="codec", status="unknown", reason=None, detail=statement))
    for step in STEPS[1:]:
        report.checks.append(CheckRecord(step=step, status="unknown", reason=None, detail="another server's format: its own checks apply"))
    report.notes += [statement, *anatomy.carries]
    if anatomy.sdk_refusal:
        report.notes.append(anatomy.sdk_refusal)
    report.can_open = statement
    accepted = _accepted_in(flow, report.token if isinstance(report.token, str) else None)
    if accepted is not None:
        report.notes.append(accepted)
        report.verdict, report.verdict_detail = "unknown", f"{anatomy.label}: {accepted}"
        return report
    report.cannot_know.append("whether its server accepts it: only that server holds the key")
    report.verdict, report.verdict_detail = "unknown", f"{anatomy.label}: only the server that issued it can verify it"
    return report


def _accepted_in(flow: object, token: str | None) -> str | None:
    rounds = list(getattr(flow, "rounds", None) or [])
    for i, rnd in enumerate(rounds):
        if rnd.request_state == token and i + 1 < len(rounds) and rounds[i + 1].sent_request_state == token:
            after = rounds[i + 1]
            if after.outcome != "error":
                return f"the server accepted it: round {i + 2} sent it back and got {after.outcome.replace('_', ' ')}"
            return f"round {i + 2} sent it back and the server answered an error"
    return None


def _check_claims(report: TokenReport, payload: bytes, now: float, ctx: Context) -> None:
    check_claims(report, payload, now, ctx.call, ctx.audience, ctx.principal, ctx.principal_note, ctx.principal_assumed)


def _copy_anatomy(report: TokenReport, anatomy: Anatomy) -> None:
    report.format, report.format_label, report.prefix = anatomy.format, anatomy.label, anatomy.prefix
    report.key_id, report.problem, report.confidential = anatomy.key_id, anatomy.problem, anatomy.confidential
    report.anatomy = anatomy


def _foreign_format(report: TokenReport, anatomy: Anatomy, ctx: Context) -> None:
    """Say so when the token is in a format the opener does not speak."""
    own = "aes-gcm-v1" if ctx.opener == "ring" else None
    described = ctx.codec if isinstance(ctx.codec, DescribedCodec) else None
    if ctx.opener == "codec" and described is not None:
        own = anatomy.format if isinstance(report.token, str) and report.token.startswith(described.prefix) else "other"
    if own is not None and anatomy.format != own and anatomy.format not in ("plaintext", "empty"):
        opener = "the ring's SDK codec" if ctx.opener == "ring" else (described.label if described else "this codec")
        report.notes.append(f"this token looks like {anatomy.label}; {opener} cannot open that format")


def _slot(report: TokenReport, anatomy: Anatomy, ctx: Context) -> None:
    if anatomy.key_id is not None and anatomy.key_id in ctx.ring_ids:
        report.slot = ctx.ring_ids.index(anatomy.key_id)


def _refused(report: TokenReport, anatomy: Anatomy, ctx: Context, exc: Exception) -> None:
    """The checklist's codec step when the codec refused the token (`exc` is what it raised)."""
    _slot(report, anatomy, ctx)
    if isinstance(exc, InvalidRequestState):
        reason = str(exc)
        detail = {
            "malformed": anatomy.problem or anatomy.sdk_refusal or "the codec found it malformed",
            "unknown key": "the sealing key's id is in no slot of this ring (a restart, or another service)",
            "seal": "the tag does not verify: the token was altered after sealing",
        }.get(reason, f"the codec refused it: {reason}")
        report.checks.append(CheckRecord(step="codec", status="fail", reason=reason, detail=detail))
        return
    # the boundary fails closed on a codec bug, logging "codec error"
    report.checks.append(CheckRecord(step="codec", status="fail", reason="codec error", detail=f"the codec raised {type(exc).__name__}"))


def _opened(report: TokenReport, anatomy: Anatomy, ctx: Context, payload: object) -> bytes | None:
    """The checklist's codec step when the codec returned `payload`."""
    _slot(report, anatomy, ctx)
    if not isinstance(payload, bytes | bytearray):
        report.checks.append(CheckRecord(step="codec", status="fail", reason="malformed", detail="the codec returned no bytes"))
        return None
    report.verified = True
    where = f"ring slot {report.slot}" if report.slot is not None else "the codec"
    report.checks.append(passed("codec", f"opened and authenticated by {where}"))
    return bytes(payload)


def _can_open(ctx: Context, anatomy: Anatomy) -> str:
    if ctx.facts is not None:
        return ctx.facts.can_open
    if ctx.opener == "codec" and ctx.codec is not None:
        label = codec_label(ctx.codec)
        if isinstance(ctx.codec, DescribedCodec) and ctx.codec.can_open:
            return f"{label}: {ctx.codec.can_open}; the lab holds this codec, so it opens and verifies its own tokens"
        return f"{label}: opaque to the lab, its unseal() decides what opens"
    if anatomy.format == "hmac-sign-only":
        return "the claims of a sign-only token are readable anyway, but not verifiable"
    if anatomy.format in ("plaintext", "empty"):
        return "none needed to read it: this is not sealed"
    if anatomy.statement and anatomy.format != "aes-gcm-v1":
        return anatomy.statement
    return "past the prefix" + (" and the key id" if anatomy.key_id else "") + " everything is encrypted"


def _unprotected(report: TokenReport, ctx: Context) -> TokenReport:
    report.opened, report.inner_state, report.danger = True, report.token, DANGER
    report.can_open = "nothing to open: the server sends and accepts its state in plaintext"
    for step in STEPS:
        report.checks.append(CheckRecord(step=step, status="skipped", reason=None, detail="no RequestStateBoundary on this server"))
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
        checks += [CheckRecord(step=step, status=status, reason=None, detail=detail) for step in STEPS[len(checks) :]]
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
