"""A TokenReport laid out like a JWT debugger: the token in coloured parts, the decoded parts, the verdict.

Spec context: the SDK docs' "Protecting requestState". A client must never parse requestState -- it is the
server's opaque resume token -- so this view says up front that it is the server owner's tool. `text/plain`
is stable for nbval: no times, nonces, key ids, salted tags, token text or sealed lengths (those change
every run); the HTML shows them, and `application/vnd.mcp-lab.token+json` carries the report's plain data.
No rendering ever holds key material: reports have none to give.
"""

from __future__ import annotations

import json

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone, wrap
from mcp_lab.records.base import clip, clipped_text
from mcp_lab.tokens.record import OWNER_NOTE, CheckRecord, QuestionRecord, TokenRecord

__all__ = ["OWNER_NOTE", "TOKEN_MIME", "token_bundle", "token_html", "token_text"]

TOKEN_MIME = "application/vnd.mcp-lab.token+json"

_MARK = {"pass": "✔", "fail": "✘", "unknown": "?", "not reached": "·", "skipped": "–"}
_CHECK_TONE = {"pass": "ok", "fail": "err", "unknown": "warn"}
_WRAP_AT = 64
"""Claim values longer than this wrap in the HTML fallback (shorter ones, like times and ids, never break)."""
_PART_CLASS = {"kid": "warn", "sealed": "ok", "payload": "ok", "body": "err"}
"""Token parts in colour (the legend names them too): the key id, the sealed bytes, an unreadable body."""


