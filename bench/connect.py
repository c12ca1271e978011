"""Overhead of a lab connection over the bare SDK client, for the same 2-round tool call to an outside server.

Spec context: multi round-trip requests over the two standard transports. Both sides do the same protocol
work against the same server (a resolver asks one elicitation question, the client answers, the retry
carries the sealed token); the lab additionally records every leg, and over HTTP every exchange (httpx2
hooks and a body tee). Interleaved call by call so machine noise hits both alike; prints the ratios
bench/ratio.py defines (CPU time of this process -- the clients; the HTTP server's thread too -- among
them) and, for stdio, the CPU time each side's server process used over the run (from /proc).

Run: python -m bench.connect [N, default 300]   (goal: every ratio <= 1.02)
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import mcp.types as T
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer

import mcp_lab
from bench.http_roundtrip import BareServer, add_tools
from bench.ratio import Samples, report, timed

ANSWERS = {"ask_region": {"region": "eu"}}
STDIO = [sys.executable, "-m", "bench.booking_stdio"]
"""The same booking server as a stdio process (bench/booking_stdio.py)."""


async def _elicit(ctx: Any, params: T.ElicitRequestParams) -> T.ElicitResult:
    return T.ElicitResult(action="accept", content={"region": "eu"})


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process `pid` has used (from /proc; 0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children() -> set[int]:
    """This process's child processes now."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            found.update(int(pid) for pid in (task / "children").read_text().split())
        except OSError:
            continue
    return found


async def _measure(label: str, bare_target: Any, lab_name: str, n: int) -> None:
    lab, bare = Samples(), Samples()
    before = _children()
    async with Client(bare_target, elicitation_callback=_elicit) as client:

        async def bare_call() -> None:
            result = await client.call_tool("book", {"city": "P"})
            assert not result.is_error

        async def lab_call() -> None:
            flow = await mcp_lab.call(lab_name, "book", {"city": "P"}, answers=ANSWERS)
            assert flow.status == "done", flow.summary()

        bare_pids = sorted(_children() - before)  # the bare client's stdio server (none over HTTP)
        lab_pids = list(getattr(mcp_lab.sandbox.get(lab_name), "pids", []))
        for _ in range(20):  # warm both paths
            await bare_call()
            await lab_call()
        cpu0 = [sum(_cpu_seconds(p) for p in pids) for pids in (lab_pids, bare_pids)]
        for i in range(n):
            for which in (bare, lab) if i % 2 == 0 else (lab, bare):
                await timed(which, bare_call if which is bare else lab_call)
        cpu1 = [sum(_cpu_seconds(p) for p in pids) for pids in (lab_pids, bare_pids)]
    report(label, lab, bare)
    if lab_pids and bare_pids:
        lab_server, bare_server = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        shown = f"{lab_server / bare_server:.3f}" if bare_server else "n/a"
        print(
            f"  server processes' CPU over the run: lab's {lab_server:.2f} s, bare's {bare_server:.2f} s, "
            f"ratio {shown} (clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)"
        )


async def main(n: int) -> None:
    mcp = MCPServer("booking", log_level="WARNING")
    add_tools(mcp)
    server = BareServer(mcp)
    try:
        t0 = time.perf_counter()
        await mcp_lab.connect("bench-http", server.url)
        http_connect = time.perf_counter() - t0
        await _measure("Streamable HTTP", server.url, "bench-http", n)
        t0 = time.perf_counter()
        await mcp_lab.connect("bench-stdio", stdio=STDIO)
        stdio_connect = time.perf_counter() - t0
        params = StdioServerParameters(command=STDIO[0], args=STDIO[1:])
        await _measure("stdio          ", params, "bench-stdio", n)
        print(f"connect: HTTP {http_connect * 1000:.0f} ms, stdio {stdio_connect * 1000:.0f} ms (server start-up)")
    finally:
        await mcp_lab.sandbox.stop_all()
        await server.stop()
    print(f"calls each: {n}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
