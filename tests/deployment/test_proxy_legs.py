"""Legs through a real Caddy that no instance refused: the connections the proxy keeps idle, and a request the
proxy answers itself.

Why: a leg refused through the proxy always says why (`error["reason"]`, what tutorial 11's `legs()` prints).
An instance that refuses a retry logs the reason, and the leg reads it back from the instance's log; but a
request the proxy answers itself (502: no instance could take it) leaves no instance log line. That happened
under load when an instance closed an idle connection (uvicorn's own 5 s) just as Caddy -- which keeps idle
upstream connections for 2 minutes -- sent the next request on it. Both halves are held here: instances keep
idle connections longer than the proxy does, and a leg the proxy answered itself says so.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from tests.deployment.helpers import SERVER, SIZE, no_process_left

UVICORN_DEFAULT_KEEP_ALIVE = 5.0


def established(port: int) -> set[tuple[str, str]]:
    """The TCP connections open to 127.0.0.1:`port` (its side of each), from the kernel's own table."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, remote, state = line.split()[1:4]
            if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:  # 01: ESTABLISHED
                found.add((local, remote))
    return found


async def test_an_instance_keeps_the_connections_the_proxy_holds_idle() -> None:
    fleet = await start_fleet(SERVER, name="shop-idle", instances=1)
    pids, ports = fleet.pids(), fleet.ports()
    try:
        first = await mcp_lab.call(fleet.name, "order", {"item": "boots"}, answers=SIZE)
        assert first.status == "done", first.summary()
        port = fleet.processes[0].port
        pooled = established(port)
        assert pooled, "the proxy keeps its connection to the instance for the next request"
        await asyncio.sleep(UVICORN_DEFAULT_KEEP_ALIVE + 2)  # idle past the instance's default keep-alive
        assert pooled <= established(port), "the instance closed a connection the proxy still holds"
        again = await mcp_lab.call(fleet.name, "order", {"item": "socks"}, answers=SIZE)
        assert again.status == "done" and all(r.served_by for r in again.rounds), again.summary()
    finally:
        await fleet.stop()
    assert no_process_left(pids, ports)


async def test_a_leg_the_proxy_answers_itself_says_why() -> None:
    fleet = await start_fleet(SERVER, name="shop-gone", instances=1)
    pids, ports = fleet.pids(), fleet.ports()
    try:
        flow = await mcp_lab.start(fleet.name, "tools/call", "order", {"item": "boots"})
        await flow.step()
        assert flow.status == "input_required" and flow.rounds[0].served_by
        await fleet.processes[0].stop()  # the only instance goes: the proxy finds no one for the retry
        await flow.step(answers=SIZE)
        retry = flow.rounds[-1]
        assert retry.outcome == "error" and retry.served_by is None and retry.error is not None
        assert retry.error["reason"].startswith("the proxy answered HTTP 5"), retry.error
        # what tutorial 11's legs() prints for every refused leg
        lines = [f"leg {r.index + 1} on {r.served_by}: {r.outcome} ({r.error['reason']})" for r in flow.rounds if r.error]
        assert lines == [f"leg 2 on None: error ({retry.error['reason']})"]
        assert "server logged: the proxy answered HTTP 5" in flow.text
    finally:
        await fleet.stop()
    assert no_process_left(pids, ports)
