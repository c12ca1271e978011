"""Checks of header parameters and Origin validation: valid marks, mirrored values checked, sentinel decoded.

Spec sections served (`basic/transports/streamable-http.mdx`): Custom Headers from Tool Parameters › Schema
Extension (and `server/tools.mdx` › x-mcp-header: the constraints on an annotation), Server Behavior for
Custom Headers and Server Validation (a header that disagrees with the body, or is missing while the value is
in the body: 400 Bad Request with JSON-RPC -32020), Value Encoding (the `=?base64?...?=` sentinel is decoded
before comparing), Security & Endpoint (an invalid `Origin`: 403 Forbidden). Why this way: each probe is the
recorded call's first leg sent through the connection's own client -- its credentials included, so a server
that requires a bearer token is reached -- with one header changed, so the status and error it gets back can
only be about that header. Headers exist only on Streamable HTTP; over stdio and in-process those checks are
not applicable (the annotations are checked everywhere: an HTTP client would drop the tool).
"""

from __future__ import annotations

import base64
import contextlib
import logging
from collections.abc import Iterator

from mcp.shared.inbound import find_invalid_x_mcp_header, mcp_param_headers, x_mcp_header_map

from mcp_lab.audit.checks_mrtr import MAX_TARGETS, exchange_records
from mcp_lab.audit.context import Context, check, label, not_applicable, probe, status_of
from mcp_lab.audit.legs import Leg, same_outcome
from mcp_lab.audit.model import AuditCheck, AuditProbe, Verdict
from mcp_lab.audit.reach import RequestSpec
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.protocol.codes import HEADER_MISMATCH
from mcp_lab.protocol.header_values import header_text, other_value

__all__ = ["header_annotations", "header_base64", "header_mismatch", "header_missing", "origin"]

BAD_ORIGIN = "https://mcp-lab-audit.invalid"
"""An origin no server can have allowed (`.invalid` is reserved, RFC 6761)."""


