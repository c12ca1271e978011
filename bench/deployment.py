"""A fleet of real processes behind Caddy: flows per second, the proxy's cost per leg, lost rounds per phase.

Spec context: retries of multi round-trip requests crossing a load balancer, shared keys, and the three-phase
rotation (mcp_lab/deployment/). One run, three instances of tests/deployment/shop_server.py under shared keys:

1. two-leg flows through the proxy vs. the same flows sent straight to one instance, one at a time (the proxy
   hop alone) and eight at a time: flows per second each way, the ratio, the proxy's milliseconds per leg;
2. a rolling rotation, right order then wrong order: flows lost per phase (counts, with the prediction).

Run: python -m bench.deployment [FLOWS]   (from the repository root)
"""

from __future__ import annotations

import asyncio
import sys
import time

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.rolling import rolling_rotation

SERVER = "tests.deployment.shop_server:mcp"
SIZE = {"ask_size": {"size": "42"}}


async def _flows(target: str, count: int, concurrency: int = 8) -> float:
    """Seconds for `count` two-leg flows, `concurrency` at a time."""
    started = time.perf_counter()
    for offset in range(0, count, concurrency):
        batch = range(offset, min(count, offset + concurrency))
        flows = await asyncio.gather(*(mcp_lab.call(target, "order", {"item": f"b{i}"}, answers=SIZE) for i in batch))
        assert all(f.status == "done" for f in flows), [f.summary() for f in flows if f.status != "done"]
    return time.perf_counter() - started


async def main(count: int) -> None:
    fleet = await start_fleet(SERVER, name="bench-fleet", instances=3, keys="shared")
    try:
        direct = fleet.members[0].name
        await _flows(fleet.name, 8)  # warm both paths: connections, the jsonschema import
        await _flows(direct, 8)
        legs = 2 * count
        print(f"{count} two-leg flows, 3 uvicorn processes, shared keys")
        for concurrency in (1, 8):
            through = await _flows(fleet.name, count, concurrency)
            alone = await _flows(direct, count, concurrency)
            print(f"  {concurrency} at a time: through Caddy {count / through:6.1f} flows/s, one instance direct "
                  f"{count / alone:6.1f} flows/s; ratio proxy/direct {through / alone:.2f}x wall time, "
                  f"proxy cost {(through - alone) / legs * 1000:+.2f} ms per leg")
        print("  (1 at a time isolates the proxy hop; 8 at a time the proxy also spreads the load over 3 processes)")
        for order in ("right", "wrong"):
            report, phases = await rolling_rotation(fleet, order, flows_per_step=20)
            print(f"rolling rotation, {order} order: {report.text()}")
            for phase, c in phases.items():
                print(f"  {phase:<11} {c['flows']:4d} flows, {c['finished']:4d} finished, {c['lost']:4d} lost")
            print(f"  wall {report.wall:.1f} s, {report.flows / report.wall:.0f} flows/s under rotation")
    finally:
        await fleet.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
