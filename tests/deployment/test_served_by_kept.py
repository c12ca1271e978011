"""A fleet leg's recorder names the instance that served it from the leg's kept exchanges, leaving their
records unbuilt (built when first read): the name, and the line for a request the proxy refused itself, are
those the built records give."""

from __future__ import annotations

import json

from mcp_lab.deployment.app import INSTANCE_HEADER
from mcp_lab.deployment.connection import ProxiedServer, _ServedByRecorder, proxy_refusal, served_by
from mcp_lab.exchanges.record import HttpRecords, KeptExchange, exchange_facts, keep_exchanges, kept_exchanges
from mcp_lab.exchanges.recorder import Exchange

HELD = HttpRecords()
FLEET = ProxiedServer("fleet", "http", url="http://127.0.0.1:1/mcp")
"""A fleet's proxy connection, never connected: the recorders below record for it."""


def _kept(rpc: str, status: int, instance: str | None, legacy: bool = False) -> KeptExchange:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": rpc, "params": {}}).encode()
    sent = [(b"content-type", b"application/json")] + ([] if legacy else [(b"mcp-method", rpc.encode())])
    exchange = Exchange("POST", "http://127.0.0.1:1/mcp", "/mcp", sent, body)
    got = [(b"content-type", b"application/json")]
    if instance is not None:
        got.append((INSTANCE_HEADER.encode(), instance.encode()))
    exchange.responded(status, got)
    exchange.keep(b'{"jsonrpc": "2.0", "id": 1, "result": {}}')
    exchange.done()
    return exchange.kept()


def _leg(*exchanges: KeptExchange) -> tuple[str | None, list[str], bool]:
    recorder = _ServedByRecorder(FLEET)
    with recorder as capture:
        keep_exchanges(capture, exchanges)
        assert FLEET.legs_in_flight == 1  # a proxy reload now leaves the connection as it is
    assert FLEET.legs_in_flight == 0
    unbuilt = kept_exchanges(capture) is not None
    return capture.served_by, list(capture.server_log), unbuilt


def test_the_instance_is_named_without_building_the_records() -> None:
    legs = [
        ((_kept("tools/list", 200, "b"), _kept("tools/call", 200, "a")), "a"),
        ((_kept("tools/call", 200, "a"), _kept("tools/call", 200, "a"), _kept("tools/call", 200, "c")), "a then c"),
        ((_kept("tools/list", 200, "b"),), "b"),  # no call exchange: the others count
        ((_kept("prompts/get", 200, "d", legacy=True),), "d"),  # rpc read from the body
    ]
    for exchanges, named in legs:
        got, log, unbuilt = _leg(*exchanges)
        assert (got, log, unbuilt) == (named, [], True)
        holder = _ServedByRecorder(FLEET)
        keep_exchanges(holder, exchanges)
        assert [f[:2] for f in exchange_facts(holder)] == [(r["rpc"], r["response"]["status"]) for r in holder.http]
        assert served_by(holder.http) == named  # from the built records: the same


def test_a_refusal_by_the_proxy_is_said_as_the_records_say_it() -> None:
    got, log, unbuilt = _leg(_kept("tools/call", 502, None))
    assert got is None and unbuilt
    assert log == ["the proxy answered HTTP 502 itself: no instance served this request"]
    holder = _ServedByRecorder(FLEET)
    keep_exchanges(holder, (_kept("tools/call", 502, None),))
    assert proxy_refusal(holder.http) == log[0]
    assert _leg(_kept("tools/call", 200, None)) == (None, [], True)
