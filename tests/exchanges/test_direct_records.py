"""The recorder builds each exchange's record as plain data, without the models: the data must be exactly
what the record models dump (every field present, every type right), or views and saved flows would differ."""

from __future__ import annotations

import json
from typing import Any

import mcp_lab
from mcp_lab.exchanges.record import BODY_CAP, GIVEN_CREDENTIALS, Body, HttpExchange, body_dict, keep_out_of_records
from mcp_lab.exchanges.recorder import Exchange, SchemaBook
from mcp_lab.records.base import CLIP_CHARS
from mcp_lab.servers.lab_server import LabServer

CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "forecast", "arguments": {"region": "eu"}}}
MARKED = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}


def _exchange(
    request: object,
    response: bytes | None,
    content_type: str = "application/json",
    *,
    headers: list[tuple[str, str]] | None = None,
    book: SchemaBook | None = None,
    size: int | None = None,
) -> Exchange:
    raw = request if isinstance(request, bytes) else json.dumps(request).encode()
    sent = headers if headers is not None else [("Content-Type", "application/json"), ("Mcp-Method", "tools/call")]
    exchange = Exchange("POST", "http://127.0.0.1:1/mcp", "/mcp", sent, raw, book=book)
    if response is not None:
        exchange.responded(200, [("Content-Type", content_type), ("set-cookie", "secret")])
        exchange.keep(response)
        if size is not None:
            exchange.response_size = size
        exchange.done()
    return exchange


def _same_as_the_models(data: dict[str, Any]) -> None:
    assert HttpExchange.model_validate(data).dump() == data
    assert json.loads(json.dumps(data)) == data  # JSON-ready as it is (lists, not tuples)


def test_every_kind_of_exchange_dumps_as_its_model_would() -> None:
    book = SchemaBook()
    book.learn({"result": {"tools": [{"name": "forecast", "inputSchema": MARKED}]}})
    error = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32020, "message": "Mcp-Param-Region header is missing"}}
    sse = b'event: message\r\nid: 7\r\ndata: {"jsonrpc": "2.0", "id": 3, "result": {}}\r\n\r\ndata: oops\n\n'
    long_text = b"x" * (CLIP_CHARS + 10)
    exchanges = [
        _exchange(CALL, json.dumps(error).encode()),  # a JSON-RPC error: rpc_error filled
        _exchange(CALL, sse, "text/event-stream"),  # SSE: events, one of them not JSON
        _exchange(CALL, long_text, "text/plain"),  # a long text body: clipped
        _exchange(CALL, b'{"a": "' + b"y" * BODY_CAP + b'"}', size=BODY_CAP + 9),  # truncated: kept as text
        _exchange(CALL, b""),  # an empty body
        _exchange(CALL, None),  # no response at all
        _exchange(CALL, b"{}", headers=[("Mcp-Method", "tools/call"), ("Mcp-Param-Region", "eu")], book=book),
        _exchange(CALL, b"{}", headers=[("Mcp-Method", "tools/call"), ("Mcp-Param-Region", "us")]),  # no book
        _exchange({"jsonrpc": "2.0", "id": 1, "result": {}}, b"", headers=[]),  # a pre-2026 client's answer
        _exchange(b"not json", b"[1, 2]", headers=[("Authorization", "Bearer s3cret")]),
    ]
    for exchange in exchanges:
        _same_as_the_models(exchange.dump())
    dumped = [e.dump() for e in exchanges]
    assert dumped[0]["rpc_error"] == {"code": -32020, "message": "Mcp-Param-Region header is missing"}
    assert [e["data"] for e in dumped[1]["response"]["body"]["events"]][1] == "oops"
    assert dumped[2]["response"]["body"]["text"]["clipped"] is True
    assert dumped[3]["response"]["body"]["truncated"] and dumped[3]["response"]["body"]["kind"] == "text"
    assert dumped[5]["response"] is None and dumped[5]["rpc_id"] == 3
    assert [(u["header"], u["verdict"]) for u in dumped[6]["param_headers"]] == [("Mcp-Param-Region", "ok")]
    assert dumped[8]["rpc"] == "response #1"
    assert dumped[9]["request"]["headers"] == [["Authorization", "<redacted>"]]
    assert ["set-cookie", "<redacted>"] in dumped[9]["response"]["headers"]


def test_a_body_dumps_as_its_model_would() -> None:
    for raw, content_type in [(b'{"n": NaN}', "application/json"), (b"data: [1]\n\n", "text/event-stream"), (b"", "")]:
        data = body_dict(raw, content_type)
        assert Body.model_validate(data).dump() == data


def test_a_given_credential_is_redacted_in_the_plain_record() -> None:
    keep_out_of_records(["X-Team-Token"])
    try:
        data = _exchange(CALL, b"{}", headers=[("x-team-token", "t0ken"), ("Mcp-Method", "tools/call")]).dump()
    finally:
        GIVEN_CREDENTIALS.discard("x-team-token")
    assert data["request"]["headers"][0] == ["x-team-token", "<redacted>"]
    assert "t0ken" not in json.dumps(data)


async def test_a_real_flow_over_http_records_exchanges_its_model_accepts(served_shop: LabServer) -> None:
    flow = await mcp_lab.call("shop", "forecast", {"region": "eu-west"})
    assert flow.status == "done"
    exchanges = [e for rnd in flow.rounds for e in rnd.http]
    assert exchanges and all(e["response"]["status"] == 200 for e in exchanges)
    for exchange in exchanges:
        _same_as_the_models(exchange)
    usage = exchanges[-1]["param_headers"]
    assert [(u["header"], u["sent"], u["verdict"]) for u in usage] == [("Mcp-Param-Region", "eu-west", "ok")]


def test_bodies_the_fast_parser_refuses_read_as_json_reads_them() -> None:
    from mcp_lab.records.base import clip_json

    cases = [
        b'{"s": "\\ud800"}',  # a lone surrogate escape: Python's json keeps it
        b'{"s": "caf\xe9"}',  # not UTF-8: read with a replacement character, as before
        b"[" * 300 + b"]" * 300,  # deeper than pydantic-core parses
        b'{"a": 1, "a": 2}',
        b"[1e400, NaN]",
    ]
    for raw in cases:
        expected = clip_json(json.loads(raw.decode("utf-8", errors="replace")))
        body = body_dict(raw, "application/json")
        assert body["kind"] == "json" and body["value"] == expected
        assert Body.model_validate(body).dump()["kind"] == "json"
    assert body_dict(b"\xef\xbb\xbf{}", "application/json")["kind"] == "text"  # a BOM: json refuses it too