def _marked(schema: object) -> bool:
    """Does `x-mcp-header` appear anywhere in the schema (valid or not)?"""
    if isinstance(schema, dict):
        return "x-mcp-header" in schema or any(_marked(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_marked(v) for v in schema)
    return False


async def header_annotations(ctx: Context) -> AuditCheck:
    if ctx.tools is None:
        return not_applicable("header-annotations", f"no tool listing: {ctx.tools_error or 'tools/list failed'}")
    probes: list[AuditProbe] = []
    for tool in ctx.tools:
        schema = tool.get("inputSchema")
        if not _marked(schema):
            continue
        name = str(tool.get("name"))
        reason = find_invalid_x_mcp_header(schema)
        record = probe(f"tool {name}", "tools/list", None, "fail" if reason else "pass")
        if reason:
            record.came_back = f"invalid: {reason}"
            record.note = "a Streamable HTTP client drops this tool from its listing"
        else:
            marks = ", ".join(f"{'.'.join(p)} -> Mcp-Param-{t}" for p, t in x_mcp_header_map(schema).items())
            record.came_back = f"valid: {marks}"
        probes.append(record)
    if not probes:
        return not_applicable("header-annotations", "no tool marks an argument with x-mcp-header")
    if any(p.verdict == "fail" for p in probes):  # the listing as sent is the evidence of an invalid mark
        probes[0].exchanges = exchange_records(ctx.tools_http)
    bad = [p.name for p in probes if p.verdict == "fail"]
    summary = f"invalid x-mcp-header on {', '.join(bad)}" if bad else f"{len(probes)} marked tool(s), every mark valid"
    return check("header-annotations", probes, summary)


class _Mark:
    """One recorded call of a marked tool: the header it mirrors, the recorded value, another value."""

    def __init__(self, flow: Flow, path: tuple[str, ...], token: str) -> None:
        self.flow = flow
        self.header = f"Mcp-Param-{token}"
        self.value = _at(flow.arguments, path)
        self.sent = next(iter(mcp_param_headers({path: token}, flow.arguments).values()))
        other = other_value(self.value)
        args = _with(flow.arguments, path, other)
        self.other = next(iter(mcp_param_headers({path: token}, args).values()))
        self.other_plain = header_text(other)
        self.evidence: Flow | None = None
        """The flow of the last probe sent for this mark."""


def _at(arguments: JsonObject, path: tuple[str, ...]) -> JsonValue:
    value: JsonValue = arguments
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _with(arguments: JsonObject, path: tuple[str, ...], new: JsonValue) -> JsonObject:
    if len(path) == 1:
        return {**arguments, path[0]: new}
    inner = arguments.get(path[0])
    return {**arguments, path[0]: _with(inner if isinstance(inner, dict) else {}, path[1:], new)}


def _sentinel(text: str) -> str:
    return f"=?base64?{base64.b64encode(text.encode()).decode()}?="


def _marks(ctx: Context) -> list[_Mark]:
    schemas = {str(t.get("name")): t.get("inputSchema") for t in ctx.tools or []}
    found: list[_Mark] = []
    tools: set[str] = set()
    for flow in ctx.flows:
        schema = schemas.get(flow.target)
        if flow.method != "tools/call" or flow.target in tools or schema is None:
            continue
        if find_invalid_x_mcp_header(schema) is not None:
            continue
        for path, token in x_mcp_header_map(schema).items():
            if _at(flow.arguments, path) is not None:
                found.append(_Mark(flow, path, token))
                tools.add(flow.target)
                break
    return found[:MAX_TARGETS]


def _http_only(check_id: str, ctx: Context) -> AuditCheck | None:
    if ctx.http:
        return None
    return not_applicable(
        check_id, f"header parameters travel only over Streamable HTTP; this server is {ctx.reach.transport}"
    )


async def _first_leg(
    ctx: Context, check_id: str, mark: _Mark, headers: dict[str, str], drop: bool, how: str
) -> Round | None:
    async def change(leg: Leg) -> Leg:
        if drop:
            leg.drop_headers = (mark.header,)
        leg.headers = dict(headers)
        return leg

    sent = await ctx.replayer.replay(mark.flow, at="first", change=change, note=f"audit: {how}")
    ctx.keep(check_id, sent.flow)
    mark.evidence = sent.flow
    return sent.probe


def _rejected(rnd: Round | None) -> tuple[Verdict, str]:
    """Rejected as the specification says: HTTP 400 with JSON-RPC -32020."""
    if rnd is None:
        return "n/a", "not sent"
    status, code = status_of(rnd), (rnd.error or {}).get("code")
    if rnd.outcome != "error":
        return "fail", "accepted: the server acted on a request whose header and body disagree"
    if status == 400 and code == HEADER_MISMATCH:
        return "pass", "rejected: 400, -32020"
    return "fail", f"rejected, but with HTTP {status} and error {code}, not 400 and -32020 (HeaderMismatch)"


async def _header_check(check_id: str, ctx: Context, cases: list[tuple[str, str, bool]], summary: str) -> AuditCheck:
    """`cases`: (name, which value to send, drop the header?) for each marked call."""
    skipped = _http_only(check_id, ctx)
    if skipped is not None:
        return skipped
    marks = _marks(ctx)
    if not marks:
        return not_applicable(check_id, "no recorded tools/call sets an argument a valid x-mcp-header marks")
    probes: list[AuditProbe] = []
    for mark in marks:
        for name, which, drop in cases:
            value = {"other": mark.other, "other-sentinel": _sentinel(mark.other_plain), "none": ""}[which]
            how = f"{mark.header} left out" if drop else f"{mark.header}: {value}"
            rnd = await _first_leg(ctx, check_id, mark, {} if drop else {mark.header: value}, drop, how)
            verdict, note = _rejected(rnd)
            sent = f"{label(mark.flow)}, first leg, {how} (the body says {mark.sent})"
            probes.append(probe(name, sent, rnd, verdict, note, mark.evidence, http=True))
    failed = [p for p in probes if p.verdict == "fail"]
    return check(
        check_id,
        probes,
        f"{len(failed)} of {len(probes)} {summary} not rejected as specified"
        if failed
        else f"every {summary} rejected with 400 and -32020",
    )


async def header_mismatch(ctx: Context) -> AuditCheck:
    cases = [("another value", "other", False), ("another value, Base64 sentinel", "other-sentinel", False)]
    return await _header_check("header-mismatch", ctx, cases, "disagreeing header(s)")


async def header_missing(ctx: Context) -> AuditCheck:
    return await _header_check(
        "header-missing", ctx, [("header left out", "none", True)], "request(s) lacking the header"
    )


async def header_base64(ctx: Context) -> AuditCheck:
    skipped = _http_only("header-base64", ctx)
    if skipped is not None:
        return skipped
    marks = _marks(ctx)
    if not marks:
        return not_applicable("header-base64", "no recorded tools/call sets an argument a valid x-mcp-header marks")
    probes: list[AuditProbe] = []
    for mark in marks:
        plain = header_text(mark.value)
        value = _sentinel(plain)
        rnd = await _first_leg(ctx, "header-base64", mark, {mark.header: value}, False, f"{mark.header}: {value}")
        honest = next(
            (h.flow.rounds[0] for f, h in zip(ctx.flows, ctx.honest, strict=True) if f is mark.flow and h.flow.rounds),
            None,
        )
        rejected = (
            rnd is not None
            and rnd.outcome == "error"
            and (status_of(rnd) == 400 or (rnd.error or {}).get("code") == HEADER_MISMATCH)
        )
        if rejected:
            verdict: Verdict = "fail"
            note = "the sentinel form of the body's own value was rejected: the server did not decode it"
        elif same_outcome(rnd, honest):
            verdict, note = "pass", "accepted, the same outcome as the plain header"
        else:
            verdict, note = "warn", "not rejected, but a different outcome than the plain header"
        if mark.sent.startswith("=?base64?"):
            note += "; the recorded value itself needs the sentinel form, and the recorded call was accepted"
        sent = f"{label(mark.flow)}, first leg, {mark.header} in the Base64 sentinel form of {plain!r}"
        probes.append(probe("Base64 sentinel", sent, rnd, verdict, note, mark.evidence, http=True))
    bad = [p for p in probes if p.verdict == "fail"]
    return check(
        "header-base64",
        probes,
        "a sentinel-encoded value was rejected" if bad else "sentinel-encoded values are decoded and accepted",
    )


@contextlib.contextmanager
def _kept_warnings(name: str) -> Iterator[list[str]]:
    """What a server running in this process logs on `name` while a probe runs: kept for the report instead
    of printed into the cell (a server in another process logs where it always does)."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger, handler = logging.getLogger(name), Keep(logging.WARNING)
    propagate, logger.propagate = logger.propagate, False
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


async def origin(ctx: Context) -> AuditCheck:
    if not ctx.http:
        return not_applicable("origin", f"Origin exists only on Streamable HTTP; this server is {ctx.reach.transport}")
    plain = await ctx.replayer.send(RequestSpec("tools/list", {}))
    if status_of(plain) != 200:
        why = f"even a plain tools/list got HTTP {status_of(plain)}: an Origin probe would prove nothing"
        return not_applicable("origin", why)
    with _kept_warnings("mcp.server.transport_security") as logged:
        rnd = await ctx.replayer.send(RequestSpec("tools/list", {}, headers={"Origin": BAD_ORIGIN}))
    status = status_of(rnd)
    verdict: Verdict = "pass" if status == 403 else "fail"
    note = "refused: 403" if status == 403 else f"expected 403 Forbidden, got HTTP {status}"
    if logged:
        note += f" (server logged: {logged[-1]})"
    sent = f"tools/list with Origin: {BAD_ORIGIN} (and the connection's own credentials)"
    record = probe("invalid Origin", sent, rnd, verdict, note)
    record.exchanges = exchange_records(rnd.http)
    return check("origin", [record], note)
