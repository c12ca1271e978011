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

MCP_LAB_CALLGRIND_CACHE=1 also simulates the caches (`--cache-sim=yes`, several times slower) and prints,
beside the instructions, an estimate of the cycles they take with their misses: instructions + 10 per
first-level miss + 100 per last-level miss (the usual rough weights). Between two of the lab's legs the
SDK's work evicts what the lab touched, so much of the lab's own time is misses, which instructions alone do
not show; the estimate is as repeatable as the count. The last level simulated is one core's 1 MB
second-level cache (`LAST_LEVEL`), not valgrind's default (the host's shared 32 MB third level, under which
hardly anything misses): so simulated, the lab/bare estimate in memory came out 1.034-1.035 where the timed
per-pair ratio was 1.032-1.036, and the engine before stop 36's changes 1.041 (timed 1.045-1.056). Like the
timed figures, it depends on what else runs in the process: every side's batches evict the others' data, and
a change in what one side allocates moves when the collector runs in all of them (a side's estimate moved by
up to 100 k between runs with different sides beside it, and a few tens of thousands with a change elsewhere).
So compare sides within one run: to weigh a change, run the old and the new path as two sides of one process.

Each batch starts from a full collection, made outside the count (`measured_batches`): a collection of the
oldest generation costs tens of millions of instructions, and without it whichever side's batch it happened
to land in carried it, by the luck of the order (the same lab came out +197 k and +386 k estimated cycles
above bare in two runs with different sides beside it; with it, +319 k to +353 k). What the lab's kept flows
cost the collector is bench/collector.py's to measure.
"""

from __future__ import annotations

import functools
import gc
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
    per_seed: dict[int, dict[str, tuple[float, float]]] = {}
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
    _print_means(per_seed, width, 0, "")
    if _cache_sim():
        print("estimated cycles with the simulated caches' misses (instructions + 10 x L1 + 100 x last-level):")
        _print_means(per_seed, width, 1, " cycles")


def _print_means(per_seed: dict[int, dict[str, tuple[float, float]]], width: int, which: int, unit: str) -> None:
    """Each side's mean over the seeds of figure `which` (0 instructions, 1 the cycle estimate), against bare."""
    seeds = list(per_seed)
    bare = fmean([per_seed[s]["bare"][which] for s in seeds])
    for side in per_seed[seeds[0]]:
        values = [per_seed[s][side][which] for s in seeds]
        mean = fmean(values)
        differences = [(per_seed[s][side][which] - per_seed[s]["bare"][which]) / 1e3 for s in seeds]
        print(
            f"  {side:{width}s} {mean / 1e6:.3f} M{unit}  {side}/bare {mean / bare:.4f}  {side}-bare"
            f" {(mean - bare) / 1e3:+.0f} k  (per seed {' '.join(f'{d:+.0f}' for d in differences)} k)"
        )


LAST_LEVEL = "1048576,16,64"
"""The simulated last-level cache: size, ways, line (this host's per-core second level)."""


def _cache_sim() -> bool:
    return os.environ.get("MCP_LAB_CALLGRIND_CACHE", "") not in ("", "0")


def _start(module: str, arguments: list[str], out: str, seed: int) -> subprocess.Popen[str]:
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
        "--toggle-collect=functools_reduce", "--dump-after=functools_reduce",
        *(["--cache-sim=yes", f"--LL={LAST_LEVEL}"] if _cache_sim() else []),
        f"--callgrind-out-file={out}/cg.out", sys.executable, "-m", module, *arguments,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _per_call(stdout: str, out: str, n: int, seed: int) -> dict[str, tuple[float, float]]:
    """Each side's instructions and estimated cycles per call in one run (the means of its batches); its files
    kept if asked."""
    order = stdout.split("ORDER", 1)[1].split()
    files = sorted(glob.glob(f"{out}/cg.out.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    # A stray reduce elsewhere counts a few thousand instructions: skipped.
    counted = [(path, total) for path in files if (total := _summary(path))[0] > 100_000]
    per: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for side, (_, total) in zip(order, counted, strict=True):
        per[side].append(total)
    keep = os.environ.get("MCP_LAB_CALLGRIND_KEEP")
    if keep:  # each batch's file, named by seed and side, for callgrind_annotate
        os.makedirs(keep, exist_ok=True)
        for index, (side, (path, _)) in enumerate(zip(order, counted, strict=True)):
            shutil.copy(path, os.path.join(keep, f"seed{seed}-{index:02d}-{side}.out"))
    shutil.rmtree(out, ignore_errors=True)
    return {side: (fmean(t[0] for t in totals) / n, fmean(t[1] for t in totals) / n) for side, totals in per.items()}


_L1_MISSES = ("I1mr", "D1mr", "D1mw")
_LL_MISSES = ("ILmr", "DLmr", "DLmw")


def _summary(path: str) -> tuple[int, int]:
    """The instructions a callgrind file counted (0: none), and the cycles estimated with its cache misses
    (the instructions alone when the caches were not simulated)."""
    with open(path) as dump:
        text = dump.read()
    events = re.search(r"^events: (.+)$", text, re.M)
    found = re.search(r"^summary: ([\d ]+)$", text, re.M)
    if events is None or found is None:
        return 0, 0
    counts = dict(zip(events.group(1).split(), map(int, found.group(1).split()), strict=False))
    instructions = counts.get("Ir", 0)
    l1 = sum(counts.get(name, 0) for name in _L1_MISSES)
    last = sum(counts.get(name, 0) for name in _LL_MISSES)
    return instructions, instructions + 10 * l1 + 100 * last


def measured_batches(loop: Any, sides: list[tuple[str, Callable[[], Awaitable[object]]]], n: int, reps: int) -> None:
    """The measured half of the contract, run inside valgrind after the warm-up: instrumentation switched on,
    `reps` rounds of one batch of `n` calls per side (every other round in reverse order), each batch after a
    full collection and inside one `functools.reduce` call, then the `ORDER` line."""

    async def batch(side: Callable[[], Awaitable[object]]) -> None:
        for _ in range(n):
            await side()

    switch = subprocess.Popen(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
    while switch.poll() is None:  # callgrind takes the command while this process runs code
        sum(range(100))
    order = []
    for rep in range(reps):
        for name, side in sides if rep % 2 == 0 else sides[::-1]:
            gc.collect()  # outside `reduce`: not counted, and no older generation's collection left to land here
            functools.reduce(lambda _a, _b, side=side: loop.run_until_complete(batch(side)), [0], None)
            order.append(name)
    print("ORDER", " ".join(order))
