"""Checks of the multi round-trip rules: where InputRequiredResult may appear, what it carries, capabilities,
answers that were not asked or are missing, and retries on a fresh connection.

Spec sections served (`basic/patterns/mrtr.mdx`): Supported Requests (MUST NOT on other requests), Server
Requirements (Basic Workflow) items 2, 6 and 7 (request kinds; inputRequests or requestState; no request the
client did not declare), Error Handling (ignore unexpected answers; ask again for a missing one), and the
Basic Workflow's independence of each request (no session affinity). Why each probe is what it is: it
repeats a recorded call and changes exactly what the rule is about, so a verdict can only come from that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import mcp.types as T
from pydantic import BaseModel, ValidationError

from mcp_lab.audit.context import Context, check, label, not_applicable, probe
from mcp_lab.audit.legs import Leg, Replayed, same_outcome
from mcp_lab.audit.model import AuditCheck, AuditProbe, Verdict
from mcp_lab.audit.reach import RequestSpec
from mcp_lab.flow.flow import Flow
from mcp_lab.json_types import JsonObject, JsonValue

if TYPE_CHECKING:
    from mcp_lab.exchanges.record import HttpExchange

__all__ = [
    "answers_missing",
    "answers_unasked",
    "capabilities",
    "exchange_records",
    "ir_methods",
    "ir_nonempty",
    "ir_request_kinds",
    "no_affinity",
]

LISTINGS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
"""Read-only requests: the audit may send them although nobody recorded them."""
METHOD_NOT_FOUND = -32601
UNASKED_KEY = "mcp-lab-audit:unasked"
_KINDS: dict[str, type[BaseModel]] = {
    "elicitation/create": T.ElicitRequest,
    "sampling/createMessage": T.CreateMessageRequest,
    "roots/list": T.ListRootsRequest,
}
MAX_TARGETS = 3
"""Probes that repeat a first leg do so for at most this many recorded targets (each repeat may act)."""


async def ir_methods(ctx: Context) -> AuditCheck:
    probes: list[AuditProbe] = []
    for method in LISTINGS:
        rnd = await ctx.replayer.send(RequestSpec(method, {}))
        err = rnd.error or {}
        verdict: Verdict
        if rnd.outcome == "input_required":
            verdict, note = "fail", f"an InputRequiredResult on {method}"
        elif rnd.outcome == "error" and err.get("code") == METHOD_NOT_FOUND:
            verdict, note = "pass", "not served here"
        else:
            verdict, note = "pass", ""
        record = probe(method, f"{method} (read-only listing)", rnd, verdict, note)
        if rnd.outcome == "result":
            record.came_back = _listing(method, rnd.result or {}, record.came_back)
        if verdict != "pass":  # a listing that broke the rule keeps its exchange as evidence
            record.exchanges = exchange_records(rnd.http)
        probes.append(record)
    failed = [p.name for p in probes if p.verdict == "fail"]
    summary = (
        f"InputRequiredResult on {', '.join(failed)}" if failed else "no listing answered with InputRequiredResult"
    )
    notes = ["the recorded calls are tools/call, prompts/get or resources/read, where it is allowed"]
    return check("ir-methods", probes, summary, notes)


def _listing(method: str, result: Mapping[str, JsonValue], fallback: str) -> str:
    key = {"tools/list": "tools", "prompts/list": "prompts", "resources/list": "resources"}.get(
        method, "resourceTemplates"
    )
    items = result.get(key)
    return f"result: {len(items)} {key}" if isinstance(items, list) else fallback


def exchange_records(raw: list[JsonObject]) -> list[HttpExchange]:
    from mcp_lab.exchanges.record import HttpExchange

    kept = []
    for item in raw:
        try:
            kept.append(HttpExchange.model_validate(item))
        except ValidationError:
            continue
    return kept


def _observed(ctx: Context) -> list[tuple[str, JsonObject, Flow | None]]:
    """Every raw InputRequiredResult of the honest replays, with the replayed flow it came in."""
    seen: list[tuple[str, JsonObject, Flow | None]] = []
    for call, body in ctx.replayer.observed:
        flow = next((h.flow for f, h in zip(ctx.flows, ctx.honest, strict=True) if label(f) == call), None)
        seen.append((call, body, flow))
    return seen


async def ir_nonempty(ctx: Context) -> AuditCheck:
    seen = _observed(ctx)
    if not seen:
        return not_applicable("ir-nonempty", "no recorded call got an InputRequiredResult")
    probes: list[AuditProbe] = []
    for call, body, flow in seen:
        requests, state = body.get("inputRequests"), body.get("requestState")
        if isinstance(state, str) or (isinstance(requests, dict) and requests):
            continue
        verdict: Verdict
        if isinstance(requests, dict):
            verdict, what = "warn", "inputRequests: {} (an empty map) and no requestState"
        else:
            verdict, what = "fail", "neither inputRequests nor requestState"
        probes.append(_raw_probe(call, what, verdict, flow))
        ctx.keep("ir-nonempty", *([flow] if flow else []))
    if not probes:
        calls = sorted({c for c, _, _ in seen})
        return check(
            "ir-nonempty",
            [_raw_probe(", ".join(calls), f"{len(seen)} InputRequiredResult(s), each with questions or state", "pass")],
            f"all {len(seen)} InputRequiredResult(s) carried inputRequests or requestState",
        )
    return check("ir-nonempty", probes[:5], f"{len(probes)} InputRequiredResult(s) carried nothing to act on")


def _raw_probe(call: str, what: str, verdict: Verdict, flow: Flow | None = None) -> AuditProbe:
    record = probe(call, f"{call} (the recorded call, unchanged)", None, verdict, flow=flow)
    record.came_back = what
    return record


async def ir_request_kinds(ctx: Context) -> AuditCheck:
    seen = [(c, asked, f) for c, b, f in _observed(ctx) if isinstance(asked := b.get("inputRequests"), dict)]
    if not seen:
        return not_applicable("ir-request-kinds", "no recorded call was asked a question")
    probes: list[AuditProbe] = []
    count = 0
    for call, asked, flow in seen:
        for key, request in asked.items():
            count += 1
            problem = _request_problem(request)
            if problem is not None:
                probes.append(_raw_probe(call, f"input request {key!r}: {problem}", "fail", flow))
                ctx.keep("ir-request-kinds", *([flow] if flow else []))
    if not probes:
        kinds = sorted({str(r.get("method")) for _, asked, _ in seen for r in asked.values() if isinstance(r, dict)})
        what = f"{count} input request(s): {', '.join(kinds)}"
        return check(
            "ir-request-kinds", [_raw_probe(seen[0][0], what, "pass")], f"every input request is {' or '.join(kinds)}"
        )
    return check("ir-request-kinds", probes[:5], f"{len(probes)} input request(s) of another kind or malformed")


def _request_problem(request: object) -> str | None:
    if not isinstance(request, dict):
        return f"not a request object ({type(request).__name__})"
    model = _KINDS.get(str(request.get("method")))
    if model is None:
        return f"method {request.get('method')!r} is not elicitation/create, sampling/createMessage or roots/list"
    try:
        model.model_validate(request)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"a malformed {request['method']} request ({where}: {first.get('msg')})"
    return None


def _asked_first(flow: Flow, honest: Replayed) -> bool:
    first = honest.flow.rounds[0] if honest.flow.rounds else None
    return first is not None and first.outcome == "input_required" and bool(first.input_requests)


def _distinct(pairs: list[tuple[Flow, Replayed]]) -> list[tuple[Flow, Replayed]]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for flow, honest in pairs:
        if (flow.method, flow.target) not in seen:
            seen.add((flow.method, flow.target))
            kept.append((flow, honest))
    return kept[:MAX_TARGETS]


async def capabilities(ctx: Context) -> AuditCheck:
    pairs = _distinct(ctx.pick(_asked_first))
    if not pairs:
        return not_applicable("capabilities", "no recorded call was asked a question on its first leg")

    async def declare_none(leg: Leg) -> Leg:
        leg.capabilities = {}
        return leg

    probes: list[AuditProbe] = []
    for flow, _ in pairs:
        sent = await ctx.replayer.replay(flow, at="first", change=declare_none, note="audit: declares no capabilities")
        rnd = sent.probe
        asked = list((rnd.input_requests or {}).keys()) if rnd is not None and rnd.outcome == "input_required" else []
        verdict: Verdict = "fail" if asked else "pass"
        note = f"asked {', '.join(asked)} of a client that declared no capabilities" if asked else ""
        sent_text = f"{label(flow)}, first leg, _meta clientCapabilities: {{}}"
        probes.append(probe(label(flow), sent_text, rnd, verdict, note, sent.flow))
        ctx.keep("capabilities", sent.flow)
    failed = sum(p.verdict == "fail" for p in probes)
    summary = (
        f"{failed} call(s) sent input requests to a client that declared no capabilities"
        if failed
        else "no input request was sent to a client that declared none"
    )
    return check("capabilities", probes, summary, ["2026-07-28 declares capabilities per request, in _meta"])


def _answered(flow: Flow, honest: Replayed) -> bool:
    return any(r.sent_input_responses for r in honest.flow.rounds)


async def answers_unasked(ctx: Context) -> AuditCheck:
    pairs = ctx.pick(_answered)[:1]
    if not pairs:
        return not_applicable("answers-unasked", "no recorded call answered a question")
    flow, honest = pairs[0]

    async def add_unasked(leg: Leg) -> Leg:
        leg.input_responses = {**(leg.input_responses or {}), UNASKED_KEY: {"action": "accept", "content": {"x": 1}}}
        return leg

    sent = await ctx.replayer.replay(
        flow, at="answers", change=add_unasked, note=f"audit: adds an answer {UNASKED_KEY!r}"
    )
    ctx.keep("answers-unasked", sent.flow)
    rnd = sent.probe
    reference = honest.flow.rounds[rnd.index] if rnd is not None and rnd.index < len(honest.flow.rounds) else None
    verdict: Verdict
    if rnd is not None and rnd.outcome == "error" and (reference is None or reference.outcome != "error"):
        verdict, note = "fail", "the unasked answer made the request fail"
    elif same_outcome(rnd, reference):
        verdict, note = "pass", "same outcome as without it"
    else:
        verdict, note = "warn", "a different outcome than without it"
    sent_text = f"{label(flow)}, first answering retry, plus an answer under {UNASKED_KEY!r}"
    record = probe("unasked answer", sent_text, rnd, verdict, note, sent.flow)
    return check("answers-unasked", [record], f"an answer nobody asked for: {note}")


async def answers_missing(ctx: Context) -> AuditCheck:
    pairs = ctx.pick(_answered)[:1]
    if not pairs:
        return not_applicable("answers-missing", "no recorded call answered a question")
    flow, _ = pairs[0]
    removed: list[str] = []

    async def drop_one(leg: Leg) -> Leg:
        answers = dict(leg.input_responses or {})
        key = next(iter(answers))
        removed.append(key)
        del answers[key]
        leg.input_responses = answers or None
        return leg

    sent = await ctx.replayer.replay(flow, at="answers", change=drop_one, note="audit: leaves out one answer")
    ctx.keep("answers-missing", sent.flow)
    rnd, key = sent.probe, (removed or ["?"])[0]
    verdict: Verdict
    if rnd is None:
        verdict, note = "n/a", "the recorded answers were not reached"
    elif rnd.outcome == "input_required" and key in (rnd.input_requests or {}):
        verdict, note = "pass", f"asked for {key!r} again"
    elif rnd.outcome == "error":
        verdict, note = "fail", f"failed instead of asking for {key!r} again"
    elif rnd.outcome == "input_required":
        verdict, note = "warn", f"asked again, but not for {key!r}"
    else:
        verdict, note = "warn", f"finished without the answer to {key!r} (was it necessary?)"
    sent_text = f"{label(flow)}, first answering retry, without the answer to {key!r}"
    record = probe("missing answer", sent_text, rnd, verdict, note, sent.flow)
    return check("answers-missing", [record], f"a missing answer: {note}")


def _multi_leg(flow: Flow, honest: Replayed) -> bool:
    return len(honest.flow.rounds) >= 2 and honest.flow.status == "done"


async def no_affinity(ctx: Context) -> AuditCheck:
    if ctx.reach.transport == "stdio":
        return not_applicable(
            "no-affinity",
            "over stdio a connection is its own server process: no second connection reaches the same server",
        )
    pairs = ctx.pick(_multi_leg)[:1]
    if not pairs:
        return not_applicable("no-affinity", "no recorded call took more than one leg and finished")
    flow, honest = pairs[0]
    sent = await ctx.replayer.replay(flow, fresh=True, note="audit: every leg on a new connection")
    ctx.keep("no-affinity", sent.flow)
    last, reference = sent.flow.last, honest.flow.last
    verdict: Verdict
    if same_outcome(last, reference):
        verdict, note = (
            "pass",
            f"the same outcome after {len(sent.flow.rounds)} legs on {len(sent.flow.rounds)} connections",
        )
    elif last is not None and last.outcome == "error":
        verdict, note = "fail", f"leg {last.index + 1} failed on its new connection"
    else:
        verdict, note = "fail", "a different outcome than on one connection"
    where = "a new HTTP client (new TCP connections)" if ctx.http else "a new in-process client"
    record = probe("fresh connection per leg", f"{label(flow)}, each leg from {where}", last, verdict, note, sent.flow)
    return check("no-affinity", [record], note)
