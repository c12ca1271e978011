"""A real uvicorn server on 127.0.0.1 in a thread, for tests of connections over Streamable HTTP.

The socket is created with IPPROTO_TCP so asyncio sets TCP_NODELAY (measured: +45 ms a request
otherwise). Start and stop are awaited with short sleeps, so a test's event loop is never blocked.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import uvicorn


class LoopbackServer:
    def __init__(self, app: Any, port: int = 0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))  # a port again: the same server "restarted" at its address
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    async def start(self) -> LoopbackServer:
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return self
            if not self.thread.is_alive():
                raise RuntimeError("the loopback server thread died while starting")
            await asyncio.sleep(0.01)
        raise RuntimeError("the loopback server did not start")

    async def stop(self) -> None:
        self.server.should_exit = True
        while self.thread.is_alive():
            await asyncio.sleep(0.01)
        self.sock.close()


def legacy_only(app: Any) -> Any:
    """Refuse the 2026-07-28 era (a plain 400 for its requests), as a server from before it would."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if headers.get(b"mcp-protocol-version", b"").startswith(b"2026"):
                await send(
                    {"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"text/plain")]}
                )
                await send({"type": "http.response.body", "body": b"unsupported protocol version"})
                return
        await app(scope, receive, send)

    return wrapped
