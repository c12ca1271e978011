"""What the cyclic garbage collector costs each side, alone: the price of what a side keeps alive.

Spec context: multi round-trip requests, the same in-memory 2-round tool call as bench/overhead.py. The lab
keeps every flow a kernel ran (up to 1,000); the bare SDK keeps nothing. Interleaved in one process the two
sides share one heap, and a full collection lands in whichever call happens to allocate when it is due, so
the timed benches cannot say whose it is. Here each side runs alone, in a process of its own (the processes
started alternately), and the collector's own callbacks time every collection it makes:
- `bare`: `Client.call_tool`;
- `lab`: `mcp_lab.call`, its finished flows packed (flow/kept.py), as the lab runs;
- `lab-unpacked`: the same with `Flow.pack` refusing every flow, so each kept flow stays a few dozen objects:
  what packing saves the collector (more full collections, each visiting more objects).
Printed per side: CPU per call, the collector's time per call (each generation's share), the collections of
each generation per 1,000 calls, and the objects the collector tracks at the end.

Run: python -m bench.collector [N calls per process, default 5000] [ROUNDS of processes, default 2]
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from bench.floor import WARM, sides
from bench.ratio import load

SIDES = ("bare", "lab", "lab-unpacked")


async def alone(side: str, n: int) -> dict[str, Any]:
    """`side`'s call `n` times after the warm-up (the lab's history full), the collector timed meanwhile."""
    if side == "lab-unpacked":
        from mcp_lab.flow.flow import Flow

        Flow.pack = lambda self: False  # type: ignore[method-assign]
    found, close = await sides()
    call = dict(found)["lab" if side.startswith("lab") else "bare"]
    for _ in range(WARM):
        await call()
    spent = [0.0, 0.0, 0.0]
    counts = [0, 0, 0]
    began = [0.0]

    def timing(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            spent[info["generation"]] += time.perf_counter() - began[0]
            counts[info["generation"]] += 1

    gc.callbacks.append(timing)
    cpu = time.process_time()
    for _ in range(n):
        await call()
    cpu = time.process_time() - cpu
    gc.callbacks.remove(timing)
    tracked = len(gc.get_objects())
    await close()
    return {
        "cpu": cpu / n,
        "gc": [s / n for s in spent],
        "per_1000": [c * 1000 / n for c in counts],
        "tracked": tracked,
    }


def main(n: int, rounds: int) -> None:
    found: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    for index in range(rounds):
        for side in SIDES if index % 2 == 0 else SIDES[::-1]:
            command = [sys.executable, "-m", "bench.collector", "--alone", side, str(n)]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            found[side].append(json.loads(out.strip().splitlines()[-1]))
    print(f"each side alone, {WARM} warm-up calls then {n} timed, {rounds} processes per side:")
    for side, runs in found.items():
        for run in runs:
            gc_us = [g * 1e6 for g in run["gc"]]
            print(
                f"  {side:13s} CPU per call {run['cpu'] * 1e6:7.1f} us; collector {sum(gc_us):5.1f} us per call "
                f"(generations 0/1/2: {gc_us[0]:.1f} / {gc_us[1]:.1f} / {gc_us[2]:.1f}); collections per 1,000 calls "
                f"{' / '.join(f'{c:.2f}' for c in run['per_1000'])}; {run['tracked']:,} objects tracked"
            )
    bare_cpu = statistics.median(run["cpu"] for run in found["bare"])
    bare_gc = statistics.median(sum(run["gc"]) for run in found["bare"])
    for side in SIDES[1:]:
        cpu = statistics.median(run["cpu"] for run in found[side])
        collector = statistics.median(sum(run["gc"]) for run in found[side])
        print(
            f"  {side}/bare: CPU per call {cpu / bare_cpu:.3f} (medians over the processes); the collector "
            f"{(collector - bare_gc) * 1e6:+.1f} us per call"
        )
    print(f"  {load()}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--alone"]:
        print(json.dumps(asyncio.run(alone(sys.argv[2], int(sys.argv[3])))))
    else:
        args = [int(a) for a in sys.argv[1:3]]
        main(args[0] if args else 5000, args[1] if len(args) > 1 else 2)
