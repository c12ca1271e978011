"""Checks of requestState: refused when tampered, bound to its request, expiring, and opaque.

Spec sections served (`basic/patterns/mrtr.mdx`): Server Requirements (Basic Workflow) item 4 and Security
Considerations (attacker-controlled input; integrity protected; state that fails verification rejected),
item 5 (SHOULD: bound to the originating request; a short expiry), and the SDK docs' opaque token (flagged).
Why this way: each probe repeats a recorded call up to its first retry that echoes a token, sends that retry
with the token changed, and compares the answer with what the untouched retry got. An error is a refusal;
the same result means the state mattered to nothing (integrity MAY then be omitted: warn); a different
result means the handler acted on a forged state (fail).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio

from mcp_lab.audit.context import Context, check, label, not_applicable, probe
from mcp_lab.audit.legs import Leg, Replayed, same_outcome
from mcp_lab.audit.model import AuditCheck, AuditProbe, Verdict
from mcp_lab.audit.tokens import edits, flip_bit, reveal, splice, truncate
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.protocol.anatomy import keyless_anatomy

__all__ = ["state_binding", "state_integrity", "state_lifetime", "state_readable"]

Pair = tuple[Flow, Replayed]


def _echoes_state(flow: Flow, honest: Replayed) -> bool:
    """The honest replay sent at least one retry echoing a requestState."""
    return any(r.sent_request_state is not None for r in honest.flow.rounds)


def _retry(honest: Replayed) -> Round | None:
    return next((r for r in honest.flow.rounds if r.sent_request_state is not None), None)


def judge(rnd: Round | None, reference: Round | None) -> tuple[Verdict, str]:
    """A retry sent with a token it should not have: refused, asked again, or acted on."""
    if rnd is None:
        return "n/a", "the retry was not reached"
    if rnd.outcome == "error":
        return "pass", "refused"
    if rnd.outcome == "input_required":
        return "warn", "not refused with an error: the server asked again"
    if same_outcome(rnd, reference):
        return "warn", "accepted, with the same result as the genuine token (MAY only if nothing worse than failure)"
    return "fail", "accepted, and the result changed: the handler acted on it"


def _with_token(token: str) -> Callable[[Leg], Awaitable[Leg]]:
    async def change(leg: Leg) -> Leg:
        leg.request_state = token
        return leg

    return change


async def _stop(_: Leg) -> None:
    return None


async def _token_of(ctx: Context, flow: Flow) -> str | None:
    """A fresh token of `flow`: the call repeated up to its first retry, which is not sent."""
    held = (await ctx.replayer.replay(flow, at="state", change=_stop)).held
    return held.request_state if held is not None else None


async def _send_with(
    ctx: Context, check_id: str, flow: Flow, honest: Replayed, name: str, token: str, how: str
) -> AuditProbe:
    sent = await ctx.replayer.replay(flow, at="state", change=_with_token(token), note=f"audit: requestState {how}")
    ctx.keep(check_id, sent.flow)
    verdict, note = judge(sent.probe, _retry(honest))
    return probe(name, f"{label(flow)}, first retry, requestState {how}", sent.probe, verdict, note, sent.flow)


def _skipped(name: str, why: str) -> AuditProbe:
    record = probe(name, "nothing (not applicable)", None, "n/a", why)
    record.came_back = "-"
    return record


async def state_integrity(ctx: Context) -> AuditCheck:
    pairs = ctx.pick(_echoes_state)[:1]
    if not pairs:
        return not_applicable("state-integrity", "no recorded call echoed a requestState")
    flow, honest = pairs[0]
    first, second = await _token_of(ctx, flow), await _token_of(ctx, flow)
    if first is None:
        return not_applicable("state-integrity", f"{label(flow)} no longer returns a requestState")
    probes = []
    for name, (token, how) in (("one bit flipped", flip_bit(first)), ("truncated", truncate(first))):
        probes.append(await _send_with(ctx, "state-integrity", flow, honest, name, token, how))
    if second is None or second == first:
        probes.append(_skipped("spliced with another token", "the server minted the same token twice"))
    else:
        token, how = splice(first, second)
        probes.append(await _send_with(ctx, "state-integrity", flow, honest, "spliced with another token", token, how))
    changed = edits(first)
    if not changed:
        probes.append(_skipped("a readable value edited", "the token shows nothing readable to edit"))
    for token, how in changed:
        probes.append(await _send_with(ctx, "state-integrity", flow, honest, "a readable value edited", token, how))
    return check("state-integrity", probes, _summary(probes, "tampered requestState"))


def _summary(probes: list[AuditProbe], what: str) -> str:
    ran = [p for p in probes if p.verdict != "n/a"]
    acted = [p.name for p in ran if p.verdict == "fail"]
    if acted:
        return f"the handler acted on a {what}: {', '.join(acted)}"
    accepted = [p.name for p in ran if p.verdict == "warn"]
    if accepted:
        return f"a {what} was not refused ({', '.join(accepted)}), though the outcome did not change"
    return f"every {what} was refused ({len(ran)} probe(s))" if ran else f"no {what} could be sent"


def _other_tool(pairs: list[Pair]) -> tuple[Pair, Pair] | None:
    for a in pairs:
        for b in pairs:
            if (a[0].method, a[0].target) != (b[0].method, b[0].target):
                return a, b
    return None


def _other_arguments(pairs: list[Pair]) -> tuple[Pair, Pair] | None:
    for a in pairs:
        for b in pairs:
            same_call = (a[0].method, a[0].target) == (b[0].method, b[0].target)
            if same_call and a[0].arguments != b[0].arguments:
                return a, b
    return None


async def state_binding(ctx: Context) -> AuditCheck:
    pairs = ctx.pick(_echoes_state)
    if not pairs:
        return not_applicable("state-binding", "no recorded call echoed a requestState")
    probes: list[AuditProbe] = []
    cases = (
        ("from another tool", _other_tool(pairs), "record calls of two tools that ask questions"),
        ("with other arguments", _other_arguments(pairs), "record the same call twice with other arguments"),
    )
    for name, found, hint in cases:
        if found is None:
            probes.append(_skipped(name, f"no two recorded calls for this ({hint})"))
            continue
        (minted, _), (target, target_honest) = found
        token = await _token_of(ctx, minted)
        if token is None:
            probes.append(_skipped(name, f"{label(minted)} no longer returns a requestState"))
            continue
        how = f"minted for {label(minted)}"
        probes.append(await _send_with(ctx, "state-binding", target, target_honest, name, token, how))
    if all(p.verdict == "n/a" for p in probes):
        return check("state-binding", probes, "no pair of recorded calls to swap tokens between")
    return check("state-binding", probes, _summary(probes, "requestState from another request"))


def _margin(lifetime: float) -> float:
    return max(1.0, lifetime * 0.1)


async def state_lifetime(ctx: Context) -> AuditCheck:
    pairs = ctx.pick(_echoes_state)[:1]
    if not pairs:
        return not_applicable("state-lifetime", "no recorded call echoed a requestState")
    if ctx.lifetime is None:
        return not_applicable(
            "state-lifetime", "the server's requestState lifetime is unknown: give lifetime=SECONDS (--lifetime)"
        )
    wait = ctx.lifetime + _margin(ctx.lifetime)
    if wait > ctx.max_wait:
        return not_applicable(
            "state-lifetime",
            f"skipped: a token {ctx.lifetime:g} s plausibly lives would take a {wait:g} s wait, longer than "
            f"max_wait={ctx.max_wait:g} s (raise it, or audit a server with a shorter ttl)",
        )
    flow, honest = pairs[0]

    async def late(leg: Leg) -> Leg:
        await anyio.sleep(wait)  # the kernel's loop keeps running: the wait is an await, not a block
        return leg

    sent = await ctx.replayer.replay(flow, at="state", change=late, note=f"audit: retried {wait:g} s after minting")
    ctx.keep("state-lifetime", sent.flow)
    verdict, note = judge(sent.probe, _retry(honest))
    if verdict == "warn" and sent.probe is not None and sent.probe.outcome == "result":
        verdict, note = "fail", f"accepted {wait:g} s after it was minted"
    elif verdict == "fail":
        note = f"accepted {wait:g} s after it was minted, and the result changed"
    sent_text = f"{label(flow)}, first retry sent {wait:g} s after its requestState was minted"
    record = probe(f"reused after {wait:g} s", sent_text, sent.probe, verdict, note, sent.flow)
    return check("state-lifetime", [record], f"a token past its plausible lifetime ({ctx.lifetime:g} s): {note}")


async def state_readable(ctx: Context) -> AuditCheck:
    seen: dict[tuple[str, str], tuple[Flow, str]] = {}
    for flow, honest in zip(ctx.flows, ctx.honest, strict=True):
        token = next((r.request_state for r in honest.flow.rounds if r.request_state), None)
        if token is not None:
            seen.setdefault((flow.method, flow.target), (honest.flow, token))
    if not seen:
        return not_applicable("state-readable", "no recorded call got a requestState")
    probes = []
    for (method, target), (flow, token) in seen.items():
        shown = reveal(token)
        sent = f"{label(flow)} (the recorded call, unchanged)"
        if shown is None:
            record = probe(f"{method} {target}", sent, None, "pass")
            record.came_back = f"an opaque requestState ({len(token)} chars): nothing readable"
        else:
            anatomy = keyless_anatomy(token)  # the inspector's reading: which format, who can read it
            said = f"{anatomy.label} — {anatomy.statement}" if anatomy.statement else "anyone holding the token reads this"
            note = f"{said}; integrity is checked separately (state-integrity)"
            record = probe(f"{method} {target}", sent, None, "warn", note, flow)
            record.came_back = shown.describe()
        probes.append(record)
    readable = [p.name for p in probes if p.verdict == "warn"]
    summary = f"readable requestState: {', '.join(readable)}" if readable else "every requestState is opaque"
    return check("state-readable", probes, summary)
