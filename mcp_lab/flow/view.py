"""Renderings of a Flow and its Rounds: stable text, an HTML timeline, and the plain data for JupyterLab.

Spec context: multi round-trip requests. Each leg is one client->server request; the view puts one row per
leg -- what was asked, what was answered and by whom, the sealed token's size and key id, the time -- so a
reader sees the loop the SDK's `Client` normally hides. `text/plain` carries no times or tokens, so nbval
can compare it; the HTML and the vendor JSON carry everything (never key material: flows hold none).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mcp_lab.exchanges.view import exchange_lines, exchanges_html
from mcp_lab.flow.record import FlowRecord, RoundRecord, flow_record, round_record
from mcp_lab.flow.record import flow_summary as _flow_summary
from mcp_lab.flow.record import token_brief as _token_brief
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, table_row, tone, wrap
from mcp_lab.records.base import Clipped, clipped_text

if TYPE_CHECKING:
    from mcp_lab.flow.flow import Flow, Round

__all__ = ["FLOW_MIME", "flow_bundle", "flow_summary", "round_bundle", "token_brief"]

FLOW_MIME = "application/vnd.mcp-lab.flow+json"
_COLUMNS = ("leg", "client sent", "server answered", "request_state", "time")


def token_brief(token: str | None) -> str:
    """Keyless facts about a request_state value: sealed (key id, length) or plaintext."""
    return "no token" if token is None else _token_brief(token).label


def flow_summary(flow: Flow) -> str:
    """One line: what, where, how it ended."""
    return _flow_summary(flow)


def not_sent(rnd: RoundRecord) -> bool:
    """The client refused before sending (a rejected sampling request, a failed answer): no request left."""
    return rnd.outcome == "error" and rnd.error is not None and rnd.error.where == "client"


def _round_lines(rnd: RoundRecord) -> list[str]:
    # Legs are numbered from 1 in every view (the form's "round N" is the questions leg N asked).
    if not_sent(rnd):
        message = rnd.error.message if rnd.error is not None else ""
        return [f"  leg {rnd.index + 1} not sent: the client refused ({message})"]
    lines = [f"  leg {rnd.index + 1} sent {rnd.sent_summary}", f"     <- {rnd.outcome_summary}"]
    if rnd.served_by:  # a fleet: the instance that answered, as the response named it
        lines.append(f"     served by {rnd.served_by}")
    for entry in rnd.backchannel:
        lines.append(f"     back-channel {entry.request.summary}")
    if rnd.relisted:
        lines.append("     (header mismatch -32020: tools re-listed and the leg resent once)")
    for exchange in rnd.http:
        lines += exchange_lines(exchange)
    if rnd.unreadable_http:
        lines.append(f"     ({rnd.unreadable_http} HTTP exchange(s) recorded by another mcp_lab version)")
    return lines


def flow_text(flow: FlowRecord) -> str:
    lines = [f"Flow {flow.summary}"]
    for rnd in flow.rounds:
        lines += _round_lines(rnd)
    lines += [f"  note: {n}" for n in flow.notes]
    return "\n".join(lines)


_TONE = {"input_required": "warn", "result": "ok", "error": "err"}


def _round_row(rnd: RoundRecord) -> str:
    token = rnd.token.label if rnd.token is not None and rnd.outcome == "input_required" else ""
    http = f" {len(rnd.http)} HTTP exchange(s)" if rnd.http else ""
    if rnd.served_by:
        http += f" · served by {rnd.served_by}"
    mark = {"input_required": "? ", "result": "✓ ", "error": "✗ "}[rnd.outcome]
    if rnd.result is not None and rnd.result.is_error:
        mark = "✗ "
    if not_sent(rnd):
        message = rnd.error.message if rnd.error is not None else ""
        refused = tone("err", "✗ refused in the client: " + message)
        return table_row(str(rnd.index + 1), "<i>not sent</i>", refused, cls="mcp-lab-not-sent", span=3)
    row = table_row(
        str(rnd.index + 1),
        e(rnd.sent_summary),
        tone(_TONE[rnd.outcome], mark + rnd.outcome_summary),
        code(token),
        f"<span style='white-space:nowrap'>{rnd.elapsed * 1000:.1f} ms</span>{e(http)}",
    )
    if rnd.http:
        row += table_row("", exchanges_html(rnd.http), cls="mcp-lab-http-row", span=4)
    return row


def _arguments(arguments: JsonObject) -> str:
    shown = ", ".join(
        f"{k}={clipped_text(v) if isinstance(v, str | Clipped) else json.dumps(v, ensure_ascii=False)}"
        for k, v in _parsed(arguments).items()
    )
    return f"<div>arguments {code(shown, 'mcp-lab-long')}</div>" if arguments else ""


def _parsed(arguments: JsonObject) -> dict[str, object]:
    """Arguments with clipped values as `Clipped` (their head, length and digest read in the view)."""
    return {
        k: Clipped.model_validate(v) if isinstance(v, dict) and v.get("clipped") is True else v
        for k, v in arguments.items()
    }


def flow_html(flow: FlowRecord) -> str:
    rows = "".join(_round_row(r) for r in flow.rounds)
    notes = "".join(f"<div>note: {e(n)}</div>" for n in flow.notes)
    return wrap(
        f"<div><b>{e(flow.summary)}</b></div>{_arguments(flow.arguments)}"
        f"{table(_COLUMNS, [rows])}{notes}",
        "mcp-lab-flow",
    )


def flow_bundle(flow: Flow) -> JsonObject:
    record = flow_record(flow)
    return record.bundle(flow_text(record), flow_html(record))


def round_bundle(rnd: Round) -> JsonObject:
    record = round_record(rnd)
    return {
        "text/plain": "\n".join(_round_lines(record)).strip(),
        "text/html": wrap(table([], [_round_row(record)]), "mcp-lab-flow"),
    }
