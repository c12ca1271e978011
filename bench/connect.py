"""Overhead of a lab connection over the bare SDK client, for the same 2-round tool call to an outside server.

Spec context: multi round-trip requests over the two standard transports. Both sides do the same protocol
work against the same server (a resolver asks one elicitation question, the client answers, the retry
carries the sealed token); the lab additionally records every leg, and over HTTP every exchange (httpx2
hooks and a body tee). Interleaved so machine noise hits both alike; prints the median ratios.

Run: python -m bench.connect [N]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from typing import Any

import mcp.types as T
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer

import mcp_lab
from bench.http_roundtrip import BareServer, add_tools

ANSWERS = {"ask_region": {"region": "eu"}}
STDIO = [sys.executable, "-m", "bench.booking_stdio"]
"""The same booking server as a stdio process (bench/booking_stdio.py)."""


async def _elicit(ctx: Any, params: T.ElicitRequestParams) -> T.ElicitResult:
    return T.ElicitResult(action="accept", content={"region": "eu"})


async def _measure(label: str, bare_target: Any, lab_name: str, n: int) -> None:
    lab_times: list[float] = []
    bare_times: list[float] = []
    async with Client(bare_target, elicitation_callback=_elicit) as client:
        for _ in range(20):  # warm both paths
            await client.call_tool("book", {"city": "P"})
            await mcp_lab.call(lab_name, "book", {"city": "P"}, answers=ANSWERS)
        for i in range(n):
            for which in (0, 1) if i % 2 == 0 else (1, 0):
                t0 = time.perf_counter()
                if which == 0:
                    result = await client.call_tool("book", {"city": "P"})
                    bare_times.append(time.perf_counter() - t0)
                    assert not result.is_error
                else:
                    flow = await mcp_lab.call(lab_name, "book", {"city": "P"}, answers=ANSWERS)
                    lab_times.append(time.perf_counter() - t0)
                    assert flow.status == "done", flow.summary()
    bare, lab = statistics.median(bare_times), statistics.median(lab_times)
    print(
        f"{label}: bare Client.call_tool {bare * 1000:.2f} ms, mcp_lab.call {lab * 1000:.2f} ms, ratio {lab / bare:.3f}"
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
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
