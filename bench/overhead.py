"""Overhead of the lab's flow engine over the bare SDK, for the same in-memory 2-round tool call.

Spec context: multi round-trip requests. Both sides do the same protocol work (a resolver asks one
elicitation question, the client answers, the retry carries the sealed token); the lab additionally
records every leg as plain data. Interleaved so machine noise hits both alike; prints the median ratio.

Besides the ratio of the two medians it prints the median of the per-iteration ratios (each lab call over
the bare call made next to it, so a slow spell on a shared machine cancels out) and the same in process
CPU time, which other processes' load disturbs less than wall-clock time.

Run: python -m bench.overhead [N]   (goal: median ratio <= 1.02)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from typing import Annotated, Any

import mcp.types as T
from mcp import Client
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

import mcp_lab
from mcp_lab.servers.sandbox import sandbox


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


async def main(n: int) -> None:
    entry = sandbox.new_mcpserver("bench")
    mcp = entry.server

    @mcp.tool()
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
        return f"Booked {city} in {region.region}"

    sandbox.register(entry)

    async def callback(ctx: Any, params: T.ElicitRequestParams) -> T.ElicitResult:
        return T.ElicitResult(action="accept", content={"region": "eu"})

    answers = {"ask_region": {"region": "eu"}}
    lab_times: list[float] = []
    bare_times: list[float] = []
    lab_cpu: list[float] = []
    bare_cpu: list[float] = []
    async with Client(entry.server, elicitation_callback=callback) as client:
        for _ in range(30):  # warm both paths
            await client.call_tool("book", {"city": "P"})
            await mcp_lab.call("bench", "book", {"city": "P"}, answers=answers)
        for i in range(n):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for which in order:
                c0, t0 = time.process_time(), time.perf_counter()
                if which == 0:
                    result = await client.call_tool("book", {"city": "P"})
                    bare_times.append(time.perf_counter() - t0)
                    bare_cpu.append(time.process_time() - c0)
                    assert not result.is_error
                else:
                    flow = await mcp_lab.call("bench", "book", {"city": "P"}, answers=answers)
                    lab_times.append(time.perf_counter() - t0)
                    lab_cpu.append(time.process_time() - c0)
                    assert flow.status == "done"
    await sandbox.stop_all()
    bare, lab = statistics.median(bare_times), statistics.median(lab_times)
    bare_best, lab_best = min(bare_times), min(lab_times)
    print(f"calls each: {n}")
    print(f"bare Client.call_tool median: {bare * 1000:.3f} ms  best {bare_best * 1000:.3f} ms")
    print(f"mcp_lab.call (Flow.run)  median: {lab * 1000:.3f} ms  best {lab_best * 1000:.3f} ms")
    paired = statistics.median(a / b for a, b in zip(lab_times, bare_times, strict=True))
    cpu = statistics.fmean(lab_cpu) / statistics.fmean(bare_cpu)
    print(f"ratio lab/bare (median): {lab / bare:.3f}  (goal <= 1.02); best: {lab_best / bare_best:.3f}")
    print(f"median of per-iteration ratios: {paired:.3f}; process CPU time ratio (means): {cpu:.3f}")
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 400))