def _short(value: object, limit: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _claim_mark(status: str) -> str:
    return {"ok": "✔ ", "mismatch": "✘ ", "unknown": "? "}.get(status, "")


def _question_line(q: QuestionRecord) -> str:
    if q.answered:
        data = "" if q.data is None else " " + _short(q.data, 50)
        state = f"answered: {q.action}{data}"
    else:
        state = "asked, awaiting an answer"
    text = f"  {q.question!r}" if q.question else ""
    return f"  {q.key}  {state}{text}"


def _check_line(check: CheckRecord) -> str:
    reason = f"{check.reason} — " if check.reason else ""
    detail = f"{reason}{check.detail}" if check.status != "not reached" else "not reached"
    return f"  {_MARK[check.status]} {check.step:<16} {detail}".rstrip()


def token_text(report: TokenRecord) -> str:
    lines = [f"requestState inspector — {report.owner_note}", f"token    {report.structure}"]
    if report.problem:
        lines.append(f"problem  {report.problem}")
    lines.append(f"opened   {report.opened_by}")
    if report.danger:
        lines.append(f"DANGER   {report.danger}")
    if report.claim_rows:
        lines.append("claims")
        for row in report.claim_rows:
            lines.append(f"  {row.claim:<4} {row.stable:<28} {_claim_mark(row.status)}{row.meaning}".rstrip())
    elif report.opener == "unprotected" and report.inner_state is not None and report.inner_kind != "resolver":
        lines.append(f"state    {_short(clipped_text(clip(report.inner_state)))} (plaintext, exactly as the client holds it)")
    if report.questions:
        lines.append("questions (resolver state)")
        lines += [_question_line(q) for q in report.questions]
    if report.checks:
        lines.append("checks (in the server's order)")
        lines += [_check_line(c) for c in report.checks]
    mark = {"ok": "✔", "unknown": "?"}.get(report.verdict_tone, "✘")
    lines.append(f"verdict  {mark} {report.verdict} — {report.verdict_detail}")
    lines += [f"cannot know: {c}" for c in report.cannot_know]
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


def _coloured_token(report: TokenRecord) -> str:
    token = clip(report.token) if report.token is not None else None
    if token is None:
        return "<span class='mcp-lab-muted'>no token</span>"
    if not isinstance(token, str):  # too long to embed: its head, length and digest
        return f"<span class='mcp-lab-muted'>{e(token.describe())}</span>"
    if not report.segments:
        return e(token)
    spans = []
    for seg in report.segments:
        title = (
            seg.label + (f", {seg.size} bytes" if seg.size is not None else "") + (f": {seg.note}" if seg.note else "")
        )
        cls = _PART_CLASS.get(seg.part, "")
        spans.append(f"<span class='mcp-lab-{cls or 'seg'}' title='{e(title)}'>{e(token[seg.start : seg.end])}</span>")
    return "".join(spans)


def _legend(report: TokenRecord) -> str:
    items = []
    for seg in report.segments:
        size = f" ({seg.size} B)" if seg.size is not None else ""
        # The key id reads in hex here as everywhere else (the strip's characters are base64url).
        label = f"key id {report.key_id}" if seg.part == "kid" and report.key_id else seg.label
        items.append(tone(_PART_CLASS.get(seg.part, ""), f"■ {label}{size}"))
    return " ".join(items)


def _banner(report: TokenRecord) -> str:
    mark = {"ok": "✓", "unknown": "?"}.get(report.verdict_tone, "✗")
    kind = {"ok": "ok", "unknown": "warn"}.get(report.verdict_tone, "err")
    logged = "" if report.verdict_tone != "err" else f" — server logs {code(report.verdict)}"
    return (
        f"<div class='mcp-lab-verdict' style='border-left:4px solid currentColor;padding:4px 10px;margin:4px 0'>"
        f"<b>{tone(kind, f'{mark} {report.verdict_title}')}</b>{logged}<br>"
        f"<span class='mcp-lab-muted'>{e(report.verdict_detail)}</span></div>"
    )


def _table(rows: list[tuple[str, object]]) -> str:
    return table([], [f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows])


def _header_table(report: TokenRecord) -> str:
    rows: list[tuple[str, object]] = [("format", report.format_label), ("length", f"{report.length} chars")]
    if report.key_id:
        slot = f" (ring slot {report.slot})" if report.slot is not None else ""
        rows.append(("key id", report.key_id + slot))
    if report.nonce:
        rows.append(("nonce", report.nonce))
    if report.sealed_bytes is not None:
        rows.append(("sealed", f"{report.sealed_bytes} bytes"))
    if report.problem:
        rows.append(("problem", report.problem))
    rows.append(("opened", report.opened_by))
    if report.can_open:
        rows.append(("can open", report.can_open))
    return _table(rows)


def _claims_table(report: TokenRecord) -> str:
    if not report.claim_rows:
        return ""
    rows = []
    for row in report.claim_rows:
        shown = _short(row.value, 200)
        value = shown if row.claim not in ("iat", "exp") else f"{shown} ({row.note})"
        note = row.note if row.claim not in ("iat", "exp") else ""
        kind = {"ok": "ok", "mismatch": "err"}.get(row.status, "")
        rows.append(
            # Short values never break; a long one (a state, a list) wraps instead of widening the table.
            f"<tr><td>{code(row.claim)}</td><td>{code(value, 'mcp-lab-wrap' if len(value) > _WRAP_AT else '')}</td>"
            f"<td>{tone(kind, _claim_mark(row.status) + row.meaning)}</td><td>{e(note)}</td></tr>"
        )
    ttl = (
        f"<div>ttl {report.ttl:g} s, {report.ttl_left:.1f} s left</div>"
        if report.ttl is not None and report.ttl_left is not None
        else ""
    )
    return f"<h4>Payload (claims)</h4>{table([], rows)}{ttl}"


def _questions_table(report: TokenRecord) -> str:
    if not report.questions:
        return ""
    rows = "".join(
        f"<tr><td>{code(q.key)}</td><td>{e(q.question or '')}</td>"
        f"<td>{e(q.action if q.answered else 'awaiting')}</td><td>{e('' if q.data is None else _short(q.data, 200))}</td>"
        f"<td>{code(q.pinned or q.asked or '')}</td></tr>"
        for q in report.questions
    )
    head = ["key", "question", "answer", "data", "question digest"]
    return f"<h4>Inner state: resolver questions</h4>{table(head, [rows])}"


def token_html(report: TokenRecord) -> str:
    checks = "".join(
        f"<li>{tone(_CHECK_TONE.get(c.status, ''), _MARK[c.status])} <b>{e(c.step)}</b> {e(c.reason or '')} "
        f"<span class='mcp-lab-muted'>{e(c.detail)}</span></li>"
        for c in report.checks
    )
    extra = "".join(f"<div>cannot know: {e(c)}</div>" for c in report.cannot_know)
    extra += "".join(f"<div>note: {e(n)}</div>" for n in report.notes)
    danger = f"<div class='mcp-lab-err'><b>Danger:</b> {e(report.danger)}</div>" if report.danger else ""
    inner = ""
    if report.inner_state is not None and report.inner_kind != "resolver":
        inner = f"<h4>Inner state ({e(report.inner_kind or 'plaintext')})</h4>{code(_short(clipped_text(clip(report.inner_state)), 400), 'mcp-lab-long')}"
    return wrap(
        f"<div class='mcp-lab-muted'>{e(report.owner_note)}</div>{_banner(report)}{danger}"
        "<div style='display:flex;gap:16px;flex-wrap:wrap'>"
        "<div style='flex:1;min-width:260px'><h4>Encoded</h4>"
        f"<code class='mcp-lab-long'>{_coloured_token(report)}</code><div>{_legend(report)}</div></div>"
        "<div style='flex:2;min-width:320px'><h4>Decoded: anatomy</h4>"
        f"{_header_table(report)}{_claims_table(report)}{_questions_table(report)}{inner}"
        f"<h4>Checks, in the server's order</h4><ul>{checks}</ul>{extra}</div></div>",
        "mcp-lab-token",
    )


def token_bundle(report: TokenRecord) -> JsonObject:
    return report.bundle(token_text(report), token_html(report))
