"""Which TCP ports given processes listen on: told by the processes' own sockets (psutil), not by whether a
port accepts -- a port chosen free can be taken by someone else before a server binds it.

A free port to start a server on is the lab's own `mcp_lab.deployment.ports.free_port`."""

from __future__ import annotations

from collections.abc import Iterable

import psutil

__all__ = ["listening_ports"]


def listening_ports(pids: Iterable[int]) -> set[int]:
    """TCP ports in LISTEN held by these processes (one that has exited, or cannot be read, holds none)."""
    ports: set[int] = set()
    for pid in pids:
        try:
            connections = psutil.Process(pid).net_connections("tcp")
        except psutil.Error:
            continue
        ports.update(c.laddr.port for c in connections if c.status == psutil.CONN_LISTEN)
    return ports
