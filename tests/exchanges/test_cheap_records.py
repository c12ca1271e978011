"""The recorder's shortcuts give the same record as the long way: short bodies embedded as parsed, the
`Mcp-Param-*` usage of a tool that marks nothing remembered per schema (counts and values, never times)."""

from __future__ import annotations

import json

from mcp_lab.exchanges.record import decode_body
from mcp_lab.exchanges.recorder import SchemaBook
from mcp_lab.records.base import CLIP_CHARS, clip_json


def test_every_body_embeds_as_clip_json_would() -> None:
    deep = "[" * 45 + "]" * 45
    bodies = [
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"}], "isError": False}},
        {"long": "x" * (CLIP_CHARS + 1)},  # a string too long to embed: clipped
        json.loads(deep),  # deeper than embedding goes: cut
    ]
    for value in bodies:
        raw = json.dumps(value).encode()
        assert decode_body(raw, "application/json").value == clip_json(value)
    for text in ('{"n": NaN}', '{"n": -Infinity, "m": [1.5]}'):  # Python's json reads these; spelled as strings
        body = decode_body(text.encode(), "application/json")
        assert body.value == clip_json(json.loads(text)) and isinstance(next(iter(body.value.values())), str)
    sse = decode_body(b'data: {"long": "' + b"y" * (CLIP_CHARS + 5) + b'"}\n\n', "text/event-stream")
    assert sse.events[0].data["long"]["clipped"] is True


def test_param_header_usage_is_remembered_only_for_schemas_that_mark_nothing() -> None:
    book = SchemaBook()
    plain = {"type": "object", "properties": {"city": {"type": "string"}}}
    marked = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
    book.learn({"result": {"tools": [{"name": "book", "inputSchema": plain}, {"name": "shop", "inputSchema": marked}]}})
    headers = [("Mcp-Param-Region", "eu")]
    assert book.param_headers({"name": "book", "arguments": {"city": "P"}}, headers) == []
    assert book.unmarked == {"book": plain}
    usage = book.param_headers({"name": "shop", "arguments": {"region": "eu"}}, headers)
    assert [(u["header"], u["verdict"]) for u in usage] == [("Mcp-Param-Region", "ok")] and "shop" not in book.unmarked
    usage = book.param_headers({"name": "shop", "arguments": {"region": "us"}}, headers)
    assert usage[0]["verdict"] == "mismatch"  # worked out afresh for every call of a marked tool
    newer = {"type": "object", "properties": {"city": {"type": "string", "x-mcp-header": "City"}}}
    book.learn({"result": {"tools": [{"name": "book", "inputSchema": newer}]}})  # a new listing marks it now
    usage = book.param_headers({"name": "book", "arguments": {"city": "P"}}, [("Mcp-Param-City", "P")])
    assert [(u["header"], u["verdict"]) for u in usage] == [("Mcp-Param-City", "ok")]
    assert book.param_headers({"name": "unknown", "arguments": {}}, headers) == []  # no schema learnt: nothing
