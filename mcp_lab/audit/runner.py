"""Running an audit: pick the recorded calls, replay them honestly, then run each selected check in turn.

Spec context: the 2026-07-28 rules in `mcp_lab.audit.rules` (multi round-trip requests, header parameters,
Origin). Why this order: the honest replays come first, so every check compares against what the same
request got untouched, and the checks that only read what the server sent (where an InputRequiredResult
appeared, what it carried) read it as it came. Only calls the user recorded are repeated -- tools have side
effects -- and each check repeats at most a few of them. Nothing here blocks the kernel's loop; a check that
breaks is reported as not applicable with the reason, never as a traceback.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path

from mcp import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_lab.audit import checks_http, checks_mrtr, checks_state
from mcp_lab.audit.context import Context, label, not_applicable
from mcp_lab.audit.legs import Replayer
from mcp_lab.audit.model import AuditCheck
from mcp_lab.audit.reach import Reach, RequestSpec
from mcp_lab.audit.report import AuditReport
from mcp_lab.audit.rules import RULES
from mcp_lab.audit.selection import CHECK_IDS, DEFAULT_MAX_WAIT, select
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Connection, Flow
from mcp_lab.given import check_text_map, shown
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.eras import METHODS, MODERN

__all__ = ["CHECKS", "DEFAULT_MAX_WAIT", "MAX_FLOWS", "audit", "select"]

CHECKS: dict[str, Callable[[Context], Awaitable[AuditCheck]]] = {
    "ir-methods": checks_mrtr.ir_methods,
    "ir-nonempty": checks_mrtr.ir_nonempty,
    "ir-request-kinds": checks_mrtr.ir_request_kinds,
    "capabilities": checks_mrtr.capabilities,
    "state-integrity": checks_state.state_integrity,
    "state-binding": checks_state.state_binding,
    "state-lifetime": checks_state.state_lifetime,
    "state-readable": checks_state.state_readable,
    "answers-unasked": checks_mrtr.answers_unasked,
    "answers-missing": checks_mrtr.answers_missing,
    "no-affinity": checks_mrtr.no_affinity,
    "header-annotations": checks_http.header_annotations,
    "header-mismatch": checks_http.header_mismatch,
    "header-missing": checks_http.header_missing,
    "header-base64": checks_http.header_base64,
    "origin": checks_http.origin,
}
assert list(CHECKS) == [r.id for r in RULES], "one check per rule, in the catalogue's order"
assert tuple(CHECKS) == CHECK_IDS, "one check per id the command line and select() name, in the same order"

MAX_FLOWS = 10
"""At most this many distinct recorded calls are repeated (each may act)."""
LISTING_PAGES = 20


def _recorded(flows: str | Path | Flow | Iterable[Flow] | None, server: str, notes: list[str]) -> list[Flow]:
    """The recorded calls to repeat: this kernel's flows for `server`, a collection, or the flows given."""
    if flows is None:
        from mcp_lab.flow.history import history

        items = [f for f in history.flows if f.server == server]
    elif isinstance(flows, str | Path):
        from mcp_lab.replay.collection import load_flows

        items = load_flows(flows)
    elif isinstance(flows, Flow):
        items = [flows]
    elif isinstance(flows, Mapping | bytes):
        raise LabError(f"flows= takes a collection path or a list of flows, not {type(flows).__name__}")
    else:
        try:
            items = list(flows)
        except TypeError:
            raise LabError(f"flows= takes a collection path or a list of flows, not {type(flows).__name__}") from None
        if not all(isinstance(f, Flow) for f in items):
            raise LabError("flows= takes a collection path or a list of flows (each from mcp_lab.call, %mcp_call, ...)")
    kept: dict[str, Flow] = {}
    legacy = 0
    for flow in items:
        if flow.era != MODERN:
            legacy += 1
        elif flow.method in METHODS and flow.rounds:
            kept.setdefault(label(flow), flow)
    if legacy:
        notes.append(f"{legacy} recorded call(s) of the 2025-11-25 era left out: the rules are 2026-07-28's")
    if len(kept) > MAX_FLOWS:
        notes.append(f"{len(kept)} distinct recorded calls: the first {MAX_FLOWS} are repeated")
    return list(kept.values())[:MAX_FLOWS]


