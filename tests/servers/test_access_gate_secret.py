"""The access gate recognises its own secret without the SDK's bearer models, and leaves every other
Authorization header to the SDK's backend: the same requests pass and the same ones get its 401."""

from __future__ import annotations

from typing import Any

from starlette.types import Message, Receive, Scope, Send

from mcp_lab.servers.access import Access


async def _status(gate: Any, headers: list[tuple[bytes, bytes]]) -> int:
    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:9"), *headers],
        "scheme": "http",
        "server": ("127.0.0.1", 9),
        "client": ("127.0.0.1", 5),
    }
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await gate(scope, receive, send)
    return int(sent[0]["status"])


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


async def test_the_secret_passes_in_any_spelling_the_sdk_accepts_and_nothing_else_does() -> None:
    access = Access.make()
    assert access.secret is not None
    gate = access.wrap(_app)
    value = access.secret.header_value().split(" ", 1)[1].encode()
    assert await _status(gate, [(b"authorization", b"Bearer " + value)]) == 200
    assert await _status(gate, [(b"authorization", b"bearer " + value)]) == 200
    assert await _status(gate, [(b"authorization", b"BEARER " + value)]) == 200
    assert await _status(gate, [(b"authorization", b"Bearer " + value + b"x")]) == 401
    assert await _status(gate, [(b"authorization", b"Basic " + value)]) == 401
    assert await _status(gate, [(b"authorization", b"Bearer")]) == 401
    assert await _status(gate, []) == 401
    # The first Authorization header is the one read (by the SDK's backend as by the gate).
    assert await _status(gate, [(b"authorization", b"Bearer nope"), (b"authorization", b"Bearer " + value)]) == 401
    assert await _status(gate, [(b"authorization", b"Bearer " + value), (b"authorization", b"Bearer nope")]) == 200
    other = Access.make().wrap(_app)  # another serving's secret opens nothing here
    assert await _status(other, [(b"authorization", b"Bearer " + value)]) == 401
    assert await _status(Access.make(auth=False).wrap(_app), []) == 200  # --no-auth: nothing checked
