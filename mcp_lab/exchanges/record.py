"""The HTTP exchange record: one request and its response, as every flow, lab and view shows it.

Spec context: 2026-07-28 Streamable HTTP. Each request repeats parts of its JSON-RPC body in headers
(`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, one `Mcp-Param-<Name>` per `x-mcp-header` argument) so
gateways can route without parsing JSON; the response is JSON or an SSE stream. One record serves servers
the lab serves and servers it only connects to (`mcp_lab.exchanges.recorder` records both the same way): headers in
the order and spelling sent (credentials redacted), the status, the JSON-RPC method, id and error, the
SSE events, which argument travelled in which header, and bodies capped with a visible `truncated` mark.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic_core import from_json

from mcp_lab.json_types import JsonObject
from mcp_lab.records.base import CLIP_CHARS, Clipped, Model, clip, clip_json

__all__ = [
    "BODY_CAP",
    "Body",
    "Header",
    "HttpExchange",
    "HttpRequestRecord",
    "HttpResponseRecord",
    "LegCapture",
    "ParamHeaderUsage",
    "RpcError",
    "SseEvent",
    "body_dict",
    "body_messages",
    "decode_body",
    "redact",
    "redacted_pairs",
    "rpc_facts",
]

BODY_CAP = 64 * 1024
"""Bytes of a body kept (a listing of many tools still fits; a runaway stream does not)."""
REDACTED = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"})
"""Credentials never enter a record: the header stays visible, its value does not."""
GIVEN_CREDENTIALS: set[str] = set()
"""Lower-cased names of headers a person gave as a credential (`%mcp_connect --header`, `connect(headers=)`):
whatever their name, their values are recorded as `<redacted>` too (`keep_out_of_records`)."""


def keep_out_of_records(names: Iterable[str]) -> None:
    """Record these headers' values as `<redacted>` from now on (they were given as credentials)."""
    GIVEN_CREDENTIALS.update(name.lower() for name in names)


Header = tuple[str, str]
"""(name, value) as sent: names keep their spelling, the order is the wire order."""


class SseEvent(Model):
    """One server-sent event; `data` is the JSON-RPC message when it parses."""

    event: str | None = None
    id: str | None = None
    data: Any = None


class Body(Model):
    """A message body: parsed JSON, SSE events, or text; `size` bytes crossed, the first `BODY_CAP` kept."""

    kind: Literal["empty", "json", "sse", "text"]
    content_type: str = ""
    size: int = 0
    truncated: bool = False
    value: Any = None
    """kind json: the parsed message (long strings clipped)."""
    events: list[SseEvent] = []
    """kind sse: the events seen so far (a stream may still be open when the leg ends)."""
    text: str | Clipped | None = None
    """kind text: the body as text."""

    def messages(self) -> list[Any]:
        """The JSON-RPC messages the body carries (one for JSON, one per event for SSE)."""
        if self.kind == "json":
            return [self.value]
        if self.kind == "sse":
            return [e.data for e in self.events]
        return []


class RpcError(Model):
    code: int | None = None
    message: str = ""


class ParamHeaderUsage(Model):
    """One `x-mcp-header` argument of a `tools/call`: the header it should travel in, and what was sent."""

    argument: str
    header: str
    value: Any = None
    sent: str | None = None
    decoded: Any = None
    expected: str | None = None
    encoding: str
    verdict: Literal["ok", "absent", "missing", "mismatch", "unexpected", "malformed", "duplicate"]
    reason: str | None = None
    """The server's -32020 message for a bad one."""


class HttpRequestRecord(Model):
    headers: list[Header] = []
    body: Body


class HttpResponseRecord(Model):
    status: int
    headers: list[Header] = []
    body: Body


class HttpExchange(Model):
    """One request/response pair of a leg."""

    method: str
    url: str
    path: str
    request: HttpRequestRecord
    response: HttpResponseRecord | None = None
    """None when no response arrived (a refused connection, a stream cut before its headers)."""
    rpc: str | None = None
    """`Mcp-Method`, else the body's JSON-RPC method, else `response #id` for a client's answer to a
    pre-2026 back-channel request."""
    rpc_id: int | str | None = None
    rpc_error: RpcError | None = None
    """The JSON-RPC error the response carried, if any."""
    param_headers: list[ParamHeaderUsage] = []
    seen_by: list[Literal["client", "server"]] = ["client"]
    elapsed_ms: float | None = None

    @property
    def status_text(self) -> str:
        return str(self.response.status) if self.response is not None else "no response"

    def request_header(self, name: str) -> str | None:
        lower = name.lower()
        return next((v for k, v in self.request.headers if k.lower() == lower), None)


def redact(headers: Sequence[tuple[str, str]]) -> list[Header]:
    hidden = REDACTED | GIVEN_CREDENTIALS
    return [(k, "<redacted>" if k.lower() in hidden else v) for k, v in headers]


