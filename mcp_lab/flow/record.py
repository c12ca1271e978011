"""The flow record: a multi round-trip conversation as its views show it, leg by leg.

Spec context: 2026-07-28 multi round-trip requests (SEP-2322). Each leg is one client->server request; an
`InputRequiredResult` carries `inputRequests` (elicitation, sampling, roots) and a `requestState` token the
client echoes; the retry carries `inputResponses` under the same keys. On 2025-11-25 the same questions
travel as server->client requests inside one leg (the back channel). The record keeps each leg's wire
data (clipped) beside the facts a person reads -- what was asked, what was answered and by whom, the
token's keyless anatomy, the result's text -- worked out once here, so every renderer says the same.
`Flow.to_dict()` stays the save format (whole tokens, for resuming); this is the display form.
"""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from mcp_lab.exchanges.record import HttpExchange
from mcp_lab.flow.round import START_OVER_HINT
from mcp_lab.protocol.limits import MAX_INPUT_REQUESTS
from mcp_lab.protocol.results import result_texts
from mcp_lab.records.base import Clipped, Model, Record, clip, clip_json

if TYPE_CHECKING:
    from mcp_lab.flow.flow import Flow, Round
    from mcp_lab.flow.leg_data import BackchannelEntry

__all__ = ["AnswerRecord", "BackchannelRecord", "ErrorRecord", "FlowRecord", "InputRequestRecord", "ResultRecord"]
__all__ += ["RoundRecord", "SchemaField", "TokenBrief"]

STATUS_TEXT = {
    "new": "not started",
    "input_required": "waiting for answers",
    "done": "done",
    "error": "failed",
    "stopped": "stopped",
    "interrupted": "interrupted",
}
"""How a flow status reads; a status not listed here reads as itself."""
STATUS_TONE = {"done": "ok", "error": "err", "input_required": "warn", "stopped": "warn", "interrupted": "warn"}


class TokenBrief(Model):
    """What anyone holding a request_state value can see without a key."""

    kind: Literal["sealed", "signed", "opaque", "plaintext", "malformed", "not saved"]
    text: str | Clipped
    length: int
    key_id: str | None = None
    nonce: str | None = None
    sealed_bytes: int | None = None
    label: str
    """One line: `sealed v1, key 61fd740c, 338 chars` / `PLAINTEXT (not sealed), 11 chars` / ..."""


def token_brief(token: str) -> TokenBrief:
    from mcp_lab.protocol.anatomy import keyless_anatomy

    length = len(token)
    if token.startswith("<") and token.endswith("not saved>"):  # a flow loaded from a collection
        return TokenBrief(kind="not saved", text=token, length=length, label=token)
    anatomy = keyless_anatomy(token)
    if anatomy.format == "aes-gcm-v1" and anatomy.key_id is not None:
        return TokenBrief(
            kind="sealed",
            text=clip(token),
            length=length,
            key_id=anatomy.key_id,
            nonce=anatomy.nonce,
            sealed_bytes=anatomy.sealed_bytes,
            label=f"sealed v1, key {anatomy.key_id}, {length} chars",
        )
    if anatomy.format == "aes-gcm-v1":
        return TokenBrief(kind="malformed", text=clip(token), length=length, label=f"v1 prefix but malformed, {length} chars")
    if anatomy.format in ("signed-v1", "jws", "hmac-sign-only"):
        label = f"SIGNED, NOT ENCRYPTED ({anatomy.format}; readable by anyone holding it), {length} chars"
        return TokenBrief(kind="signed", text=clip(token), length=length, label=label)
    if anatomy.readable is not None or anatomy.format == "empty":
        return TokenBrief(kind="plaintext", text=clip(token), length=length, label=f"PLAINTEXT (not sealed), {length} chars")
    return TokenBrief(kind="opaque", text=clip(token), length=length, label=f"opaque ({anatomy.label}), {length} chars")


class SchemaField(Model):
    name: str
    type: str
    required: bool
    title: str | None = None


class InputRequestRecord(Model):
    """One question the server asked (an input request, or a pre-2026 back-channel request)."""

    key: str
    method: str
    kind: Literal["elicitation", "sampling", "roots", "other"]
    mode: str | None = None
    message: str | None = None
    url: str | None = None
    fields: list[SchemaField] = []
    messages: int | None = None
    max_tokens: int | None = None
    summary: str
    wire: Any = None


