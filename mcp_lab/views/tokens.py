"""A TokenReport laid out like a JWT debugger: the token in coloured parts, the decoded parts, the verdict.

Spec context: the SDK docs' "Protecting requestState". A client must never parse requestState -- it is the
server's opaque resume token -- so this view says up front that it is the server owner's tool. `text/plain`
is stable for nbval: no times, nonces, key ids, salted tags, token text or sealed lengths (those change
every run); the HTML shows them, and `application/vnd.mcp-lab.token+json` carries the report's plain data.
No rendering ever holds key material: reports have none to give.
"""

from __future__ import annotations

import html
import json
from typing import Any

from mcp_lab.inspect.report import Check, ClaimRow, QuestionRow, TokenReport

__all__ = ["OWNER_NOTE", "TOKEN_MIME", "token_bundle", "token_html", "token_text"]

TOKEN_MIME = "application/vnd.mcp-lab.token+json"
OWNER_NOTE = "the server owner's view: a client must never parse requestState (it is the server's opaque token)"

_MARK = {"pass": "✔", "fail": "✘", "unknown": "?", "not reached": "·", "skipped": "–"}
_COLOURS = {
    "prefix": "#6b7280",
    "kid": "#a21caf",
    "nonce": "#2563eb",
    "sealed": "#059669",
    "payload": "#059669",
    "dot": "#6b7280",
    "signature": "#2563eb",
    "body": "#dc2626",
}
_PART_NAMES = {
    "prefix": "prefix",
    "kid": "key id",
    "nonce": "nonce",
    "sealed": "ciphertext+tag",
    "payload": "payload (readable)",
    "dot": "'.'",
    "signature": "signature",
    "body": "body",
}