def decode_body(raw: bytes, content_type: str, size: int | None = None) -> Body:
    """A body record from the bytes kept (at most `BODY_CAP`) of `size` bytes seen."""
    return Body.model_validate(body_dict(raw, content_type, size))


def body_dict(raw: bytes, content_type: str, size: int | None = None) -> dict[str, Any]:
    """`decode_body(...).dump()`, built directly: every leg records two bodies per exchange, and building
    the models only to dump them again cost more than reading the bodies (views validate the dicts)."""
    seen = len(raw) if size is None else size
    kept = raw[:BODY_CAP]
    truncated = seen > len(kept)
    kind = "empty"
    value: Any = None
    events: list[dict[str, Any]] = []
    text: Any = None
    if kept and "text/event-stream" in content_type:
        kind, events = "sse", _events(kept.decode("utf-8", errors="replace"))
    elif kept:
        kind = "text"
        if not truncated:
            try:
                value = _embedded_json(kept)
            except ValueError:
                pass
            else:
                kind = "json"
        if kind == "text":
            clipped = clip(kept.decode("utf-8", errors="replace"))
            text = clipped if isinstance(clipped, str) else clipped.dump()
    return {
        "kind": kind,
        "content_type": content_type,
        "size": seen,
        "truncated": truncated,
        "value": value,
        "events": events,
        "text": text,
    }


_CLIP_DEPTH = 40
"""How deep `clip_json` embeds (deeper values become a mark)."""


def _embedded_json(data: bytes | str) -> Any:
    """`data` parsed, as `clip_json` embeds it. Most bodies are short: no string in a text of at most
    `CLIP_CHARS` characters (or bytes, which are never fewer) is longer, fewer opening brackets than the depth
    bound nest no deeper, and without `NaN` or `Infinity` no float is non-finite -- so the parsed value is
    already what `clip_json` would copy (every leg records two bodies per exchange, and the copy cost more
    than the parse). pydantic-core's parser reads a body about three times faster than `json`'s; what it
    refuses (a lone surrogate escape, bytes that are not UTF-8, deep nesting) `json` reads as before."""
    try:
        value = from_json(data)
    except ValueError:
        value = json.loads(data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data)
    if isinstance(data, bytes):
        short = len(data) <= CLIP_CHARS and data.count(b"{") + data.count(b"[") <= _CLIP_DEPTH
        finite = b"NaN" not in data and b"Infinity" not in data
    else:
        short = len(data) <= CLIP_CHARS and data.count("{") + data.count("[") <= _CLIP_DEPTH
        finite = "NaN" not in data and "Infinity" not in data
    if short and finite:
        return value
    return clip_json(value)


def _events(text: str) -> list[dict[str, Any]]:
    """The SSE events of `text` as `SseEvent` dumps."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, list[str]] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            if name in ("event", "id", "data"):
                fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)
        if "data" not in fields:
            continue
        data_text = "\n".join(fields["data"])
        try:
            data: Any = _embedded_json(data_text)
        except ValueError:
            data = clip_json(data_text)
        event = fields.get("event", [None])[-1]
        ident = fields.get("id", [None])[-1]
        events.append({"event": event, "id": ident, "data": data})
    return events


def body_messages(body: dict[str, Any]) -> list[Any]:
    """The JSON-RPC messages a `body_dict` carries (`Body.messages` for the dumped form)."""
    if body["kind"] == "json":
        return [body["value"]]
    if body["kind"] == "sse":
        return [e["data"] for e in body["events"]]
    return []


def rpc_facts(
    request_body: dict[str, Any], response_body: dict[str, Any] | None
) -> tuple[int | str | None, dict[str, Any] | None]:
    """The request's JSON-RPC id and the first JSON-RPC error in the response (as an `RpcError` dump),
    from `body_dict`s."""
    message = request_body["value"] if request_body["kind"] == "json" else None
    ident = message.get("id") if isinstance(message, dict) else None
    error = None
    for reply in body_messages(response_body) if response_body is not None else []:
        if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
            raw = reply["error"]
            code = raw.get("code") if isinstance(raw.get("code"), int) else None
            error = {"code": code, "message": str(raw.get("message", ""))}
            break
    return (ident if isinstance(ident, int | str) and not isinstance(ident, bool) else None), error


def redacted_pairs(headers: Sequence[tuple[str, str]]) -> list[list[str]]:
    """`redact(headers)` as the record dumps it (each header a two-item list)."""
    hidden = REDACTED.union(GIVEN_CREDENTIALS) if GIVEN_CREDENTIALS else REDACTED
    return [[k, "<redacted>" if k.lower() in hidden else v] for k, v in headers]


@dataclass
class LegCapture:
    """What a connection observed during one leg besides the JSON-RPC result."""

    http: list[JsonObject] = field(default_factory=list)
    """HTTP exchanges (Streamable HTTP connections only)."""
    server_log: list[str] = field(default_factory=list)
    """The server's logged reasons (e.g. why requestState was rejected), for servers the lab owns."""
    served_by: str | None = None
    """Which instance handled the leg, when the connection is a fleet behind a router."""