def input_request(key: str, request: object) -> InputRequestRecord:
    data = request if isinstance(request, dict) else {}
    method = str(data.get("method", ""))
    params: dict[str, Any] = data["params"] if isinstance(data.get("params"), dict) else {}
    kinds: dict[str, Literal["elicitation", "sampling", "roots", "other"]] = {
        "elicitation/create": "elicitation",
        "sampling/createMessage": "sampling",
        "roots/list": "roots",
    }
    kind = kinds.get(method, "other")
    record = InputRequestRecord(key=key, method=method, kind=kind, summary="", wire=clip_json(request))
    if kind == "elicitation":
        record.mode = str(params.get("mode", "form"))
        record.message = _text(params.get("message"))
        record.url = _text(params.get("url"))
        record.fields = _fields(params.get("requestedSchema"))
        record.summary = f"{key}: elicitation ({record.mode}) {params.get('message', '')!r}"
    elif kind == "sampling":
        messages = params.get("messages")
        record.messages = len(messages) if isinstance(messages, list) else 0
        max_tokens = params.get("maxTokens")
        record.max_tokens = max_tokens if isinstance(max_tokens, int) else None
        record.summary = f"{key}: sampling ({record.messages} message(s), max {max_tokens} tokens)"
    else:
        record.summary = f"{key}: list roots" if kind == "roots" else f"{key}: {method or 'request'}"
    return record


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _fields(schema: object) -> list[SchemaField]:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return []
    required: list[Any] = schema["required"] if isinstance(schema.get("required"), list) else []
    fields = []
    for name, prop in schema["properties"].items():
        prop = prop if isinstance(prop, dict) else {}
        kind = prop.get("type") if isinstance(prop.get("type"), str) else ("enum" if "enum" in prop else "")
        title = prop.get("title") or prop.get("description")
        fields.append(SchemaField(name=str(name), type=str(kind), required=name in required, title=_text(title)))
    return fields


class AnswerRecord(Model):
    """One answer the client sent, and which answerer produced it."""

    key: str
    kind: Literal["elicitation", "roots", "sampling", "other"]
    action: str | None = None
    content: Any = None
    roots: int | None = None
    reply: str | None = None
    by: str | None = None
    summary: str
    wire: Any = None


def answer(key: str, response: object, by: str | None) -> AnswerRecord:
    data = response if isinstance(response, dict) else {}
    record = AnswerRecord(key=key, kind="other", by=by, summary="", wire=clip_json(response))
    who = by or "?"
    if "action" in data:
        record.kind, record.action = "elicitation", str(data["action"])
        content = data.get("content")
        record.content = clip_json(content)
        shown = f" {json.dumps(record.content, ensure_ascii=False)}" if content is not None else ""
        record.summary = f"{key} = {record.action}{shown} ({who})"
    elif isinstance(data.get("roots"), list):
        record.kind, record.roots = "roots", len(data["roots"])
        record.summary = f"{key} = {record.roots} root(s) ({who})"
    else:
        reply: dict[str, Any] = data["content"] if isinstance(data.get("content"), dict) else {}
        record.kind, record.reply = "sampling", str(reply.get("text", ""))
        record.summary = f"{key} = reply {record.reply[:40]!r} ({who})"
    return record


class BackchannelRecord(Model):
    """Pre-2026 era: a server-to-client request sent during the leg, and what the client answered."""

    key: str
    request: InputRequestRecord
    answer: AnswerRecord | None = None
    error: str | None = None


class ResultRecord(Model):
    texts: list[str]
    is_error: bool = False
    structured: Any = None
    wire: Any = None


class ErrorRecord(Model):
    code: int | None = None
    message: str = ""
    reason: str | None = None
    """The reason the lab's own server logged beside the frozen wire error."""
    where: str | None = None
    data: Any = None


class RoundRecord(Model):
    """One leg: what the client sent and what came back."""

    index: int
    outcome: Literal["input_required", "result", "error"]
    sent_answers: list[AnswerRecord] = []
    sent_token: TokenBrief | None = None
    """The request_state echoed with this leg."""
    input_requests: list[InputRequestRecord] = []
    token: TokenBrief | None = None
    """The request_state this leg's InputRequiredResult carried."""
    result: ResultRecord | None = None
    error: ErrorRecord | None = None
    backoff: float = 0.0
    started: float = 0.0
    elapsed: float = 0.0
    relisted: bool = False
    started_over: bool = False
    served_by: str | None = None
    http: list[HttpExchange] = []
    unreadable_http: int = 0
    """Exchanges recorded by an older mcp_lab in a shape this one cannot read."""
    server_log: list[str] = []
    backchannel: list[BackchannelRecord] = []
    sent_summary: str
    outcome_summary: str


class FlowRecord(Record):
    """A multi round-trip conversation: the request, its legs, and how it ended."""

    kind: Literal["flow"] = "flow"
    version: Literal[1] = 1
    id: str
    server: str
    method: str
    target: str
    arguments: dict[str, Any] = {}
    era: str
    status: str
    """new | input_required | done | error | stopped (and any status a later mcp_lab adds)."""
    status_text: str
    status_tone: Literal["ok", "err", "warn", ""] = ""
    summary: str
    stop_reason: str | None = None
    notes: list[str] = []
    max_rounds: int
    rounds: list[RoundRecord] = []


def _sent_summary(answers: list[AnswerRecord], rnd: Round) -> str:
    parts = [a.summary for a in answers]
    if rnd.sent_request_state is not None:
        parts.append("token echoed")
    if rnd.backoff:
        parts.append(f"after {int(rnd.backoff * 1000)} ms backoff")
    return "; ".join(parts) if parts else "the request"


