"""The flow engine in a real kernel: the same 2-round tool call from a notebook cell, lab against bare SDK.

Spec context: multi round-trip requests, as a notebook makes them. One ipykernel (started with
jupyter_client, as a frontend starts it) holds one in-process booking server; cells alternate between
`await mcp_lab.call(...)` and `await client.call_tool(...)` on a bare SDK `Client` entered in a task of
its own (a cell's task cannot exit a client another cell entered). Both do the same protocol work (a
resolver asks one question, the answer and the sealed token go back); the lab also records every leg,
guards the call against Interrupt and keeps the flow in `mcp_lab.flows`.

Two figures per call, interleaved cell by cell so machine noise hits both alike:
- in the cell: the awaited call alone, timed by the kernel itself, wall clock and the kernel's CPU time
  (what the engine costs), with the ratios bench/ratio.py defines;
- cell round trip: execute_request sent to execute_reply received, timed by this driver (what a person
  running the cell waits for, kernel overhead included).

Run: python -m bench.in_kernel [CELLS, default 300 of each] [KERNELS, default 1]   (goal: every in-cell ratio <= 1.02)

With KERNELS > 1 each kernel is a fresh one and the in-cell ratios are printed again as their range over the
kernels: the same code measured the per-pair ratio 1.083, 1.088 and 1.096 in three kernels, so one kernel's
figure cannot tell 2% apart.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import start_new_kernel

from bench.ratio import GOAL, Samples, load, report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARM = 30
"""Calls of each kind before measuring (imports, validators, the clients' first connections)."""

SETUP = """%load_ext mcp_lab
import asyncio, json, time
from typing import Annotated
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

_entry = sandbox.new_mcpserver("bench")

@_entry.server.tool()
async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"Booked {city} in {region.region}"

sandbox.register(_entry)

async def _elicit(ctx, params):
    return T.ElicitResult(action="accept", content={"region": "eu"})

_answers = {"ask_region": {"region": "eu"}}
_times = {"lab": [], "bare": []}
_cpu = {"lab": [], "bare": []}
_ready, _stop = asyncio.Event(), asyncio.Event()

async def _own_bare_client():
    global _client
    async with Client(_entry.server, elicitation_callback=_elicit) as _client:
        _ready.set()
        await _stop.wait()

_owner = asyncio.get_running_loop().create_task(_own_bare_client())
await _ready.wait()
"""
CELL = {
    "lab": (
        "_c0, _t0 = time.process_time(), time.perf_counter()\n"
        "_f = await mcp_lab.call('bench', 'book', {'city': 'P'}, answers=_answers)\n"
        "_times['lab'].append(time.perf_counter() - _t0); _cpu['lab'].append(time.process_time() - _c0)\n"
        "assert _f.status == 'done', _f.summary()"
    ),
    "bare": (
        "_c0, _t0 = time.process_time(), time.perf_counter()\n"
        "_r = await _client.call_tool('book', {'city': 'P'})\n"
        "_times['bare'].append(time.perf_counter() - _t0); _cpu['bare'].append(time.process_time() - _c0)\n"
        "assert not _r.is_error"
    ),
}
REPORT = "_stop.set(); await _owner\nprint(json.dumps({'wall': _times, 'cpu': _cpu}))"


def kernel_env() -> dict[str, str]:
    """This checkout first on the kernel's import path (as the kernel tests run it)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH", "")) if p)
    return env


def run_cell(client: BlockingKernelClient, code: str) -> float:
    """Execute `code`; seconds from sending the request to its reply. A failing cell stops the bench."""
    t0 = time.perf_counter()
    msg_id = client.execute(code, store_history=False)
    while True:
        reply = client.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    elapsed = time.perf_counter() - t0
    if reply["content"]["status"] != "ok":
        raise SystemExit(f"cell failed: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")
    return elapsed


def printed(client: BlockingKernelClient, code: str) -> str:
    """Execute `code`; what it printed. A failing cell stops the bench."""
    out: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])

    reply = client.execute_interactive(code, output_hook=hook, timeout=120)
    if reply["content"]["status"] != "ok":
        raise SystemExit(f"cell failed: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")
    return "".join(out)


def main(cells: int) -> dict[str, float]:
    km, kc = start_new_kernel(kernel_name="python3", env=kernel_env())
    try:
        printed(kc, SETUP)
        for _ in range(WARM):
            run_cell(kc, CELL["bare"])
            run_cell(kc, CELL["lab"])
        printed(kc, "for _d in (_times, _cpu): _d['lab'].clear(); _d['bare'].clear()")
        trip: dict[str, list[float]] = {"lab": [], "bare": []}
        for i in range(cells):
            for which in ("lab", "bare") if i % 2 == 0 else ("bare", "lab"):
                trip[which].append(run_cell(kc, CELL[which]))
            while kc.iopub_channel.msg_ready():  # status messages pile up otherwise
                kc.get_iopub_msg(timeout=1)
        inside: dict[str, dict[str, list[float]]] = json.loads(printed(kc, REPORT))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    if os.environ.get("MCP_LAB_BENCH_SAMPLES"):  # every sample, for a closer look at the distributions
        with open(os.environ["MCP_LAB_BENCH_SAMPLES"], "w") as out:
            json.dump({"inside": inside, "trip": trip}, out)
    cell = {side: Samples(inside["wall"][side], inside["cpu"][side]) for side in ("lab", "bare")}
    found = report(f"in the cell (the awaited call), one kernel, {WARM} warm-up cells", cell["lab"], cell["bare"])
    trips = {side: Samples(trip[side]) for side in ("lab", "bare")}  # the driver sees the wall clock only
    report("cell round trip (execute_request to execute_reply, timed by the driver)", trips["lab"], trips["bare"])
    return found


def over_kernels(cells: int, kernels: int) -> None:
    """`main` in `kernels` fresh kernels, one after another; each in-cell ratio's range over them."""
    found = [main(cells) for _ in range(kernels)]
    print(f"in the cell, over {kernels} kernels ({cells} calls of each side in each; goal <= {GOAL}), {load()}:")
    for name in found[0]:
        values = sorted(f[name] for f in found)
        print(f"  {name}: {' '.join(f'{v:.3f}' for v in values)}")


if __name__ == "__main__":
    over_kernels(int(sys.argv[1]) if len(sys.argv) > 1 else 300, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
