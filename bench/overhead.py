"""Overhead of the lab's flow engine over the bare SDK, for the same in-memory 2-round tool call.

Spec context: multi round-trip requests. Both sides do the same protocol work (a resolver asks one
elicitation question, the client answers, the retry carries the sealed token); the lab additionally
records every leg as plain data. Interleaved so machine noise hits both alike; prints the median ratio.

Prints the ratios `bench/ratio.py` defines (medians, per-iteration, trimmed means, CPU time) and the load.
Runs PASSES passes over one process (each interleaved call by call) and prints the range of each ratio.

Run: python -m bench.overhead [N per pass, default 400] [PASSES, default 3]   (goal: every ratio <= 1.02)
"""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Any

import mcp.types as T
from mcp import Client
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

import mcp_lab
from bench.ratio import GOAL, Samples, load, report, timed
from mcp_lab.servers.sandbox import sandbox


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


async def main(n: int, passes: int) -> None:
    entry = sandbox.new_mcpserver("bench")
    mcp = entry.server

    @mcp.tool()
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
        return f"Booked {city} in {region.region}"

    sandbox.register(entry)

    async def callback(ctx: Any, params: T.ElicitRequestParams) -> T.ElicitResult:
        return T.ElicitResult(action="accept", content={"region": "eu"})

    answers = {"ask_region": {"region": "eu"}}
    found: list[dict[str, float]] = []
    async with Client(entry.server, elicitation_callback=callback) as client:

        async def bare_call() -> None:
            result = await client.call_tool("book", {"city": "P"})
            assert not result.is_error

        async def lab_call() -> None:
            flow = await mcp_lab.call("bench", "book", {"city": "P"}, answers=answers)
            assert flow.status == "done"

        for _ in range(1100):  # warm both paths, and fill the kernel's flow history as a long session does
            await bare_call()
            await lab_call()
        for index in range(passes):
            lab, bare = Samples(), Samples()
            for i in range(n):
                for which in (bare, lab) if i % 2 == 0 else (lab, bare):
                    await timed(which, bare_call if which is bare else lab_call)
            found.append(report(f"pass {index + 1}: in memory, Client.call_tool vs mcp_lab.call", lab, bare))
    await sandbox.stop_all()
    print(f"over {passes} passes (goal <= {GOAL}), {load()}:")
    for name in found[0]:
        values = [f[name] for f in found]
        print(f"  {name}: {min(values):.3f} .. {max(values):.3f}")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(args[0] if args else 400, args[1] if len(args) > 1 else 3))
