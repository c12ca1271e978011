"""The client hooks keep an exchange's headers as httpx2's raw byte pairs and decode them only when its
record is built: the record is the one the decoded headers give (Latin-1, names as spelled, order kept,
credentials redacted), and the facts read on the way (`Mcp-Method`, the content types) are the same."""

from __future__ import annotations

import json

from mcp_lab.exchanges.record import GIVEN_CREDENTIALS, exchange_record, keep_out_of_records, text_headers
from mcp_lab.exchanges.recorder import Exchange

CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "shop", "arguments": {}}}
SENT = [
    ("Host", "127.0.0.1:1"),
    ("Authorization", "Bearer s3cr3t"),
    ("X-Token", "t0ken"),
    ("content-type", "application/json"),
    ("Mcp-Method", "tools/call"),
    ("MCP-METHOD", "resources/read"),  # a second one: the first is the one read
    ("X-Caf\u00e9", "cr\u00e8me"),  # not ASCII: Latin-1 both ways
]
GOT = [("date", "today"), ("Content-Type", "application/json"), ("content-type", "text/plain")]


def _raw(pairs: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in pairs]


def _exchange(
    sent: list[tuple[str, str]] | list[tuple[bytes, bytes]], got: list[tuple[str, str]] | list[tuple[bytes, bytes]]
) -> Exchange:
    exchange = Exchange("POST", "http://127.0.0.1:1/mcp", "/mcp", sent, json.dumps(CALL).encode())
    exchange.responded(200, got)
    exchange.keep(b'{"jsonrpc": "2.0", "id": 3, "result": {}}')
    exchange.done()
    exchange.started = exchange.finished = 1.0  # the same elapsed time for both
    return exchange


def test_raw_headers_give_the_record_text_headers_give() -> None:
    keep_out_of_records(["X-Token"])
    try:
        raw, text = _exchange(_raw(SENT), _raw(GOT)), _exchange(SENT, GOT)
        kept = raw.kept()
        assert all(isinstance(k, bytes) for k, _ in kept[3]) and all(isinstance(k, bytes) for k, _ in kept[8])
        assert exchange_record(kept) == exchange_record(text.kept())
        record = exchange_record(kept)
        sent = dict(map(tuple, record["request"]["headers"]))
        assert sent["Authorization"] == sent["X-Token"] == "<redacted>"
        assert sent["X-Caf\u00e9"] == "cr\u00e8me"
        assert [k for k, _ in record["request"]["headers"]] == [k for k, _ in SENT]
        assert record["rpc"] == "tools/call"
    finally:
        GIVEN_CREDENTIALS.discard("x-token")


def test_facts_read_from_raw_headers_are_those_read_from_text() -> None:
    raw, text = _exchange(_raw(SENT), _raw(GOT)), _exchange(SENT, GOT)
    for exchange in (raw, text):
        assert exchange.rpc_method == "tools/call"
        assert exchange.request_type == "application/json"
        assert exchange.content_type == "application/json"
        assert exchange.request_headers == SENT and exchange.response_headers == GOT
    none = _exchange(_raw([("Host", "h")]), [])
    assert (none.rpc_method, none.request_type, none.content_type) == (None, "", "")
    assert text_headers([]) == [] and text_headers(_raw(GOT)) == GOT


def test_headers_read_from_httpx2_are_those_its_raw_pairs_give() -> None:
    """The client hooks read httpx2's own (name, lowered name, value) triples in C; the pairs and facts are
    the ones `Headers.raw` and the general reading give -- for a request, a response, and neither fact."""
    import httpx2

    from mcp_lab.exchanges.wire_headers import header_facts, wire_headers

    for pairs in (SENT, GOT, [("Host", "h")], []):
        headers = httpx2.Headers(_raw(pairs))
        raw, facts = wire_headers(headers)
        assert raw == tuple(headers.raw) == tuple(_raw(pairs))
        assert facts == header_facts(_raw(pairs))


def test_headers_held_another_way_are_read_the_general_way() -> None:
    """Should httpx2 hold its headers otherwise, the hooks read `Headers.raw` as before."""
    from mcp_lab.exchanges.wire_headers import header_facts, wire_headers

    class Other:
        def __init__(self, held: object) -> None:
            self._list = held
            self.raw = _raw(SENT)

    pairs = [(b"Mcp-Method", b"tools/call")]  # pairs, not triples
    for held in (Other(pairs), Other(None), Other(tuple(pairs)), type("NoList", (), {"raw": _raw(SENT)})()):
        raw, facts = wire_headers(held)  # type: ignore[arg-type]
        assert raw == tuple(_raw(SENT)) and facts == header_facts(_raw(SENT))


async def test_each_request_is_recorded_with_its_own_url() -> None:
    """The hooks reuse the text of the URL they recorded last only for the same URL."""
    import httpx2

    from mcp_lab.exchanges.record import LegCapture
    from mcp_lab.exchanges.recorder import Leg, http_hooks

    on_request = http_hooks(tag=False)["request"][0]
    capture = LegCapture()
    leg = Leg(capture)
    urls = [
        "http://127.0.0.1:1/mcp",
        "http://127.0.0.1:1/mcp",
        "http://127.0.0.1:2/other?x=1",
        "http://127.0.0.1:1/mcp",
    ]
    try:
        for url in urls:
            await on_request(httpx2.Request("POST", url, content=b"{}"))
    finally:
        leg.end()
    recorded = [(record["url"], record["path"]) for record in capture.http]
    assert recorded == [(url, "/" + url.split("/", 3)[3]) for url in urls]
