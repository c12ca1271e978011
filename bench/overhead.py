"""Overhead of the lab's flow engine over the bare SDK, for the same in-memory 2-round tool call.

Spec context: multi round-trip requests. Both sides do the same protocol work (a resolver asks one
elicitation question, the client answers, the retry carries the sealed token); the lab additionally
records every leg as plain data. Interleaved so machine noise hits both alike; prints the median ratio.

Prints the ratios `bench/ratio.py` defines (medians, per-iteration, trimmed means, CPU time) and the load.
Runs PASSES passes over one process (each interleaved call by call) and prints the range of each ratio.

Then each side alone, in processes of its own started alternately (`separate`): the whole cost of a side,
what it keeps alive included, which interleaving in one process spreads over both sides.

Run: python -m bench.overhead [N per pass, default 1000] [PASSES, default 3] [PAIRS of processes, default 4]
(goal: every ratio <= 1.02)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from typing import Annotated, Any

import mcp.types as T
from mcp import Client
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

import mcp_lab
from bench.ratio import GOAL, Samples, load, report, timed
from mcp_lab.servers.sandbox import sandbox

WARM = 1100
"""Calls before timing: imports and validators warm, and the flow history full (it keeps 1,000)."""


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


async def main(n: int, passes: int, alone: str | None = None) -> None:
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

        if alone is not None:  # one side only, in a process of its own (see `separate`)
            side = lab_call if alone == "lab" else bare_call
            for _ in range(WARM):
                await side()
            c0, t0 = time.process_time(), time.perf_counter()
            for _ in range(n):
                await side()
            print(json.dumps({"cpu": (time.process_time() - c0) / n, "wall": (time.perf_counter() - t0) / n}))
            await sandbox.stop_all()
            return
        for _ in range(WARM):  # warm both paths, and fill the kernel's flow history as a long session does
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


def separate(n: int, pairs: int) -> None:
    """Each side alone in processes of its own, alternately: all it costs, what it keeps alive included.

    In one process the two sides share a heap, so a full garbage collection that the lab's kept flows make
    necessary may land in a bare call (the collector runs in whichever call allocates): interleaving
    spreads the cost of what one side keeps over both. Alone, each side pays for its own."""
    ratios: dict[str, list[float]] = {"cpu": [], "wall": []}
    for pair in range(pairs):
        got: dict[str, dict[str, float]] = {}
        for side in ("lab", "bare") if pair % 2 else ("bare", "lab"):
            command = [sys.executable, "-m", "bench.overhead", "--alone", side, str(n)]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            got[side] = json.loads(out.strip().splitlines()[-1])
        for name in ratios:
            ratios[name].append(got["lab"][name] / got["bare"][name])
        print(
            f"pair {pair + 1}: CPU per call bare {got['bare']['cpu'] * 1000:.3f} ms, lab {got['lab']['cpu'] * 1000:.3f} ms, "
            f"ratio {ratios['cpu'][-1]:.3f}; wall ratio {ratios['wall'][-1]:.3f}"
        )
    for name, values in ratios.items():
        print(
            f"each side alone ({pairs} pairs of processes, {WARM} warm-up calls then {n} timed): {name} ratio lab/bare "
            f"median {statistics.median(values):.3f}, range {min(values):.3f} .. {max(values):.3f}  (goal <= {GOAL})"
        )
    print(f"  {load()}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--alone"]:
        asyncio.run(main(int(sys.argv[3]), 1, alone=sys.argv[2]))
    else:
        args = [int(a) for a in sys.argv[1:4]]
        n = args[0] if args else 1000
        asyncio.run(main(n, args[1] if len(args) > 1 else 3))
        if (args[2] if len(args) > 2 else 4) > 0:
            separate(n, args[2] if len(args) > 2 else 4)
