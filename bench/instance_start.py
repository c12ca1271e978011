"""What one fleet instance costs to start: forked by the kernel's preloaded launcher vs exec'd (`python -m uvicorn`).

Spec context: the deployment lessons start many real server processes (tutorial 11 starts 15); each exec'd
one imports uvicorn and the SDK before it answers. Interleaved, start by start (the order turned round each
round, so machine noise hits both alike): an instance of tests/deployment/shop_server.py started until it
answers as itself, then stopped. Printed per way: median wall seconds to ready and the CPU seconds the
instance process used by then (from /proc; under `--workers N` its workers' too: one uvicorn supervisor and
its N workers, which are forked from it on the fork way and spawned -- new interpreters -- on the exec way),
with the launcher's own one-off CPU, and fork/exec ratios.

Run: python -m bench.instance_start [--rounds N (5)] [--workers N (1)]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import mcp_lab.deployment.processes as processes_module
from mcp_lab.deployment.launcher import Launcher, launcher
from mcp_lab.deployment.processes import InstanceProcess

SERVER = "tests.deployment.shop_server:mcp"
CLOCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK


def tree_cpu_seconds(pid: int) -> float:
    """`pid`'s CPU seconds and those of every live descendant (a supervisor's workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return cpu_seconds(pid) + sum(tree_cpu_seconds(int(child)) for child in children)
    except (FileNotFoundError, ProcessLookupError):
        return 0.0


class NoLauncher(Launcher):
    """A launcher that is never usable: every start goes the exec path."""

    async def usable(self) -> bool:
        return False


async def one(directory: Path, label: str, forked: bool, workers: int) -> tuple[float, float]:
    processes_module.launcher = launcher if forked else NoLauncher()
    instance = InstanceProcess(label=label, index=0, target=SERVER, directory=directory, workers=workers)
    began = time.perf_counter()
    await instance.start()
    wall = time.perf_counter() - began
    assert instance.pid is not None
    cpu = tree_cpu_seconds(instance.pid)
    await instance.stop()
    return wall, cpu


async def main(rounds: int, workers: int) -> None:
    directory = Path(tempfile.mkdtemp(prefix="bench-instance-"))
    began = time.perf_counter()
    assert await launcher.usable(), launcher.failure
    launcher_wall = time.perf_counter() - began
    assert launcher.pid is not None
    launcher_cpu = cpu_seconds(launcher.pid)
    results: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i in range(rounds):
        for forked in (True, False) if i % 2 == 0 else (False, True):
            results[forked].append(await one(directory, f"bench#{i}{'f' if forked else 'e'}", forked, workers))
    processes_module.launcher = launcher
    medians = {way: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for way, r in results.items()}
    for way, (wall, cpu) in medians.items():
        where = "the instance" if workers == 1 else f"the supervisor and its {workers} workers"
        print(f"{'forked' if way else 'exec':>6}: {wall:.3f} s to ready, {cpu:.3f} CPU-s in {where} (median of {rounds})")
    print(f"launcher: {launcher_wall:.3f} s to ready, {launcher_cpu:.3f} CPU-s once per kernel")
    print(f"fork/exec: wall {medians[True][0] / medians[False][0]:.3f}, instance CPU {medians[True][1] / medians[False][1]:.3f}")
    launcher.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.rounds, arguments.workers))
