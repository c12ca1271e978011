"""Overhead of a lab connection over the bare SDK client, for the same 2-round tool call to an outside server.

Spec context: multi round-trip requests over the two standard transports. Every side does the same protocol
work against the same server (a resolver asks one elicitation question, the client answers, the retry
carries the sealed token). Four sides, interleaved call by call (the order turned round every iteration)
so machine noise hits them alike:
- `bare`: the SDK's `Client.call_tool`, answering in its elicitation callback (what a developer writes);
- `session`: the lab connection's own SDK session, the two legs sent by hand (no flow engine, no capture);
- `session+capture`: the same, each leg inside the connection's capture (`connection.capture()`: over HTTP
  the httpx2 hooks, the body tee and the exchange records; over stdio the server's stderr log) -- so
  `session+capture / session` is what recording costs, whoever drives the legs;
- `lab`: `mcp_lab.call` (the flow engine in mcp_lab/flow/ on top of the capture).
Printed: lab/bare with the ratios bench/ratio.py defines (CPU time of this process -- the clients; the
HTTP server's thread too, the same server for every side -- among them), the capture's own ratio, the
per-pair CPU ratios' median and quartiles (each call over the other side's call next to it), and for
stdio the CPU each side's server process used (from /proc).

Run: python -m bench.connect [--calls N (300)] [--runs R (1)] [--only http|stdio]   (goal: every ratio <= 1.02)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import mcp.types as T
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer

import mcp_lab
from bench.http_roundtrip import BareServer, add_tools
from bench.ratio import Samples, load, report, timed

ANSWERS = {"ask_region": {"region": "eu"}}
STDIO = [sys.executable, "-m", "bench.booking_stdio"]
"""The same booking server as a stdio process (bench/booking_stdio.py)."""
SIDES = ("bare", "session", "session+capture", "lab")


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


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return q1, q2, q3


def pair_spread(label: str, top: Samples, under: Samples) -> float:
    """Print the per-pair CPU ratios' median and quartiles (a narrow band: the figure can be trusted)."""
    pairs = [a / b for a, b in zip(top.cpu, under.cpu, strict=True) if b > 0]
    q1, q2, q3 = quartiles(pairs)
    print(f"  {label}: per-pair CPU ratio median {q2:.3f} (quartiles {q1:.3f}-{q3:.3f})")
    return q2


def _sides(client: Client, lab_name: str, session: Any, capture: Callable[[], Any]) -> dict[str, Any]:
    async def bare() -> None:
        result = await client.call_tool("book", {"city": "P"})
        assert not result.is_error

    async def legs(recording: Callable[[], AbstractContextManager[Any]]) -> None:
        with recording():
            first = await session.call_tool("book", {"city": "P"}, allow_input_required=True)
        assert isinstance(first, T.InputRequiredResult) and first.input_requests
        answers = {key: T.ElicitResult(action="accept", content={"region": "eu"}) for key in first.input_requests}
        with recording():
            final = await session.call_tool(
                "book",
                {"city": "P"},
                input_responses=answers,
                request_state=first.request_state,
                allow_input_required=True,
            )
        assert not final.is_error

    async def plain() -> None:
        await legs(nullcontext)

    async def captured() -> None:
        await legs(capture)

    async def lab() -> None:
        flow = await mcp_lab.call(lab_name, "book", {"city": "P"}, answers=ANSWERS)
        assert flow.status == "done", flow.summary()

    return dict(zip(SIDES, (bare, plain, captured, lab), strict=True))


