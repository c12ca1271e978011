"""Run a bench module under valgrind's callgrind and print instructions per call for each side it ran.

Spec context: the lab's goal is stated as a ratio to the bare SDK; on a shared 2-core machine a timed 2% is
within one run's noise, the instructions a call executes are not. Shared by bench/instructions.py (in
memory) and bench/connect_instructions.py (over HTTP or stdio).

The contract with the module run under valgrind: it collects only inside `functools.reduce` (a C function
nothing else here calls), runs each measured batch of `n` calls of one side inside one `reduce` call, and
prints `ORDER` followed by the side of each batch in the order they ran. Callgrind writes one file per
batch; a file with a few thousand instructions is a stray `reduce` elsewhere and is skipped.
MCP_LAB_CALLGRIND_KEEP=DIR keeps each batch's file in DIR, named by seed and side (for callgrind_annotate).

Each count is taken under fixed hash seeds (`SEEDS`): repeatable run after run, so a change of a few
thousand instructions can be told from none.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Awaitable, Callable
from statistics import fmean
from typing import Any

__all__ = ["instructions_per_call", "measured_batches"]


SEEDS = (0, 1, 2)
"""The hash seeds each count is taken under (MCP_LAB_HASH_SEEDS="0,1,2" to change them). Under one fixed seed a
count repeats to within about 0.05% run after run; across seeds the lab's difference to bare moves by tens of
thousands of instructions (how dicts and sets lay out their strings changes what every lookup costs), so one
seed would measure its own layout: each side's figure is the mean over a few."""


def _seeds() -> list[int]:
    given = os.environ.get("MCP_LAB_HASH_SEEDS")
    return [int(s) for s in given.split(",")] if given else list(SEEDS)


def instructions_per_call(module: str, arguments: list[str], n: int, title: str, width: int = 7) -> None:
    """Run `python -m module *arguments` under callgrind once per hash seed (as many at once as there are
    cores); print each side's mean per call over the seeds, its ratio to bare, and the spread over seeds."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    seeds = _seeds()
    per_seed: dict[int, dict[str, float]] = {}
    running: list[tuple[int, str, subprocess.Popen[str]]] = []
    pending = list(seeds)
    while pending or running:
        while pending and len(running) < (os.cpu_count() or 1):
            seed = pending.pop(0)
            out = tempfile.mkdtemp(prefix=f"mcp-lab-callgrind-{seed}-")
            running.append((seed, out, _start(module, arguments, out, seed)))
        seed, out, process = running.pop(0)
        stdout, stderr = process.communicate()
        if process.returncode:
            for _, rest, other in running:  # the other seeds' runs go too, with their files
                other.kill()
                other.wait()
                shutil.rmtree(rest, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
            raise SystemExit(f"the run under valgrind (hash seed {seed}) failed:\n{stderr[-2000:]}")
        per_seed[seed] = _per_call(stdout, out, n, seed)
    print(f"{title} (hash seeds {', '.join(map(str, seeds))}: mean over them)")
    sides = list(per_seed[seeds[0]])
    bare = fmean([per_seed[s]["bare"] for s in seeds])
    for side in sides:
        values = [per_seed[s][side] for s in seeds]
        mean = fmean(values)
        differences = [(per_seed[s][side] - per_seed[s]["bare"]) / 1e3 for s in seeds]
        print(
            f"  {side:{width}s} {mean / 1e6:.3f} M  {side}/bare {mean / bare:.4f}  {side}-bare {(mean - bare) / 1e3:+.0f} k"
            f"  (per seed {' '.join(f'{d:+.0f}' for d in differences)} k)"
        )


def _start(module: str, arguments: list[str], out: str, seed: int) -> subprocess.Popen[str]:
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
        "--toggle-collect=functools_reduce", "--dump-after=functools_reduce",
        f"--callgrind-out-file={out}/cg.out", sys.executable, "-m", module, *arguments,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _per_call(stdout: str, out: str, n: int, seed: int) -> dict[str, float]:
    """Each side's instructions per call in one run (the mean of its batches); its files kept if asked."""
    order = stdout.split("ORDER", 1)[1].split()
    files = sorted(glob.glob(f"{out}/cg.out.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    counted = [(path, total) for path in files if (total := _summary(path)) > 100_000]  # a stray reduce: a few thousand
    per: dict[str, list[float]] = defaultdict(list)
    for side, (_, total) in zip(order, counted, strict=True):
        per[side].append(total / n)
    keep = os.environ.get("MCP_LAB_CALLGRIND_KEEP")
    if keep:  # each batch's file, named by seed and side, for callgrind_annotate
        os.makedirs(keep, exist_ok=True)
        for index, (side, (path, _)) in enumerate(zip(order, counted, strict=True)):
            shutil.copy(path, os.path.join(keep, f"seed{seed}-{index:02d}-{side}.out"))
    shutil.rmtree(out, ignore_errors=True)
    return {side: fmean(values) for side, values in per.items()}


def _summary(path: str) -> int:
    """The instructions a callgrind file counted (0: none)."""
    with open(path) as dump:
        found = re.search(r"^summary: (\d+)", dump.read(), re.M)
    return int(found.group(1)) if found else 0


def measured_batches(loop: Any, sides: list[tuple[str, Callable[[], Awaitable[object]]]], n: int, reps: int) -> None:
    """The measured half of the contract, run inside valgrind after the warm-up: instrumentation switched on,
    `reps` rounds of one batch of `n` calls per side (every other round in reverse order), each batch inside
    one `functools.reduce` call, then the `ORDER` line."""

    async def batch(side: Callable[[], Awaitable[object]]) -> None:
        for _ in range(n):
            await side()

    switch = subprocess.Popen(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
    while switch.poll() is None:  # callgrind takes the command while this process runs code
        sum(range(100))
    order = []
    for rep in range(reps):
        for name, side in sides if rep % 2 == 0 else sides[::-1]:
            functools.reduce(lambda _a, _b, side=side: loop.run_until_complete(batch(side)), [0], None)
            order.append(name)
    print("ORDER", " ".join(order))
