"""After a proxy reload, no request of the lab's goes out on a connection opened before it.

`caddy reload` returns once the old configuration's server has begun shutting down; that server closes its
idle keep-alive connections a moment later. A request sent on one in between is never read: under nbgrader
on a busy machine, one of tutorial 11's four calls right after `add_instance` came back with no instance's
answer. The race itself cannot be forced from here, so the first test checks what rules it out, on this
process's own sockets: every TCP connection to the proxy that was open before the reload is closed when
`add_instance` returns, and the calls after it are all answered by the pool. The second checks the other
half of the rule: a leg in flight during a reload is not cut (the graceful reload lets it finish).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from tests.deployment.helpers import SERVER


def connections_to(port: int) -> set[int]:
    """Local ports of this process's TCP sockets to 127.0.0.1:`port`, in any state: one the proxy has closed
    but this process has not (CLOSE_WAIT) still counts, since the client's pool could still pick it."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    local_ports = set()
    for line in Path("/proc/self/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if inode in inodes and remote == f"0100007F:{port:04X}":
            local_ports.add(int(local.split(":")[1], 16))
    return local_ports


async def test_add_instance_leaves_no_connection_to_the_proxy_from_before_the_reload() -> None:
    fleet = await start_fleet(SERVER, name="shop-fresh", regions={"eu-west": 1, "us-east": 1}, keys="shared")
    try:
        first = await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"})
        assert first.status == "done"
        before = connections_to(fleet.proxy.port)  # type: ignore[union-attr]
        assert before, "the call should have left a keep-alive connection to the proxy"
        await fleet.add_instance(region="us-east")
        assert not before & connections_to(fleet.proxy.port)  # type: ignore[union-attr]
        pool = {p.label for p in fleet.processes if p.region == "us-east"}
        flows = [await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"}) for _ in range(4)]
        assert [(f.status, f.rounds[-1].served_by in pool) for f in flows] == [("done", True)] * 4
        assert {f.rounds[-1].served_by for f in flows} == pool  # round robin over both, the new one too
    finally:
        await fleet.stop()


async def test_a_leg_in_flight_during_a_reload_finishes_where_it_is() -> None:
    fleet = await start_fleet(SERVER, name="shop-inflight", regions={"eu-west": 1, "us-east": 1}, keys="shared")
    try:
        await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"})
        call = asyncio.ensure_future(mcp_lab.call(fleet.name, "forecast", {"region": "eu-west"}))
        while fleet.connection.legs_in_flight == 0 and not call.done():
            await asyncio.sleep(0)
        in_flight = fleet.connection.legs_in_flight
        await fleet.add_instance(region="us-east")
        flow = await call
        assert (flow.status, flow.rounds[-1].served_by) == ("done", "shop-inflight@eu-west#0"), in_flight
        assert fleet.connection.legs_in_flight == 0
        after = await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"})
        assert after.status == "done"
    finally:
        await fleet.stop()