async def _measure(label: str, bare_target: Any, lab_name: str, n: int, runs: int) -> list[dict[str, float]]:
    before = _children()
    found: list[dict[str, float]] = []
    async with Client(bare_target, elicitation_callback=_elicit) as client:
        await client.list_tools()
        entry = mcp_lab.sandbox.get(lab_name)
        await entry.tool_names()
        session = await entry.session("2026-07-28")
        calls: dict[str, Callable[[], Awaitable[None]]] = _sides(client, lab_name, session, entry.capture)
        bare_pids = sorted(_children() - before)  # the bare client's stdio server (none over HTTP)
        lab_pids = list(getattr(entry, "pids", []))
        for _ in range(20):  # warm every path
            for call in calls.values():
                await call()
        for run in range(runs):
            samples = {side: Samples() for side in SIDES}
            cpu0 = [sum(_cpu_seconds(p) for p in pids) for pids in (lab_pids, bare_pids)]
            for i in range(n):
                for side in SIDES if i % 2 == 0 else SIDES[::-1]:
                    await timed(samples[side], calls[side])
            cpu1 = [sum(_cpu_seconds(p) for p in pids) for pids in (lab_pids, bare_pids)]
            print(f"-- {label}, run {run + 1} of {runs}")
            ratios = report(f"{label} lab/bare", samples["lab"], samples["bare"])
            ratios["pair CPU lab/bare"] = pair_spread("lab/bare", samples["lab"], samples["bare"])
            ratios["pair CPU capture"] = pair_spread(
                "session+capture/session (the recording)", samples["session+capture"], samples["session"]
            )
            ratios["pair CPU session/bare"] = pair_spread("session/bare", samples["session"], samples["bare"])
            per_call = {side: statistics.median(s.cpu) * 1e6 for side, s in samples.items()}
            print("  median CPU per call (us): " + ", ".join(f"{side} {us:.0f}" for side, us in per_call.items()))
            if lab_pids and bare_pids:
                # The lab's server process serves three sides, the bare one one: per call, not per run.
                lab_server, bare_server = (cpu1[0] - cpu0[0]) / 3, cpu1[1] - cpu0[1]
                shown = f"{lab_server / bare_server:.3f}" if bare_server else "n/a"
                print(
                    f"  server processes' CPU per {n} calls: lab's {lab_server:.2f} s, bare's {bare_server:.2f} s, "
                    f"ratio {shown} (clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)"
                )
            found.append(ratios)
    return found


def summary(label: str, runs: list[dict[str, float]]) -> None:
    if len(runs) < 2:
        return
    for name in ("CPU trimmed mean", "pair CPU lab/bare", "pair CPU capture", "median"):
        values = sorted(r[name] for r in runs if name in r)
        print(f"{label} over {len(values)} runs, {name}: " + " ".join(f"{v:.3f}" for v in values))


async def main(n: int, runs: int, only: str | None) -> None:
    mcp = MCPServer("booking", log_level="WARNING")
    add_tools(mcp)
    server = BareServer(mcp)
    results: dict[str, list[dict[str, float]]] = {}
    try:
        if only in (None, "http"):
            t0 = time.perf_counter()
            await mcp_lab.connect("bench-http", server.url)
            print(f"connect over HTTP: {(time.perf_counter() - t0) * 1000:.0f} ms")
            results["Streamable HTTP"] = await _measure("Streamable HTTP", server.url, "bench-http", n, runs)
        if only in (None, "stdio"):
            t0 = time.perf_counter()
            await mcp_lab.connect("bench-stdio", stdio=STDIO)
            print(f"connect over stdio: {(time.perf_counter() - t0) * 1000:.0f} ms (server start-up)")
            params = StdioServerParameters(command=STDIO[0], args=STDIO[1:])
            results["stdio"] = await _measure("stdio", params, "bench-stdio", n, runs)
    finally:
        await mcp_lab.sandbox.stop_all()
        await server.stop()
    for label, found in results.items():
        summary(label, found)
    print(f"calls each side per run: {n}; {load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls", nargs="?", type=int, default=None, help="calls per side per run (positional)")
    parser.add_argument("--calls", dest="calls_opt", type=int, default=300)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", choices=("http", "stdio"), default=None)
    args = parser.parse_args()
    asyncio.run(main(args.calls or args.calls_opt, args.runs, args.only))
