"""Loopback ports for instance processes: a free one, whether one is free, whether it answers as an instance.

Spec context: each instance of a deployed server listens on its own port on 127.0.0.1 behind the proxy; a
port that merely accepts proves nothing (another process may hold it), so readiness is an HTTP answer that
names the instance (`Mcp-Lab-Instance`).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

from mcp_lab.deployment.app import INSTANCE_HEADER

__all__ = ["answering_as", "answers_as", "free_port", "port_accepts", "port_is_free"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_is_free(port: int) -> bool:
    """Nothing listens on 127.0.0.1:`port` (closed connections still in TIME_WAIT do not count, as for servers)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


async def port_accepts(port: int) -> bool:
    """Whether something accepts a connection on 127.0.0.1:`port` now (the connection is closed at once)."""
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


async def answers_as(port: int, label: str, timeout: float = 2.0) -> bool:
    """Whether 127.0.0.1:`port` answers an HTTP request as instance `label` (its `Mcp-Lab-Instance` header;
    under --workers `label/pidN`). A port that accepts proves nothing: another process may hold it (uvicorn
    then fails to bind after its app and state file loaded) and the proxy would send the instance's traffic there."""
    return await answering_as(port, label, timeout) is not None


async def answering_as(port: int, label: str, timeout: float = 2.0) -> str | None:
    """Which process of instance `label` answered an HTTP request on a new connection to 127.0.0.1:`port`:
    its `Mcp-Lab-Instance` header (`label`, or `label/pidN` for one of its --workers), or None when nothing
    answered as that instance."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, TimeoutError):
        return None
    try:
        writer.write(f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return None
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == INSTANCE_HEADER.lower() and value.strip().split("/pid")[0] == label:
            return value.strip()
    return None


