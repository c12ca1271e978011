"""Reading an HTTP message body for its record: JSON, SSE events or text, capped, and the JSON-RPC facts in it.

Spec context: 2026-07-28 Streamable HTTP. A response is one JSON-RPC message (`application/json`) or a
stream of server-sent events each carrying one (`text/event-stream`); anything else is shown as text. The
functions build the record's plain data directly (`mcp_lab.exchanges.record.Body` dumps): every leg's
record holds two bodies per exchange.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import from_json

from mcp_lab.records.base import CLIP_CHARS, clip, clip_json

__all__ = ["BODY_CAP", "body_dict", "body_messages", "rpc_facts", "rpc_method_of"]

BODY_CAP = 64 * 1024
"""Bytes of a body kept (a listing of many tools still fits; a runaway stream does not)."""


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


def rpc_method_of(body: object) -> str | None:
    """The JSON-RPC method from the body (pre-2026 requests carry no Mcp-Method header), or which
    server request a client's JSON-RPC response answers."""
    if isinstance(body, dict) and isinstance(body.get("method"), str):
        return str(body["method"])
    if isinstance(body, dict) and ("result" in body or "error" in body):
        return f"response #{body.get('id')}"  # a pre-2026 client answering a back-channel request
    return None
