"""Capture details: attribution by context, schema learning, body decoding and caps, pre-2026 requests."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import mcp_lab
from mcp_lab.exchanges.record import BODY_CAP, LegCapture, decode_body
from mcp_lab.exchanges.recorder import http_hooks, leg_scope
from mcp_lab.servers.lab_server import LabServer


def test_bodies_decode_as_json_sse_events_or_text() -> None:
    assert decode_body(b'{"a": 1}', "application/json").value == {"a": 1}
    sse = decode_body(b'event: message\r\nid: 7\r\ndata: {"id": 1}\r\n\r\ndata: oops\n\n', "text/event-stream")
    assert [(e.event, e.id, e.data) for e in sse.events] == [("message", "7", {"id": 1}), (None, None, "oops")]
    assert decode_body(b"plain", "text/plain").text == "plain"
    assert decode_body(b"", "").kind == "empty"


def test_a_capped_body_says_it_was_truncated() -> None:
    big = b'{"a": "' + b"x" * (2 * BODY_CAP) + b'"}'
    body = decode_body(big[:BODY_CAP], "application/json", size=len(big))
    assert body.truncated and body.size == len(big) and body.kind == "text"


async def test_untagged_listings_still_teach_the_schemas(served_shop: LabServer) -> None:
    assert served_shop.http is not None and served_shop.url is not None
    # Not the lab's client: no hooks, no tag -- but it holds the server's secret, as an invited client would.
    http = httpx2.AsyncClient(headers=mcp_lab.auth_headers(served_shop))
    async with http, Client(streamable_http_client(served_shop.url, http_client=http)) as outsider:
        await outsider.list_tools()
    assert "region" in served_shop.http.book.schemas["forecast"]["properties"]


async def test_exchanges_after_the_leg_ended_are_not_attributed(served_shop: LabServer) -> None:
    assert served_shop.http is not None and served_shop.url is not None
    await served_shop.http.ready()
    release = asyncio.Event()
    async with httpx2.AsyncClient(event_hooks=http_hooks(served_shop.http.book)) as client:

        async def late() -> None:
            await release.wait()
            await client.get(served_shop.url or "")

        with leg_scope(LegCapture()) as capture:
            task = asyncio.get_running_loop().create_task(late())  # inherits the leg's context
            await client.get(served_shop.url)
        release.set()
        await task
    assert len(capture.http) == 1 and capture.http[0]["method"] == "GET"


async def test_pre_2026_calls_have_no_header_verdicts(served_shop: LabServer) -> None:
    flow = await mcp_lab.call("shop", "forecast", {"region": "eu"}, legacy=True)
    assert flow.status == "done"
    calls = [e for e in flow.rounds[0].http if e["rpc"] == "tools/call"]
    assert calls and all(e["param_headers"] == [] for e in calls)
    modern = await mcp_lab.call("shop", "forecast", {"region": "eu"})
    assert modern.rounds[0].http[-1]["param_headers"][0]["verdict"] == "ok"
    assert modern.rounds[0].http[-1]["response"]["status"] == 200


def test_interpreter_exit_stops_every_serving_thread() -> None:
    script = textwrap.dedent(
        """
        import atexit, sys
        from mcp_lab.servers.serving import live_servings
        # Registered before mcp_lab's own hook, so it runs after it (atexit is last-in, first-out).
        atexit.register(lambda: print("left serving:", len(live_servings())))
        import mcp_lab
        from mcp_lab.servers.sandbox import sandbox
        for name in ("a", "b"):
            sandbox.register(sandbox.new_mcpserver(name))
            mcp_lab.serve(name)
        print("serving:", len(live_servings()))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["serving: 2", "left serving: 0"]
