"""Connections over Streamable HTTP to a real loopback uvicorn server, and every way a connect can fail.

Each failure must be one LabError line and leave nothing behind: no registry entry, no process.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2
import pytest

import mcp_lab
from mcp_lab.errors import LabError
from mcp_lab.exchanges.recorder import http_hooks
from mcp_lab.servers.connect import OutsideServer, connection_log, open_connection
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.transports import LegRecorder
from tests.http_records import request_json, response_messages, sent_headers
from tests.sample_servers.booking import build
from tests.sample_servers.loopback import LoopbackServer, legacy_only

RESOLVER = "tests.sample_servers.booking:ask_region"


@pytest.fixture
async def http_a() -> AsyncIterator[LoopbackServer]:
    server = await LoopbackServer(build("A").streamable_http_app()).start()
    try:
        yield server
    finally:
        await sandbox.stop_all()
        await server.stop()


def _children_with(token: str) -> list[int]:
    """Our child processes whose command line holds `token` (to prove a failed connect left none)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
            if ppid == os.getpid() and token.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


async def test_http_connection_negotiates_2026_and_captures_each_exchange(http_a: LoopbackServer) -> None:
    entry = await mcp_lab.connect("bk-http", http_a.url)
    assert isinstance(entry, OutsideServer) and entry.protocol_version == "2026-07-28"
    flow = await mcp_lab.call("bk-http", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}})
    assert flow.status == "done" and flow.text == "Booked Oslo in north"
    first, second = flow.rounds
    assert [x["method"] for x in first.http] == ["POST"] and first.http[0]["response"]["status"] == 200
    sent = first.http[0]
    assert sent["path"] == "/mcp" and sent["seen_by"] == ["client"]  # an outside server: no tag
    assert sent_headers(sent)["mcp-method"] == "tools/call" and sent_headers(sent)["mcp-name"] == "book"
    assert "x-mcp-lab-exchange" not in sent_headers(sent)
    body = request_json(sent)
    assert body["method"] == "tools/call" and body["params"]["arguments"] == {"city": "Oslo"}
    [message] = response_messages(sent)  # SSE or plain JSON: one message either way
    assert message["result"]["resultType"] == "input_required"
    assert message["result"]["requestState"] == first.request_state
    assert request_json(second.http[0])["params"]["requestState"] == first.request_state
    assert RESOLVER in request_json(second.http[0])["params"]["inputResponses"]
    assert "-> 200" in flow._repr_mimebundle_()["text/plain"]  # the real status, in the text view too
    with pytest.raises(LabError, match="a Streamable HTTP connection"):
        connection_log("bk-http")


async def test_http_capture_redacts_credentials(http_a: LoopbackServer) -> None:
    with LegRecorder(None) as capture:
        async with httpx2.AsyncClient(event_hooks=http_hooks(tag=False)) as client:
            response = await client.post(
                http_a.url, json={}, headers={"Authorization": "Bearer secret-value", "Cookie": "a=b"}
            )
            await response.aread()
    [exchange] = capture.http
    assert sent_headers(exchange)["authorization"] == "<redacted>" and sent_headers(exchange)["cookie"] == "<redacted>"
    assert "secret-value" not in repr(capture)
    assert exchange["response"]["status"] == response.status_code and exchange["response"]["body"]["size"] > 0


async def test_every_call_path_and_step_mode_over_http(http_a: LoopbackServer) -> None:
    await mcp_lab.connect("bk-http", http_a.url)
    step = await mcp_lab.start("bk-http", "tools/call", "handmade", {"x": 1})
    await step.step()
    assert list(step.pending_requests) == ["q1"]
    await step.run(answers={"q1": {"n": 2}})
    assert step.text == "x=1 n=2"
    assert (await mcp_lab.get_prompt("bk-http", "briefing", answers={"audience": {"n": 5}})).text.endswith("5.")
    assert (await mcp_lab.read_resource("bk-http", "doc://a", answers={"why": {"n": 3}})).text == "doc a for reason 3"
    legacy = await mcp_lab.call(
        "bk-http", "book", {"city": "Rome"}, answers={"ask_region": {"region": "s"}}, legacy=True
    )
    assert legacy.status == "done" and legacy.rounds[0].backchannel and legacy.rounds[0].http


async def test_registered_at_once_so_the_next_cell_waits_for_the_connect(http_a: LoopbackServer) -> None:
    entry = open_connection("bk-http", http_a.url)  # what a bare `%mcp_connect` does; no await yet
    assert sandbox.get("bk-http") is entry and entry.protocol_version is None
    flow = await mcp_lab.call("bk-http", "echo", {"text": "early"})
    assert flow.text == "early" and entry.protocol_version == "2026-07-28"