def _outcome_summary(record: RoundRecord, data: object) -> str:
    if record.outcome == "input_required":
        if not record.input_requests:
            return "input_required: state only (client backs off, then retries)"
        return "input_required: asks " + "; ".join(r.summary for r in record.input_requests)
    if record.outcome == "error":
        err = record.error or ErrorRecord()
        if err.where == "client":  # refused before anything was sent: not the server's answer
            return f"refused in the client, not sent: {err.message}"
        code = f"{err.code} " if err.code is not None else ""
        if err.reason:  # the lab owns the server: its logged reason sits beside the frozen wire error
            return f"error: wire: {code}{err.message} — server logged: {err.reason}"
        return f"error: {code}{err.message}"
    flag = " (isError)" if isinstance(data, dict) and data.get("isError") else ""
    texts = record.result.texts if record.result is not None else []
    return f"result{flag}: " + (" | ".join(repr(t) for t in texts if t) or "(no text)")


def _exchanges(raw: list[dict[str, Any]]) -> tuple[list[HttpExchange], int]:
    kept, unreadable = [], 0
    for item in raw:
        try:
            kept.append(HttpExchange.model_validate(item))
        except ValidationError:
            unreadable += 1
    return kept, unreadable


def round_record(rnd: Round) -> RoundRecord:
    answers = [answer(k, v, rnd.answered_by.get(k)) for k, v in (rnd.sent_input_responses or {}).items()]
    http, unreadable = _exchanges(rnd.http)
    asked = rnd.input_requests or {}  # past the bound a round is not answered: the view shows its first ones
    record = RoundRecord(
        index=rnd.index,
        outcome=rnd.outcome,
        sent_answers=answers,
        sent_token=token_brief(rnd.sent_request_state) if rnd.sent_request_state is not None else None,
        input_requests=[input_request(k, v) for k, v in itertools.islice(asked.items(), MAX_INPUT_REQUESTS)],
        token=token_brief(rnd.request_state) if rnd.request_state is not None else None,
        backoff=rnd.backoff,
        started=rnd.started,
        elapsed=rnd.elapsed,
        relisted=rnd.relisted,
        started_over=rnd.started_over,
        served_by=rnd.served_by,
        http=http,
        unreadable_http=unreadable,
        server_log=[str(line) for line in rnd.server_log],
        backchannel=[_backchannel(entry) for entry in rnd.backchannel],
        sent_summary=_sent_summary(answers, rnd),
        outcome_summary="",
    )
    if rnd.outcome == "result":
        data = rnd.result or {}
        record.result = ResultRecord(
            texts=result_texts(data),
            is_error=bool(data.get("isError")),
            structured=clip_json(data.get("structuredContent")),
            wire=clip_json(rnd.result),
        )
    if rnd.outcome == "error":
        err = rnd.error or {}
        code = err.get("code")
        record.error = ErrorRecord(
            code=code if isinstance(code, int) and not isinstance(code, bool) else None,
            message=str(err.get("message", "")),
            reason=_text(err.get("reason")),
            where=_text(err.get("where")),
            data=clip_json(err.get("data")),
        )
    record.outcome_summary = _outcome_summary(record, rnd.result)
    if len(asked) > MAX_INPUT_REQUESTS:
        record.outcome_summary = f"input_required: asks {len(asked)} questions (more than a round may ask)"
    return record


def _backchannel(entry: BackchannelEntry) -> BackchannelRecord:
    key = str(entry.get("key", "?"))
    record = BackchannelRecord(key=key, request=input_request(key, entry.get("request")))
    if entry.get("error") is not None:
        record.error = str(entry["error"])
    elif entry.get("response") is not None:
        record.answer = answer(key, entry["response"], _text(entry.get("answered_by")))
    return record


def flow_summary(flow: Flow, last: RoundRecord | None = None) -> str:
    """One line: what, where, how it ended."""
    head = f"{flow.method} {flow.target!r} on {flow.server!r} ({flow.era})"
    status = STATUS_TEXT.get(flow.status, flow.status)
    legs = sum(1 for r in flow.rounds if (r.error or {}).get("where") != "client")  # legs sent
    line = f"{head}: {status} after {legs} leg{'' if legs == 1 else 's'}"
    if flow.status == "error" and flow.error:
        if last is None and flow.rounds:
            last = round_record(flow.rounds[-1])
        if last is not None:
            line += f": {last.outcome_summary}"
        if flow.rounds and flow.rounds[-1].state_rejected:
            line += f"; {START_OVER_HINT}"
    if flow.stop_reason:
        line += f": {flow.stop_reason}"
    return line


def flow_record(flow: Flow) -> FlowRecord:
    rounds = [round_record(r) for r in flow.rounds]
    return FlowRecord(
        id=flow.id,
        server=flow.server,
        method=flow.method,
        target=flow.target,
        arguments=clip_json(dict(flow.arguments)),
        era=flow.era,
        status=flow.status,
        status_text=STATUS_TEXT.get(flow.status, flow.status),
        status_tone=STATUS_TONE.get(flow.status, ""),  # type: ignore[arg-type]
        summary=flow_summary(flow, rounds[-1] if rounds else None),
        stop_reason=flow.stop_reason,
        notes=list(flow.notes),
        max_rounds=flow.max_rounds,
        rounds=rounds,
    )
