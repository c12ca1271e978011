"""Capture details: attribution by context, schema learning, body decoding, pre-2026 requests."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from typing import Annotated

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import mcp_lab
from mcp_lab.capture import _decode, http_hooks, leg_scope
from mcp_lab.flow import LegCapture
from mcp_lab.sandbox import LabServer, sandbox
from mcp_lab.serve import serve


@pytest.fixture
async def shop() -> AsyncIterator[LabServer]:
    entry = sandbox.new_mcpserver("shop")
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    def forecast(region: Annotated[str, mcp_lab.header("Region")]) -> str:
        return f"sunny in {region}"

    sandbox.register(entry)
    serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


def test_bodies_decode_as_json_sse_events_or_text() -> None:
    assert _decode(b'{"a": 1}') == {"a": 1}
    assert _decode(b'event: message\r\ndata: {"id": 1}\r\n\r\ndata: oops\n\n', sse=True) == {
        "events": [{"id": 1}, "oops"]
    }
    assert _decode(b"plain") == "plain"
    assert _decode(b"") is None


async def test_untagged_listings_still_teach_the_schemas(shop: LabServer) -> None:
    assert shop.http is not None and shop.url is not None
    # Not the lab's client: no hooks, no tag -- but it holds the server's secret, as an invited client would.
    http = httpx2.AsyncClient(headers=mcp_lab.auth_headers(shop))
    async with http, Client(streamable_http_client(shop.url, http_client=http)) as outsider:
        await outsider.list_tools()
    assert "region" in shop.http.book.schemas["forecast"]["properties"]


async def test_exchanges_after_the_leg_ended_are_not_attributed(shop: LabServer) -> None:
    assert shop.http is not None and shop.url is not None
    await shop.http.ready()
    release = asyncio.Event()
    async with httpx2.AsyncClient(event_hooks=http_hooks(shop.http.book)) as client:

        async def late() -> None:
            await release.wait()
            await client.get(shop.url or "")

        with leg_scope(LegCapture()) as capture:
            task = asyncio.get_running_loop().create_task(late())  # inherits the leg's context
            await client.get(shop.url)
        release.set()
        await task
    assert len(capture.http) == 1 and capture.http[0]["method"] == "GET"


async def test_pre_2026_calls_have_no_header_verdicts(shop: LabServer) -> None:
    flow = await mcp_lab.call("shop", "forecast", {"region": "eu"}, legacy=True)
    assert flow.status == "done"
    calls = [e for e in flow.rounds[0].http if e["rpc"] == "tools/call"]
    assert calls and all("param_headers" not in e for e in calls)
    modern = await mcp_lab.call("shop", "forecast", {"region": "eu"})
    assert modern.rounds[0].http[-1]["param_headers"][0]["verdict"] == "ok"


def test_interpreter_exit_stops_every_serving_thread() -> None:
    script = textwrap.dedent(
        """
        import atexit, sys
        from mcp_lab.serve import live_servings
        # Registered before mcp_lab's own hook, so it runs after it (atexit is last-in, first-out).
        atexit.register(lambda: print("left serving:", len(live_servings())))
        import mcp_lab
        from mcp_lab.sandbox import sandbox
        for name in ("a", "b"):
            sandbox.register(sandbox.new_mcpserver(name))
            mcp_lab.serve(name)
        print("serving:", len(live_servings()))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["serving: 2", "left serving: 0"]
