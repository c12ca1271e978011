"""Renderings of a Flow and its Rounds: stable text, an HTML timeline, and the plain data for JupyterLab.

Spec context: multi round-trip requests. Each leg is one client->server request; the view puts one row per
leg -- what was asked, what was answered and by whom, the sealed token's size and key id, the time -- so a
reader sees the loop the SDK's `Client` normally hides. `text/plain` carries no times or tokens, so nbval
can compare it; the HTML and the vendor JSON carry everything (never key material: flows hold none).
"""

from __future__ import annotations

import base64
import binascii
import html
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.flow import Flow, Round

__all__ = ["FLOW_MIME", "flow_bundle", "flow_summary", "round_bundle", "token_brief"]

FLOW_MIME = "application/vnd.mcp-lab.flow+json"

_STATUS_TEXT = {
    "new": "not started",
    "input_required": "waiting for answers",
    "done": "done",
    "error": "failed",
    "stopped": "stopped",
    "interrupted": "interrupted",
}


def token_brief(token: str | None) -> str:
    """Keyless facts about a request_state value: sealed (key id, length) or plaintext."""
    if token is None:
        return "no token"
    if token.startswith("<") and token.endswith("not saved>"):
        return token  # a flow loaded from a collection (mcp_lab.collection): the token was not saved
    if token.startswith("v1."):
        body = token[3:]
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) >= 4:
            return f"sealed v1, key {raw[:4].hex()}, {len(token)} chars"
        return f"v1 prefix but malformed, {len(token)} chars"
    return f"PLAINTEXT (not sealed), {len(token)} chars"


def _describe_request(key: str, request: dict[str, Any]) -> str:
    method = request.get("method", "")
    params = request.get("params") or {}
    if method == "elicitation/create":
        mode = params.get("mode", "form")
        return f"{key}: elicitation ({mode}) {params.get('message', '')!r}"
    if method == "sampling/createMessage":
        return f"{key}: sampling ({len(params.get('messages', []))} message(s), max {params.get('maxTokens')} tokens)"
    return f"{key}: list roots"


def _describe_answer(key: str, response: dict[str, Any], by: str) -> str:
    if "action" in response:
        content = response.get("content")
        shown = f" {json.dumps(content, ensure_ascii=False)}" if content is not None else ""
        return f"{key} = {response['action']}{shown} ({by})"
    if "roots" in response:
        return f"{key} = {len(response['roots'])} root(s) ({by})"
    text = (response.get("content") or {}).get("text", "")
    return f"{key} = reply {text[:40]!r} ({by})"


def _result_brief(rnd: Round) -> str:
    if rnd.outcome == "input_required":
        asks = [_describe_request(k, v) for k, v in (rnd.input_requests or {}).items()]
        if not asks:
            return "input_required: state only (client backs off, then retries)"
        return "input_required: asks " + "; ".join(asks)
    if rnd.outcome == "error":
        err = rnd.error or {}
        code = f"{err['code']} " if err.get("code") is not None else ""
        if err.get("reason"):  # the lab owns the server: its logged reason sits beside the frozen wire error
            return f"error: wire: {code}{err.get('message', '')} — server logged: {err['reason']}"
        return f"error: {code}{err.get('message', '')}"
    data = rnd.result or {}
    texts = [c.get("text", "") for c in data.get("content", []) if isinstance(c, dict) and c.get("type") == "text"]
    texts += [m.get("content", {}).get("text", "") for m in data.get("messages", []) if isinstance(m, dict)]
    texts += [c.get("text", "") for c in data.get("contents", []) if isinstance(c, dict) and "text" in c]
    flag = " (isError)" if data.get("isError") else ""
    return f"result{flag}: " + (" | ".join(repr(t) for t in texts if t) or "(no text)")


def _sent_brief(rnd: Round) -> str:
    parts = [_describe_answer(k, v, rnd.answered_by.get(k, "?")) for k, v in (rnd.sent_input_responses or {}).items()]
    if rnd.sent_request_state is not None:
        parts.append("token echoed")
    if rnd.backoff:
        parts.append(f"after {int(rnd.backoff * 1000)} ms backoff")
    return "; ".join(parts) if parts else "the request"


def flow_summary(flow: Flow) -> str:
    """One line: what, where, how it ended."""
    head = f"{flow.method} {flow.target!r} on {flow.server!r} ({flow.era})"
    status = _STATUS_TEXT.get(flow.status, flow.status)
    line = f"{head}: {status} after {len(flow.rounds)} round(s)"
    if flow.status == "error" and flow.error:
        line += f": {_result_brief(flow.rounds[-1])}"
    if flow.stop_reason:
        line += f": {flow.stop_reason}"
    return line


def _round_lines(rnd: Round) -> list[str]:
    lines = [f"  #{rnd.index} sent {_sent_brief(rnd)}", f"     <- {_result_brief(rnd)}"]
    for entry in rnd.backchannel:
        lines.append(f"     back-channel {_describe_request(str(entry['key']), entry['request'])}")
    if rnd.relisted:
        lines.append("     (header mismatch -32020: tools re-listed and the leg resent once)")
    if rnd.http:
        from mcp_lab.views.http import exchange_lines

        for exchange in rnd.http:
            lines += exchange_lines(exchange)
    return lines


def flow_text(flow: Flow) -> str:
    lines = [f"Flow {flow_summary(flow)}"]
    for rnd in flow.rounds:
        lines += _round_lines(rnd)
    lines += [f"  note: {n}" for n in flow.notes]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return html.escape(text)


def _round_row(rnd: Round) -> str:
    token = token_brief(rnd.request_state) if rnd.outcome == "input_required" else ""
    cls = {"input_required": "ask", "result": "ok", "error": "err"}[rnd.outcome]
    http = f"{len(rnd.http)} HTTP exchange(s)" if rnd.http else ""
    row = (
        f"<tr class='mcp-lab-{cls}'><td>#{rnd.index}</td><td>{_cell(_sent_brief(rnd))}</td>"
        f"<td>{_cell(_result_brief(rnd))}</td><td><code>{_cell(token)}</code></td>"
        f"<td>{rnd.elapsed * 1000:.1f} ms {_cell(http)}</td></tr>"
    )
    if rnd.http:
        from mcp_lab.views.http import exchanges_html

        row += f"<tr class='mcp-lab-http-row'><td></td><td colspan='4'>{exchanges_html(rnd.http)}</td></tr>"
    return row


def flow_html(flow: Flow) -> str:
    rows = "".join(_round_row(r) for r in flow.rounds)
    notes = "".join(f"<div>note: {_cell(n)}</div>" for n in flow.notes)
    return (
        "<div class='mcp-lab-flow'>"
        f"<div><b>{_cell(flow_summary(flow))}</b></div>"
        "<table><thead><tr><th>leg</th><th>client sent</th><th>server answered</th><th>request_state</th>"
        f"<th>time</th></tr></thead><tbody>{rows}</tbody></table>{notes}</div>"
    )


def flow_bundle(flow: Flow) -> dict[str, Any]:
    return {
        "text/plain": flow_text(flow),
        "text/html": flow_html(flow),
        FLOW_MIME: flow.to_dict(),
    }


def round_bundle(rnd: Round) -> dict[str, Any]:
    return {
        "text/plain": "\n".join(_round_lines(rnd)).strip(),
        "text/html": f"<table>{_round_row(rnd)}</table>",
    }
