"""Key rotation under load: 4 HTTP instances, 400 concurrent two-round flows across every phase step.

Spec context: the three-phase rotation and the load balancer the seeds warn about (see
mcp_lab/inspect/rotation_load.py). Prints throughput, the loss count (and the prediction) and wall time
for the right order, then for a wrong order. Goal: 0 lost in the right order, under 30 s on 2 cores.

Run: python -m bench.fleet [FLOWS_PER_STEP]
"""

from __future__ import annotations

import asyncio
import sys

from mcp_lab.rotation.fleet import Fleet
from mcp_lab.rotation.load import WRONG_ORDER, run_rotation_load
from mcp_lab.rotation.stepper import RotationStepper


async def main(per_step: int) -> None:
    fleet = Fleet("svc", instances=4, keys=[b"bench-shared-key-".ljust(32, b".")], http=True)
    try:
        for label, schedule in (("right order", None), ("wrong order", WRONG_ORDER)):
            report = await run_rotation_load(RotationStepper(fleet), schedule, flows_per_step=per_step, order=label)
            print(report.text())
            print(
                f"  wall {report.wall:.1f} s, {report.legs} legs, {report.throughput:.0f} legs/s, "
                f"{report.flows / report.wall:.0f} flows/s"
            )
    finally:
        await fleet.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
