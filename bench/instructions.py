"""Instructions per call, lab against bare SDK, counted by valgrind (callgrind): a figure no load can move.

Spec context: multi round-trip requests, the same in-memory 2-round tool call as bench/overhead.py. On a
2-core machine shared by eight people a timed 2% is within the noise of one run; the number of machine
instructions a call executes is not (two batches of one side agree within about 0.5%). It is a proxy, not
the time: cache misses and the collector's pauses cost time that instructions undercount, so the timed
benches stay the figure the goal is stated in.

How: the script runs itself under `valgrind --tool=callgrind`, collecting only inside `functools.reduce`
(a C function nothing else here calls); each measured batch of calls runs inside one `reduce` call on the
event loop, and callgrind writes one file per batch. Warm-up runs uninstrumented (`callgrind_control -i on`
switches instrumentation on after it), so the kernel-sized flow history (1,000 flows) is cheap to reach.
Sides: `bare` (Client.call_tool), `lab` (mcp_lab.call) and `manual` (the two legs by hand on the lab's own
session: the protocol work alone, the floor both sides stand on).

Each count is taken once per fixed hash seed and averaged (bench/callgrind.py; MCP_LAB_HASH_SEEDS=0,1,2).

Run: python -m bench.instructions [WARM, default 200] [N per batch, default 20] [REPS, default 2]
"""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Any

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

from bench.callgrind import instructions_per_call, measured_batches

INNER = "--inner"


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


def outer(warm: int, n: int, reps: int) -> None:
    title = f"instructions per call (callgrind), {warm} warm-up calls of each side, {reps} batches of {n}:"
    instructions_per_call("bench.instructions", [INNER, str(warm), str(n), str(reps)], n, title)


def inner(warm: int, n: int, reps: int) -> None:
    import mcp.types as T
    from mcp import Client

    import mcp_lab
    from mcp_lab.servers.sandbox import sandbox

    held: dict[str, Any] = {}
    answers = {"ask_region": {"region": "eu"}}

    async def bare() -> None:
        assert not (await held["client"].call_tool("book", {"city": "P"})).is_error

    async def lab() -> None:
        assert (await mcp_lab.call("bench", "book", {"city": "P"}, answers=answers)).status == "done"

    async def manual() -> None:
        session = await sandbox.get("bench").session("2026-07-28")
        first = await session.call_tool("book", {"city": "P"}, allow_input_required=True)
        assert isinstance(first, T.InputRequiredResult)
        sent = {k: T.ElicitResult(action="accept", content={"region": "eu"}) for k in first.input_requests or {}}
        final = await session.call_tool(
            "book", {"city": "P"}, input_responses=sent, request_state=first.request_state, allow_input_required=True
        )
        assert not final.is_error

    async def setup() -> None:
        entry = sandbox.new_mcpserver("bench")

        @entry.server.tool()  # type: ignore[union-attr, untyped-decorator]
        async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
            return f"Booked {city} in {region.region}"

        sandbox.register(entry)

        async def callback(ctx: Any, params: Any) -> T.ElicitResult:
            return T.ElicitResult(action="accept", content={"region": "eu"})

        ready, held["stop"] = asyncio.Event(), asyncio.Event()

        async def own() -> None:  # entered and exited in one task, as a kernel must
            async with Client(entry.server, elicitation_callback=callback) as client:
                held["client"] = client
                ready.set()
                await held["stop"].wait()

        held["owner"] = asyncio.get_running_loop().create_task(own())
        await ready.wait()
        for _ in range(warm):
            await bare()
            await lab()
            await manual()

    loop = asyncio.new_event_loop()
    loop.run_until_complete(setup())
    measured_batches(loop, [("bare", bare), ("lab", lab), ("manual", manual)], n, reps)
    held["stop"].set()
    loop.run_until_complete(held["owner"])
    loop.run_until_complete(sandbox.stop_all())


if __name__ == "__main__":
    if sys.argv[1:2] == [INNER]:
        inner(*(int(a) for a in sys.argv[2:5]))
    else:
        args = [int(a) for a in sys.argv[1:4]]
        outer(args[0] if args else 200, args[1] if len(args) > 1 else 20, args[2] if len(args) > 2 else 2)
