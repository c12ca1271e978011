"""Benchmark: a 2-round tools/call through the lab's HTTP serving + flow engine + capture, against the same
server served as a bare uvicorn app and called with a bare SDK `Client` (answering in its callback).

Both run in this process, interleaved call by call, so machine noise hits both alike; the ratios are what
count (goal: lab <= 1.02x bare; bench/ratio.py says which ratios, CPU time of this process -- which holds
both servers' threads too -- among them). Also prints serve-to-first-call: serve a fresh server, connect,
make one call; each start interleaved with the bare one.

    python -m bench.http_roundtrip [--iterations 300] [--starts 15] [--runs 1]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import threading
from typing import Annotated, Any

import uvicorn
from mcp import Client
from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from pydantic import BaseModel

import mcp_lab
from bench.ratio import Samples, report, timed
from mcp_lab.servers.sandbox import sandbox

ANSWERS = {"ask_region": {"region": "eu-west"}}


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


def add_tools(mcp: MCPServer) -> None:
    @mcp.tool()
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
        return f"Booked {city} in {region.region}"


class BareServer:
    """What a developer would write by hand: uvicorn in a thread on a loopback IPPROTO_TCP socket."""

    def __init__(self, mcp: MCPServer) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"
        config = uvicorn.Config(mcp.streamable_http_app(), log_level="warning", log_config=None, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()

    async def stop(self) -> None:
        self.server.should_exit = True
        while self.thread.is_alive():
            await asyncio.sleep(0.02)


async def bare_elicit(ctx: Any, params: Any) -> Any:
    import mcp.types as T

    return T.ElicitResult(action="accept", content=dict(ANSWERS["ask_region"]))


def lab_server(name: str) -> None:
    entry = sandbox.new_mcpserver(name)
    assert isinstance(entry.server, MCPServer)
    add_tools(entry.server)
    sandbox.register(entry)


async def lab_call(name: str, *, read_http: bool = False) -> None:
    """One lab call; `read_http` also reads its legs' HTTP records (built on that first read: a view's work,
    so only the warm-up reads them, as the bare side reads no record either)."""
    flow = await mcp_lab.call(name, "book", {"city": "Paris"}, answers=ANSWERS)
    assert flow.status == "done" and len(flow.rounds) == 2, flow.summary()
    assert not read_http or all(r.http for r in flow.rounds), flow.summary()


async def bare_call(client: Client) -> None:
    result = await client.call_tool("book", {"city": "Paris"})
    assert not result.is_error


def _spread(top: Samples, under: Samples) -> None:
    """The per-pair CPU ratios' median and quartiles (each lab call over the bare call next to it)."""
    pairs = [a / b for a, b in zip(top.cpu, under.cpu, strict=True) if b > 0]
    if len(pairs) >= 2:
        q1, q2, q3 = statistics.quantiles(pairs, n=4)
        print(f"  per-pair CPU ratio lab/bare: median {q2:.3f} (quartiles {q1:.3f}-{q3:.3f})")


async def steady_state(iterations: int, runs: int = 1) -> None:
    lab_server("bench")
    mcp_lab.serve("bench")
    bare_mcp = MCPServer("bench", log_level="WARNING")
    add_tools(bare_mcp)
    bare = BareServer(bare_mcp)
    try:
        async with Client(bare.url, elicitation_callback=bare_elicit) as client:
            await client.list_tools()
            for _ in range(20):  # warm both paths (imports, connection pools, validators)
                await lab_call("bench", read_http=True)
                await bare_call(client)
            for run in range(runs):
                lab_times, bare_times = Samples(), Samples()
                for i in range(iterations):
                    for which in (lab_times, bare_times) if i % 2 else (bare_times, lab_times):
                        if which is lab_times:
                            await timed(lab_times, lambda: lab_call("bench"))
                        else:
                            await timed(bare_times, lambda: bare_call(client))
                label = "2-round tools/call over loopback HTTP (lab: serve + flow engine + capture)"
                report(f"{label}, run {run + 1} of {runs}", lab_times, bare_times)
                _spread(lab_times, bare_times)
    finally:
        await bare.stop()
        await sandbox.stop_all()


async def start_to_first_call(starts: int) -> None:
    lab_times, bare_times = Samples(), Samples()
    for i in range(starts):
        name = f"fresh{i}"
        lab_server(name)  # defining the server is not part of serving it
        bare_mcp = MCPServer(name, log_level="WARNING")
        add_tools(bare_mcp)

        async def lab_start(name: str = name) -> None:
            mcp_lab.serve(name)
            await lab_call(name)

        async def bare_start(bare_mcp: MCPServer = bare_mcp) -> BareServer:
            bare = BareServer(bare_mcp)
            async with Client(bare.url, elicitation_callback=bare_elicit) as client:
                await bare_call(client)
            return bare

        started: object = None
        if i % 2:
            await timed(lab_times, lab_start)
            started = await timed(bare_times, bare_start)
        else:
            started = await timed(bare_times, bare_start)
            await timed(lab_times, lab_start)
        assert isinstance(started, BareServer)
        await started.stop()
        await sandbox.stop(name)
    report("serve-to-first-call (serve a fresh server, connect, one 2-round call)", lab_times, bare_times)
    _spread(lab_times, bare_times)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--runs", type=int, default=1, help="steady-state runs in this process")
    args = parser.parse_args()
    await steady_state(args.iterations, args.runs)
    await start_to_first_call(args.starts)


if __name__ == "__main__":
    asyncio.run(main())
