"""Calls through Caddy right after the fleet grows: every one is answered by a named instance of the pool.

Tutorial 11's graceful-reload cell starts one more us-east instance and at once sends four calls through the
proxy; under nbgrader twice one of them came back without an instance's answer (`served_by` None). Here the
same sequence -- `add_instance`, then calls straight away, then `remove_instance` (a second reload) -- runs
many times, and every call must have been served by an instance of the fleet's us-east pool, by name. A
failure lists what each unserved call got instead (status, error, the requests it sent). No timing is
asserted: only who answered. The second test is the hole that let such a call reach a server that was not
the instance: a port another process took before the instance bound it.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.processes import InstanceProcess, PortTaken, answers_as, free_port, port_accepts
from mcp_lab.flow.flow import Flow
from tests.deployment.helpers import SERVER

RUNS = 30
CALLS = 4


def what_it_got(flow: Flow) -> dict[str, Any]:
    last = flow.rounds[-1]
    sent = [(x.get("rpc"), (x.get("response") or {}).get("status")) for x in last.http]
    return {"outcome": last.outcome, "error": last.error, "served_by": last.served_by, "http": sent}


async def test_every_call_right_after_add_instance_is_served_by_a_named_instance() -> None:
    fleet = await start_fleet(SERVER, name="shop-grow", regions={"eu-west": 1, "us-east": 1}, keys="shared")
    unserved: list[tuple[int, dict[str, Any]]] = []
    served: set[str] = set()
    try:
        for run in range(RUNS):
            added = await fleet.add_instance(region="us-east")
            pool = {p.label for p in fleet.processes if p.region == "us-east"}
            for _ in range(CALLS):
                flow = await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"})
                by = flow.rounds[-1].served_by
                if by not in pool or flow.status != "done":
                    unserved.append((run, what_it_got(flow)))
                elif by is not None:
                    served.add(by)
            await fleet.remove_instance(int(added.name.rsplit(".", 1)[1]))
    finally:
        await fleet.stop()
    assert not unserved, f"{len(unserved)} of {RUNS * CALLS} calls not served by a us-east instance: {unserved[:5]}"
    assert "shop-grow@us-east#1" in served and len(served) == RUNS + 1  # the first and every added instance


async def test_an_instance_whose_port_another_process_took_is_never_taken_for_ready(tmp_path: Path) -> None:
    # What the lab's port choice cannot rule out: between free_port() and uvicorn's bind, another process binds
    # the port. Before, "the port accepts and the state file exists" passed, and the proxy sent the instance's
    # calls to that process (answered without Mcp-Lab-Instance).
    port = free_port()
    squatter = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    fixed = InstanceProcess(label="squat#0", index=0, target=SERVER, directory=tmp_path, port=port)
    moved = InstanceProcess(label="squat#1", index=1, target=SERVER, directory=tmp_path, port=port)
    try:
        while not await port_accepts(port):
            await asyncio.sleep(0.05)
        with pytest.raises(PortTaken, match=f"port {port} on 127.0.0.1 is taken by another process"):
            await fixed.start()
        assert not fixed.running
        await moved.start(new_port_if_taken=True)
        assert moved.port != port and await answers_as(moved.port, "squat#1")
        assert not await answers_as(port, "squat#1")  # the squatter answers, but not as the instance
    finally:
        await fixed.stop()
        await moved.stop()
        squatter.terminate()
        squatter.wait(10)
