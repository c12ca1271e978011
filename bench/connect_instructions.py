"""Instructions per call of bench/connect.py's four sides, counted by valgrind (callgrind): a figure no load moves.

Spec context: multi round-trip requests over the two standard transports, the same 2-round tool call as
bench/connect.py (`bare` Client.call_tool, `session` the lab connection's own SDK session with the legs sent
by hand, `session+capture` the same inside the connection's capture, `lab` mcp_lab.call). On a shared 2-core
machine a timed 2% drowns in the noise of one run; the instructions this process's main thread executes do
not (batches of one side still differ by about 1%: the collector runs when it runs). Counted: the main thread
only -- the clients, the capture and the flow engine; not the HTTP server's thread nor a stdio server's
process, which serve every side alike. A proxy, not the time: syscalls and cache misses are not counted.

How: as bench/instructions.py, collection only inside `functools.reduce`, one batch of calls per `reduce`
call, warm-up uninstrumented.

Each count is taken once per fixed hash seed and averaged (bench/callgrind.py; MCP_LAB_HASH_SEEDS=0,1,2).

Run: python -m bench.connect_instructions http|stdio [WARM (30)] [N per batch (20)] [REPS (2)] [SIDES]
SIDES: a comma-separated subset of bench/connect.py's sides (default all four; `bare` is always measured).
MCP_LAB_CALLGRIND_KEEP=DIR keeps each batch's callgrind file in DIR (for callgrind_annotate).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bench.callgrind import instructions_per_call, measured_batches
from bench.connect import SIDES

INNER = "--inner"


def outer(kind: str, warm: int, n: int, reps: int, sides: str = "") -> None:
    title = f"{kind}: instructions per call (callgrind, main thread), {warm} warm-up calls each, {reps} batches of {n}:"
    arguments = [INNER, kind, str(warm), str(n), str(reps), sides]
    instructions_per_call("bench.connect_instructions", arguments, n, title, width=15)


def inner(kind: str, warm: int, n: int, reps: int, sides: str = "") -> None:
    from mcp import Client, StdioServerParameters
    from mcp.server.mcpserver import MCPServer

    import mcp_lab
    from bench.connect import STDIO, _elicit, _sides
    from bench.http_roundtrip import BareServer, add_tools

    held: dict[str, Any] = {}
    loop = asyncio.new_event_loop()

    async def setup() -> None:
        mcp = MCPServer("booking", log_level="WARNING")
        add_tools(mcp)
        held["server"] = server = BareServer(mcp)
        target: Any
        if kind == "http":
            await mcp_lab.connect("bench", server.url)
            target = server.url
        else:
            await mcp_lab.connect("bench", stdio=STDIO)
            target = StdioServerParameters(command=STDIO[0], args=STDIO[1:])
        ready, held["stop"] = asyncio.Event(), asyncio.Event()

        async def own() -> None:  # entered and exited in one task
            async with Client(target, elicitation_callback=_elicit) as client:
                await client.list_tools()
                held["client"] = client
                ready.set()
                await held["stop"].wait()

        held["owner"] = asyncio.get_running_loop().create_task(own())
        await ready.wait()
        entry = mcp_lab.sandbox.get("bench")
        await entry.tool_names()
        session = await entry.session("2026-07-28")
        wanted = {"bare", *sides.split(",")} if sides else None
        every = _sides(held["client"], "bench", session, entry.capture)
        held["calls"] = {side: call for side, call in every.items() if wanted is None or side in wanted}
        for _ in range(warm):
            for call in held["calls"].values():
                await call()

    loop.run_until_complete(setup())
    measured_batches(loop, list(held["calls"].items()), n, reps)
    held["stop"].set()
    loop.run_until_complete(held["owner"])
    loop.run_until_complete(mcp_lab.sandbox.stop_all())
    loop.run_until_complete(held["server"].stop())


if __name__ == "__main__":
    if sys.argv[1:2] == [INNER]:
        inner(sys.argv[2], *(int(a) for a in sys.argv[3:6]), *sys.argv[6:7])
    else:
        if sys.argv[1:2] not in (["http"], ["stdio"]):
            raise SystemExit("usage: python -m bench.connect_instructions http|stdio [WARM] [N] [REPS] [SIDES]")
        args = [int(a) for a in sys.argv[2:5]]
        chosen = sys.argv[5] if len(sys.argv) > 5 else ""
        unknown = set(chosen.split(",")) - set(SIDES) if chosen else set()
        if unknown:
            raise SystemExit(f"unknown sides: {', '.join(sorted(unknown))} (sides: {', '.join(SIDES)})")
        warm, n, reps = args[0] if args else 30, args[1] if len(args) > 1 else 20, args[2] if len(args) > 2 else 2
        outer(sys.argv[1], warm, n, reps, chosen)
