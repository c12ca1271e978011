"""Hostile clients and hostile handlers against a lab server served by a real uvicorn on 127.0.0.1 (issue 22).

- Half-open connections (nothing sent, half a request line, headers without their end, a body shorter than
  its Content-Length, half a second request on a kept-alive connection) are closed after the request bound,
  and the server goes on answering whole requests.
- A handler raising SystemExit / KeyboardInterrupt answers an outside SDK client with an error, in both
  protocol eras, and the serving thread does not die (it keeps serving).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx2
import psutil
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

import mcp_lab
import mcp_lab.servers.http_protocol as http_protocol
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve


@pytest.fixture
async def hostile() -> AsyncIterator[LabServer]:
    entry = sandbox.new_mcpserver("hostile")
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    def exits(code: int = 3) -> str:
        raise SystemExit(code)

    @mcp.tool()  # type: ignore[union-attr]
    async def interrupts() -> str:
        raise KeyboardInterrupt

    @mcp.tool()  # type: ignore[union-attr]
    def fine() -> str:
        return "still fine"

    sandbox.register(entry)
    serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


def established(port: int) -> int:
    return sum(
        1
        for c in psutil.Process().net_connections(kind="inet")
        if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port
    )


async def closed_by_server(port: int, payload: bytes, before: bytes = b"", pipelined: bool = True) -> bytes:
    """Send `before` (a whole request) and then `payload` -- at once, or once the first answer is in -- and
    read until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        answered = b""
        if before and not pipelined:
            writer.write(before)
            await writer.drain()
            answered = await asyncio.wait_for(reader.read(65536), 10)
            before = b""
        writer.write(before + payload)
        await writer.drain()
        return answered + await asyncio.wait_for(reader.read(), 10)  # a hang guard only: the bound is far shorter
    finally:
        writer.close()


async def test_half_open_connections_are_closed_and_the_server_goes_on(
    hostile: LabServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert http_protocol.REQUEST_TIMEOUT == 30.0  # the documented bound; shortened here so the test is quick
    monkeypatch.setattr(http_protocol, "REQUEST_TIMEOUT", 0.3)
    serving = hostile.http
    assert serving is not None
    port = serving.port
    await mcp_lab.call("hostile", "fine")  # the lab's own client is connected (its sockets are not counted)
    baseline = established(port)
    auth = serving.access.headers()["Authorization"].encode()
    head = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: %s\r\n" % (port, auth)
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    whole = head + b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    whole += b"Mcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s" % (len(ping), ping)
    half_open = [
        b"",  # connected, never a byte
        b"POST /mc",  # half a request line
        head,  # headers without their end
        head + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n" + b'{"jsonrpc"',  # a short body
    ]
    for payload in half_open:
        assert await closed_by_server(port, payload) == b""
    # Half a second request on a connection kept alive after a whole one: the first is answered, then closed.
    for pipelined in (True, False):
        answered = await closed_by_server(port, b"POST /mcp HTTP/1.1\r\nHo", before=whole, pipelined=pipelined)
        assert answered.startswith(b"HTTP/1.1 ") and answered.count(b"HTTP/1.1 ") == 1, answered
    for _ in range(200):  # the server side of the closed sockets goes away (no timing asserted: a hang guard)
        if established(port) <= baseline:
            break
        await asyncio.sleep(0.02)
    assert established(port) <= baseline
    flow = await mcp_lab.call("hostile", "fine")
    assert flow.text == "still fine" and serving.alive and "not serving" not in serving.describe()


async def test_systemexit_in_a_handler_answers_an_outside_client_and_the_server_keeps_serving(
    hostile: LabServer, capfd: pytest.CaptureFixture[str]
) -> None:
    serving = hostile.http
    assert serving is not None
    for mode in ("auto", "legacy"):
        async with (
            httpx2.AsyncClient(headers=serving.access.headers()) as http,
            Client(streamable_http_client(serving.url, http_client=http), mode=mode) as client,  # type: ignore[arg-type]
        ):
            for tool in ("exits", "interrupts", "exits"):
                try:
                    result = await client.call_tool(tool, {})
                except MCPError as error:  # 2026-07-28: the frozen internal error; 2025-11-25: the SDK's code 0
                    assert error.error.code == (-32603 if mode == "auto" else 0), error.error
                else:
                    raise AssertionError(f"{tool} answered {result}")
            assert (await client.call_tool("fine", {})).content[0].text == "still fine"  # type: ignore[union-attr]
        assert serving.alive and serving.failure is None
    flow = await mcp_lab.call("hostile", "exits", {"code": 7})
    assert flow.status == "error" and "server logged: SystemExit: 7" in flow.summary()
    # The SDK logs a failing handler called by an outside client (as for any exception) -- but nothing died:
    # neither the serving thread nor a request task of uvicorn's.
    err = capfd.readouterr().err
    assert "Exception in thread" not in err and "Exception in ASGI application" not in err