def _short(value: Any, limit: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _stable_claim(row: ClaimRow, report: TokenReport) -> str:
    """A claim's value as text/plain shows it: nothing that changes from run to run."""
    if row.claim == "iat":
        return "<time>"
    if row.claim == "exp":
        return f"iat + {report.ttl:g} s" if report.ttl is not None else "<time>"
    if row.claim == "p":
        return "(absent)" if row.value is None else "<salted tag>"
    if row.claim == "aud" and row.value is None:
        return "(absent)"
    if row.claim == "s" and report.inner_kind == "resolver":
        answered = sum(1 for q in report.questions if q.answered)
        return f"resolver state (SDK v3): {answered} answered, {len(report.questions) - answered} awaiting"
    return _short(row.value) if isinstance(row.value, str) and row.claim == "s" else repr(row.value)


def _claim_mark(row: ClaimRow) -> str:
    return {"ok": "✔ ", "mismatch": "✘ ", "unknown": "? "}.get(row.status, "")


def _question_line(q: QuestionRow) -> str:
    if q.answered:
        data = "" if q.data is None else " " + _short(q.data, 50)
        state = f"answered: {q.action}{data}"
    else:
        state = "asked, awaiting an answer"
    text = f"  {q.question!r}" if q.question else ""
    return f"  {q.key}  {state}{text}"


def _opened_by(report: TokenReport) -> str:
    where = f"server {report.server!r}" if report.server else "the given"
    if report.opener == "ring":
        slot = f", slot {report.slot}" if report.slot is not None else ""
        return f"with {where} key ring ({len(report.ring_ids)} key(s){slot})"
    if report.opener == "codec":
        return f"with {where} codec"
    if report.opener == "unprotected":
        return f"nothing to open: {where} has no RequestStateBoundary"
    return "no key given: " + (report.can_open or "keyless look only")


def _structure(report: TokenReport) -> str:
    parts = " | ".join(_PART_NAMES.get(s.part, s.part) for s in report.segments)
    return f"{report.format_label}" + (f": {parts}" if parts else "")


def _check_line(check: Check) -> str:
    reason = f"{check.reason} — " if check.reason else ""
    detail = f"{reason}{check.detail}" if check.status != "not reached" else "not reached"
    return f"  {_MARK[check.status]} {check.step:<16} {detail}".rstrip()


def token_text(report: TokenReport) -> str:
    lines = [f"requestState inspector — {OWNER_NOTE}", f"token    {_structure(report)}"]
    if report.problem:
        lines.append(f"problem  {report.problem}")
    lines.append(f"opened   {_opened_by(report)}")
    if report.danger:
        lines.append(f"DANGER   {report.danger}")
    if report.claim_rows:
        lines.append("claims")
        for row in report.claim_rows:
            lines.append(f"  {row.claim:<4} {_stable_claim(row, report):<28} {_claim_mark(row)}{row.meaning}".rstrip())
    elif report.opener == "unprotected" and report.inner_state is not None and report.inner_kind != "resolver":
        lines.append(f"state    {_short(report.inner_state)} (plaintext, exactly as the client holds it)")
    if report.questions:
        lines.append("questions (resolver state)")
        lines += [_question_line(q) for q in report.questions]
    if report.checks:
        lines.append("checks (in the server's order)")
        lines += [_check_line(c) for c in report.checks]
    mark = "✔" if report.verdict == "ok" else ("?" if report.verdict == "unknown" else "✘")
    lines.append(f"verdict  {mark} {report.verdict} — {report.verdict_detail}")
    lines += [f"cannot know: {c}" for c in report.cannot_know]
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


def _e(value: Any) -> str:
    return html.escape(value if isinstance(value, str) else _short(value, 400))


def _coloured_token(report: TokenReport) -> str:
    token = report.token or ""
    if not report.segments:
        return f"<span style='color:#6b7280'>{_e(token)}</span>"
    spans = []
    for seg in report.segments:
        colour = _COLOURS.get(seg.part, "#111827")
        title = f"{_PART_NAMES.get(seg.part, seg.part)}" + (f", {seg.size} bytes" if seg.size is not None else "")
        if seg.note:
            title += f": {seg.note}"
        spans.append(f"<span style='color:{colour}' title='{_e(title)}'>{_e(token[seg.start : seg.end])}</span>")
    return "".join(spans)


def _legend(report: TokenReport) -> str:
    items = []
    for seg in report.segments:
        size = f" ({seg.size} B)" if seg.size is not None else ""
        items.append(
            f"<span style='color:{_COLOURS.get(seg.part, '#111827')}'>■</span> {_e(_PART_NAMES.get(seg.part, seg.part))}"
            f"{size}"
        )
    return " ".join(items)


def _banner(report: TokenReport) -> str:
    colour = {"ok": "#dcfce7"}.get(report.verdict, "#fef9c3" if report.verdict == "unknown" else "#fee2e2")
    head = "Accepted" if report.verdict == "ok" else ("Undetermined" if report.verdict == "unknown" else "Rejected")
    logged = "" if report.verdict in ("ok", "unknown") else f" — server logs <code>{_e(report.verdict)}</code>"
    return (
        f"<div style='background:{colour};padding:6px 10px;border-radius:4px;margin:4px 0'>"
        f"<b>{head}</b>{logged}<br><small>{_e(report.verdict_detail)}</small></div>"
    )


def _header_table(report: TokenReport) -> str:
    rows = [("format", report.format_label), ("length", f"{report.length} chars")]
    if report.key_id:
        slot = f" (ring slot {report.slot})" if report.slot is not None else ""
        rows.append(("key id", report.key_id + slot))
    if report.nonce:
        rows.append(("nonce", report.nonce))
    if report.sealed_bytes is not None:
        rows.append(("sealed", f"{report.sealed_bytes} bytes"))
    if report.problem:
        rows.append(("problem", report.problem))
    rows.append(("opened", _opened_by(report)))
    if report.can_open:
        rows.append(("can open", report.can_open))
    return _table(rows)


def _table(rows: list[tuple[str, Any]]) -> str:
    body = "".join(f"<tr><th style='text-align:left'>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _claims_table(report: TokenReport) -> str:
    if not report.claim_rows:
        return ""
    rows = []
    for row in report.claim_rows:
        value = row.value if row.claim not in ("iat", "exp") else f"{row.value} ({row.note})"
        note = row.note if row.claim not in ("iat", "exp") else ""
        mark = _claim_mark(row)
        rows.append(
            f"<tr><td><code>{_e(row.claim)}</code></td><td><code>{_e(value)}</code></td>"
            f"<td>{_e(mark + row.meaning)}</td><td>{_e(note)}</td></tr>"
        )
    ttl = f"<div>ttl {report.ttl:g} s, {report.ttl_left:.1f} s left</div>" if report.ttl_left is not None else ""
    return f"<h4>Payload (claims)</h4><table>{''.join(rows)}</table>{ttl}"


def _questions_table(report: TokenReport) -> str:
    if not report.questions:
        return ""
    rows = "".join(
        f"<tr><td><code>{_e(q.key)}</code></td><td>{_e(q.question or '')}</td>"
        f"<td>{_e(q.action if q.answered else 'awaiting')}</td><td>{_e('' if q.data is None else q.data)}</td>"
        f"<td><code>{_e(q.pinned or q.asked or '')}</code></td></tr>"
        for q in report.questions
    )
    head = "<tr><th>key</th><th>question</th><th>answer</th><th>data</th><th>question digest</th></tr>"
    return f"<h4>Inner state: resolver questions</h4><table>{head}{rows}</table>"


def token_html(report: TokenReport) -> str:
    checks = "".join(
        f"<li>{_MARK[c.status]} <b>{_e(c.step)}</b> {_e(c.reason or '')} <small>{_e(c.detail)}</small></li>"
        for c in report.checks
    )
    extra = "".join(f"<div>cannot know: {_e(c)}</div>" for c in report.cannot_know)
    extra += "".join(f"<div>note: {_e(n)}</div>" for n in report.notes)
    danger = f"<div style='color:#b91c1c'><b>Danger:</b> {_e(report.danger)}</div>" if report.danger else ""
    inner = ""
    if report.inner_state is not None and report.inner_kind != "resolver":
        inner = f"<h4>Inner state ({_e(report.inner_kind or 'plaintext')})</h4><code>{_e(report.inner_state)}</code>"
    return (
        "<div class='mcp-lab-token' style='font-family:sans-serif'>"
        f"<div><small>{_e(OWNER_NOTE)}</small></div>{_banner(report)}{danger}"
        "<div style='display:flex;gap:16px;flex-wrap:wrap'>"
        "<div style='flex:1;min-width:260px'><h4>Encoded</h4>"
        f"<code style='word-break:break-all'>{_coloured_token(report)}</code><div>{_legend(report)}</div></div>"
        "<div style='flex:2;min-width:320px'><h4>Decoded: anatomy</h4>"
        f"{_header_table(report)}{_claims_table(report)}{_questions_table(report)}{inner}"
        f"<h4>Checks, in the server's order</h4><ul>{checks}</ul>{extra}</div></div></div>"
    )


def token_bundle(report: TokenReport) -> dict[str, Any]:
    return {"text/plain": token_text(report), "text/html": token_html(report), TOKEN_MIME: report.to_dict()}