async def _listing(ctx: Context) -> None:
    """The raw tool listing, every page (what a client sees before it drops a tool with an invalid mark)."""
    tools: list[JsonObject] = []
    cursor: str | None = None
    for _ in range(LISTING_PAGES):
        rnd = await ctx.replayer.send(RequestSpec("tools/list", {"cursor": cursor} if cursor else {}))
        ctx.tools_http += rnd.http
        if rnd.outcome != "result":
            what = "an InputRequiredResult" if rnd.outcome == "input_required" else (rnd.error or {}).get("message")
            ctx.tools_error = f"tools/list answered {what}"
            return
        page = (rnd.result or {}).get("tools")
        tools += [t for t in page if isinstance(t, dict)] if isinstance(page, list) else []
        next_page = (rnd.result or {}).get("nextCursor")
        if not isinstance(next_page, str):
            break
        cursor = next_page
    ctx.tools = tools


async def audit(
    server: str | Connection,
    flows: str | Path | Flow | Iterable[Flow] | None = None,
    *,
    only: str | Iterable[str] | None = None,
    skip: str | Iterable[str] | None = None,
    lifetime: float | None = None,
    max_wait: float = DEFAULT_MAX_WAIT,
    timeout: float = 60.0,
    headers: dict[str, str] | None = None,
) -> AuditReport:
    """Audit `server` against the 2026-07-28 rules by repeating recorded calls (this kernel's flows for it by
    default, or `flows`: a collection path or a list of flows).

    `only` / `skip`: check ids (see `mcp_lab.audit.rules.RULES`). `lifetime`: how long the server's
    requestState plausibly lives, in seconds (default: the ttl the lab knows for a server it seals for);
    the lifetime check waits that long plus a margin, unless that exceeds `max_wait`, and is then skipped.
    `timeout`: seconds each request may take. `headers`: HTTP headers sent with every request of the audit
    besides the connection's own (a credential; never shown or recorded).
    """
    from mcp_lab.servers.sandbox import sandbox

    if not isinstance(server, str) and not callable(getattr(server, "session", None)):
        raise LabError(f"audit takes a server's name (str) or a connection, not {shown(server)}")
    connection = sandbox.get(server) if isinstance(server, str) else server
    for name, value in (("max_wait", max_wait), ("timeout", timeout), ("lifetime", lifetime)):
        if value is None and name != "lifetime":
            raise LabError(f"{name} must be a positive number of seconds, not None")
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0
        ):
            raise LabError(f"{name} must be a positive number of seconds, not {value!r}")
    check_text_map(headers, "headers")
    selected = select(only, skip)
    notes: list[str] = []
    recorded = _recorded(flows, connection.name, notes)
    if not recorded:
        notes.append(
            f"no recorded call for {connection.name!r}: only the listing and transport checks ran; record calls "
            f"(%mcp_call {connection.name} ...) or pass flows=, and audit again"
        )
    if headers and getattr(connection, "transport", None) != "http" and getattr(connection, "http", None) is None:
        raise LabError(f"headers are for servers reached over HTTP; {connection.name!r} is not")
    if headers:
        from mcp_lab.exchanges.record import keep_out_of_records

        keep_out_of_records(headers)  # a credential by any name: its value never enters the report
    reach = Reach(connection, headers=headers)
    session = await reach.session()
    if session.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        raise LabError(f"{connection.name!r} speaks {session.protocol_version}: the audit checks 2026-07-28 servers")
    await reach.list_tools()
    ctx = Context(reach, Replayer(reach, timeout=timeout), recorded, max_wait=float(max_wait))
    ctx.lifetime = float(lifetime) if lifetime is not None else reach.lifetime
    await _listing(ctx)
    for flow in recorded:
        ctx.honest.append(await ctx.replayer.replay(flow, note="audit: the recorded call, unchanged"))
    checks = []
    for check_id in selected:
        try:
            checks.append(await CHECKS[check_id](ctx))
        except (LabError, MCPError, OSError, RuntimeError, ValueError, KeyError, TypeError) as exc:
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            checks.append(not_applicable(check_id, f"the check could not run: {message}"))
    return AuditReport.build(ctx, checks, notes, session.protocol_version)
