"""The lab's ASGI wrapper takes its tag off every request before the server's app sees it -- wherever the tag
is (the lab's client adds it last), however many there are -- keeps every other header in order, hands the
tagged exchange to the server side, and learns schemas only from a tools/list."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp_lab.exchanges.recorder import TAG_HEADER, Exchange, ExchangeRecorder, SchemaBook, pending_exchanges

TAG = TAG_HEADER.encode()


def _served(headers: list[tuple[bytes, bytes]]) -> tuple[list[tuple[bytes, bytes]], bool]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["headers"] = list(scope["headers"])
        seen["learning"] = send is not _send

    async def _receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def _send(message: Any) -> None:
        return None

    recorder = ExchangeRecorder(app, SchemaBook())
    asyncio.run(recorder({"type": "http", "headers": headers}, _receive, _send))
    return seen["headers"], seen["learning"]


def test_the_tag_is_taken_off_wherever_it_is() -> None:
    plain = [(b"host", b"h"), (b"mcp-method", b"tools/call"), (b"content-type", b"application/json")]
    for where in (len(plain), 0, 1):
        exchange = Exchange("POST", "http://h/mcp", "/mcp", [], b"")
        tag = pending_exchanges.tag(exchange)
        headers = [*plain]
        headers.insert(where, (TAG, tag.encode()))
        got, learning = _served(headers)
        assert got == plain and not learning
        assert exchange.seen_by == {"client", "server"}
    twice = [(TAG, b"nobody"), *plain, (TAG, b"nobody-either")]
    assert _served(twice) == (plain, False)
    assert _served(plain) == (plain, False)  # no tag: the headers as they came


def test_only_a_listing_is_learnt_from() -> None:
    listing = [(b"host", b"h"), (b"mcp-method", b"tools/list"), (b"mcp-method", b"tools/call")]
    assert _served(listing) == (listing, True)
    assert _served([(b"mcp-method", b"tools/call"), (b"mcp-method", b"tools/list")])[1] is False
    assert _served([])[1] is False
