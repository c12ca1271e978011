"""Principal binding from an HTTP header, over real Streamable HTTP (uvicorn on 127.0.0.1, in a thread).

State minted for one user fails for another (`principal`) and for an anonymous request (`principal drift`);
the inspector, told who is asking, predicts both.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator

import httpx2
import pytest
import uvicorn
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from tests.conftest import build_demo

CALL = ("tools/call", "handmade", {"x": 1})


@pytest.fixture
async def served() -> AsyncIterator[tuple[LabServer, str]]:
    entry = build_demo()
    entry.install_ring(entry.ring, bind_principal=mcp_lab.header_principal("X-Lab-User"))  # type: ignore[arg-type]
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(entry.server.streamable_http_app(), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        await asyncio.sleep(0.01)
    try:
        yield entry, f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 10)
        sock.close()
        await sandbox.stop_all()


def leaves(group: BaseExceptionGroup[MCPError]) -> list[MCPError]:
    found: list[MCPError] = []
    for exc in group.exceptions:
        found += leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return found


async def call(url: str, user: str | None, state: str | None = None) -> str:
    """One tools/call as `user`: the token it got back, or the wire error's message."""
    headers = {"x-lab-user": user} if user else {}
    failures: list[MCPError] = []
    async with httpx2.AsyncClient(headers=headers) as http:
        try:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                result = await client.session.call_tool(
                    "handmade", {"x": 1}, request_state=state, allow_input_required=True
                )
        except* MCPError as group:  # the SDK's task groups wrap it
            failures += leaves(group)
    if failures:
        return f"error: {failures[0].error.message}"
    assert result.request_state is not None  # type: ignore[union-attr]
    return result.request_state  # type: ignore[union-attr]


async def test_state_minted_for_alice_fails_for_bob_and_for_nobody(served: tuple[LabServer, str]) -> None:
    entry, url = served
    token = await call(url, "alice")
    assert mcp_lab.inspect_token(token, server=entry, call=CALL, principal="alice").verdict == "ok"
    unknown = mcp_lab.inspect_token(token, server=entry, call=CALL)
    assert unknown.verdict == "unknown" and "header 'x-lab-user'" in unknown.check("principal").detail  # type: ignore[union-attr]
    for user, reason in (("bob", "principal"), (None, "principal drift"), ("alice", None)):
        predicted = mcp_lab.inspect_token(token, server=entry, call=CALL, principal=user).verdict
        with entry.capture() as capture:
            answer = await call(url, user, token)
        if reason is None:
            assert predicted == "ok" and answer.startswith("v1.")
        else:
            assert answer == "error: Invalid or expired requestState"
            assert capture.server_log[-1] == f"requestState rejected on tools/call: {reason}" and predicted == reason
