"""Shared by the deployment tests: what a fleet left running, and flows through it."""

from __future__ import annotations

import os

import mcp_lab
from mcp_lab.deployment.fleet import ProcessFleet
from mcp_lab.deployment.ports import port_is_free
from mcp_lab.flow.flow import Flow

SERVER = "tests.deployment.shop_server:mcp"
SIZE = {"ask_size": {"size": "42"}}


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False



async def orders(fleet: ProcessFleet, count: int) -> list[Flow]:
    """`count` two-leg flows through the proxy, one after another."""
    return [await mcp_lab.call(fleet.name, "order", {"item": f"boots-{i}"}, answers=SIZE) for i in range(count)]


def refused(flow: Flow) -> bool:
    return any(r.error is not None and r.error.get("code") == -32602 for r in flow.rounds)


def no_process_left(pids: list[int], ports: list[int]) -> bool:
    return not [p for p in pids if alive(p)] and all(port_is_free(p) for p in ports) and os.getpid() not in pids
