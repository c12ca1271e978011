"""The connection through a fleet's proxy, made again after a reload, outlasts connections closed unanswered.

For a moment after `caddy reload` the old configuration's server may still take a connection and close it
without answering. Under nbgrader's load the fleet's reconnect (then made in the background) met one, failed
its first connect, and the connection through the proxy was forgotten: the next call said `cannot connect`.
Here a relay on loopback stands in front of a real served server and closes its first connections unanswered,
as that server does; `reconnect_after_reload` connects through it anyway, and a relay that never stops
refusing leaves the connection registered, its next call saying why in one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import pytest

import mcp_lab
from mcp_lab.deployment.connection import RECONNECT_TRIES, ProxiedServer
from mcp_lab.errors import LabError
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import auth_headers

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}


@asynccontextmanager
async def relay(target: str, drop: int) -> AsyncIterator[tuple[str, list[int]]]:
    """A loopback relay to `target`'s host and port that closes its first `drop` connections unanswered."""
    where = urlsplit(target)
    seen = [0]

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen[0] += 1
        if seen[0] <= drop:
            await reader.read(1)  # the request has begun: closed without a response
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(where.hostname, where.port)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    server = await asyncio.start_server(accepted, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}{where.path}", seen
    finally:
        server.close()


async def _through(url: str, served: LabServer) -> ProxiedServer:
    connection = ProxiedServer(name="through-relay", transport="http", url=url, timeout=5.0)
    connection.headers = auth_headers(served)  # the served server's secret, as a person's connect sends it
    sandbox.register(connection, replace=True)
    return connection


async def test_a_reconnect_outlasts_connections_closed_unanswered(http_demo: LabServer) -> None:
    assert http_demo.url is not None
    async with relay(http_demo.url, drop=2) as (url, seen):
        connection = await _through(url, http_demo)
        await connection.reconnect_after_reload()
        assert seen[0] > 2  # the dropped connections were met, and the connect went on
        flow = await mcp_lab.call("through-relay", "book", {"city": "Porto"}, answers=ANSWERS)
        assert flow.status == "done" and flow.text == "Booked Porto in eu (ok=True)"
        await connection.close_clients()


async def test_a_reconnect_that_never_gets_through_leaves_one_line_for_the_next_call(http_demo: LabServer) -> None:
    assert http_demo.url is not None
    async with relay(http_demo.url, drop=10_000) as (url, seen):
        connection = await _through(url, http_demo)
        await connection.reconnect_after_reload()
        assert seen[0] >= RECONNECT_TRIES
        assert sandbox.get("through-relay") is connection  # still registered: not forgotten
        with pytest.raises(LabError, match="cannot connect 'through-relay'") as failed:
            await mcp_lab.call("through-relay", "book", {"city": "Porto"}, answers=ANSWERS)
        assert "\n" not in str(failed.value)
        await connection.close_clients()
