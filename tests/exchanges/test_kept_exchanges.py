"""A leg keeps its exchanges as plain values and builds their records on first read: the records built late
are the very records that would have been built when the leg ended, whatever changed since (a credential
named, a listing learnt, time gone by), also after the flow was packed (flow/kept.py) and unpacked."""

from __future__ import annotations

import asyncio
import json

import mcp_lab
from mcp_lab.exchanges.record import (
    GIVEN_CREDENTIALS,
    HttpExchange,
    HttpRecords,
    KeptExchange,
    LegCapture,
    ParamHeaderUsage,
    exchange_record,
    hand_on_http,
    keep_exchanges,
    keep_out_of_records,
)
from mcp_lab.exchanges.recorder import Exchange, SchemaBook
from mcp_lab.flow.kept import PACKED
from mcp_lab.flow.round import Round
from mcp_lab.servers.lab_server import LabServer

HELD = HttpRecords()
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "shop", "arguments": {"region": "eu"}}}
MARKED = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}


def _kept(holder: object) -> tuple[KeptExchange, ...]:
    """`holder.http` as held, asserted still unbuilt."""
    held = HELD.held(holder)
    assert isinstance(held, tuple)
    return held


def _exchange(book: SchemaBook | None = None, headers: list[tuple[str, str]] | None = None) -> Exchange:
    sent = headers or [("Content-Type", "application/json"), ("Mcp-Method", "tools/call"), ("Mcp-Param-Region", "eu")]
    exchange = Exchange("POST", "http://127.0.0.1:1/mcp", "/mcp", sent, json.dumps(CALL).encode(), book=book)
    exchange.responded(200, [("Content-Type", "application/json")])
    exchange.keep(b'{"jsonrpc": "2.0", "id": 3, "result": {}}')
    exchange.done()
    return exchange


async def test_records_built_late_are_those_the_leg_would_have_built(served_shop: LabServer) -> None:
    flow = await mcp_lab.call("shop", "forecast", {"region": "eu-west"})
    assert flow.status == "done"
    kept = [_kept(rnd) for rnd in flow.rounds]  # nothing read yet: nothing built
    assert all(kept)
    then = [[exchange_record(e) for e in k] for k in kept]
    assert served_shop.http is not None
    keep_out_of_records(["Mcp-Name"])  # named a credential only after the leg: its record shows the value
    served_shop.http.book.learn({"result": {"tools": [{"name": "forecast", "inputSchema": {"type": "object"}}]}})
    await asyncio.sleep(0.05)  # an exchange's time is its own, not the reading's
    try:
        late = [rnd.http for rnd in flow.rounds]
    finally:
        GIVEN_CREDENTIALS.discard("mcp-name")
    assert late == then
    last = HttpExchange.model_validate(late[-1][-1])
    assert ("mcp-name", "forecast") in last.request.headers
    assert [(u.header, u.verdict) for u in last.param_headers] == [("Mcp-Param-Region", "ok")]
    for records in late:
        for record in records:
            assert HttpExchange.model_validate(record).dump() == record
    assert all(rnd.http is records for rnd, records in zip(flow.rounds, late, strict=True))  # built once


async def test_a_packed_flow_builds_the_same_records_after_unpacking(served_shop: LabServer) -> None:
    first = await mcp_lab.call("shop", "forecast", {"region": "eu"})
    expected = [[exchange_record(e) for e in _kept(rnd)] for rnd in first.rounds]
    read = await mcp_lab.call("shop", "forecast", {"region": "us"})
    read_then = [list(rnd.http) for rnd in read.rounds]  # built before packing: packed as records
    await mcp_lab.call("shop", "forecast", {"region": "ap"})  # starting a flow packs the ones that ended
    assert PACKED in first.__dict__ and PACKED in read.__dict__
    assert [rnd.http for rnd in first.rounds] == expected
    assert [rnd.http for rnd in read.rounds] == read_then
    assert first.rounds[0].to_dict()["http"] == expected[0]


def test_a_capture_read_during_its_leg_gets_the_later_records_built() -> None:
    capture = LegCapture()
    assert capture.http == []  # read (built) while the leg runs
    keep_exchanges(capture, (_exchange().kept(),))
    assert len(capture.http) == 1 and capture.http[0]["rpc"] == "tools/call"
    unread = LegCapture()
    keep_exchanges(unread, (_exchange().kept(),))
    keep_exchanges(unread, (_exchange().kept(),))
    assert len(_kept(unread)) == 2
    rnd = Round(index=0)
    hand_on_http(unread, rnd)
    assert _kept(rnd) is _kept(unread)
    assert rnd.http == unread.http and [r["rpc"] for r in rnd.http] == ["tools/call", "tools/call"]
    assert all(HttpExchange.model_validate(r).dump() == r for r in rnd.http)
    given = Round(index=1, http=[{"method": "GET"}])
    assert given.http == [{"method": "GET"}] and Round(index=2).http == []


def test_an_exchange_reads_its_body_for_header_usage_only_when_a_schema_marks_one() -> None:
    book = SchemaBook()
    assert book.marks_nothing()
    assert _exchange(book).kept()[-1] is None  # no listing learnt: none can be worked out
    plain = {"type": "object", "properties": {"region": {"type": "string"}}}
    invalid = {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}
    cases: list[tuple[dict[str, object], bool]] = [
        ({"shop": plain}, False),
        ({"shop": invalid, "x": None}, False),
        ({"shop": MARKED}, True),
    ]
    for schemas, marks in cases:
        book.learn({"result": {"tools": [{"name": n, "inputSchema": s} for n, s in schemas.items()]}})
        assert book.marks_nothing() is not marks
        usage = book.param_headers({"name": "shop", "arguments": {"region": "eu"}}, _exchange().request_headers)
        assert bool(usage) is marks  # what marks_nothing promises: no usage whatever the call
        assert (_exchange(book).kept()[-1] is not None) is marks
        assert _exchange(book).dump()["param_headers"] == [ParamHeaderUsage.model_validate(u).dump() for u in usage]
    nested = {"type": "object", "properties": {"where": {"type": "object", "properties": MARKED["properties"]}}}
    fresh = SchemaBook()
    fresh.learn({"result": {"tools": [{"name": "deep", "inputSchema": nested}]}})
    assert not fresh.marks_nothing()