async def test_unreachable_url_is_one_line_and_leaves_nothing() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(LabError, match=rf"cannot connect 'gone': nothing answers at http://127.0.0.1:{port}/mcp"):
        await mcp_lab.connect("gone", f"http://127.0.0.1:{port}/mcp")
    assert "gone" not in sandbox.servers


async def test_a_server_speaking_only_the_older_era(http_a: LoopbackServer) -> None:
    old = await LoopbackServer(legacy_only(build("A").streamable_http_app())).start()
    try:
        with pytest.raises(LabError, match=r"speaks only 2025-11-25 .*connect again with --legacy"):
            await mcp_lab.connect("old", old.url)
        assert "old" not in sandbox.servers
        entry = await mcp_lab.connect("old", old.url, legacy=True)
        assert entry.protocol_version == "2025-11-25" and entry.legacy_only
        flow = await mcp_lab.call("old", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}})
        assert flow.era == "2025-11-25" and flow.text == "Booked Oslo in north"  # flows follow the connection
    finally:
        await sandbox.stop_all()
        await old.stop()


async def test_a_stdio_command_that_exits_shows_its_stderr() -> None:
    script = "import sys; print('boom: no config file', file=sys.stderr); sys.exit(3)"
    with pytest.raises(LabError) as failure:
        await mcp_lab.connect("crash", stdio=[sys.executable, "-c", script])
    message = str(failure.value)
    assert message.startswith("cannot connect 'crash': the command exited (or closed its stdout) before answering")
    assert "boom: no config file" in message and "%mcp_connect log crash" in message
    assert "\n" not in message
    assert "crash" not in sandbox.servers
    assert "boom: no config file" in connection_log("crash")


async def test_a_missing_command_and_a_silent_one() -> None:
    with pytest.raises(LabError, match="cannot start '/nonexistent/mcp-server': No such file or directory"):
        await mcp_lab.connect("missing", stdio="/nonexistent/mcp-server --flag")
    token = "mcp-lab-silent-server"
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()", token]  # reads, never answers
    with pytest.raises(LabError, match=r"did not answer within 0\.5 s"):
        await mcp_lab.connect("silent", stdio=silent, timeout=0.5)
    assert not _children_with(token)
    assert not {"missing", "silent"} & set(sandbox.servers)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"url": "ftp://x"}, "not an http"),
        ({}, "either a URL"),
        ({"url": "http://x/mcp", "stdio": "cmd"}, "either a URL"),
        ({"stdio": "   "}, "command is empty"),
        ({"stdio": "'unclosed"}, "could not parse the command"),
        ({"url": "http://x/mcp", "timeout": 0}, "positive"),
    ],
)
async def test_bad_input_is_refused_before_anything_starts(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(LabError, match=message):
        await mcp_lab.connect("bad", **kwargs)  # type: ignore[arg-type]
    assert "bad" not in sandbox.servers


async def test_names_are_unique_across_lab_servers_and_connections(http_a: LoopbackServer, demo: object) -> None:
    with pytest.raises(LabError, match="already exists"):
        await mcp_lab.connect("demo", http_a.url)
    with pytest.raises(LabError, match="a server the lab started, not a connection"):
        await mcp_lab.disconnect("demo")


async def test_mcp_server_stop_and_restart_work_for_connections(http_a: LoopbackServer) -> None:
    from mcp_lab.lab import lab
    from mcp_lab.magics.servers import LabMagics

    entry = await mcp_lab.connect("bk-http", http_a.url)
    await sandbox.restart("bk-http")  # clients reconnect on the next call; no keys to renew
    assert entry.generation == 1 and entry.ring is None
    assert (await mcp_lab.call("bk-http", "echo", {"text": "again"})).text == "again"
    LabMagics(shell=None).mcp_server("stop bk-http")
    assert "bk-http" not in sandbox.servers
    await asyncio.gather(*lab.background)  # the magic closes the clients as a task
    with pytest.raises(LabError, match="was disconnected"):
        await entry.session("2026-07-28")


async def test_views_never_show_credentials_or_environment(http_a: LoopbackServer) -> None:
    entry = OutsideServer(name="x", transport="http", url="http://user:s3cret@127.0.0.1:1/mcp")
    assert entry.where == "http://127.0.0.1:1/mcp"
    stdio = OutsideServer(name="y", transport="stdio", command=["srv"], env={"API_TOKEN": "s3cret"})
    assert "s3cret" not in repr(stdio) and "s3cret" not in repr(entry._repr_mimebundle_())
