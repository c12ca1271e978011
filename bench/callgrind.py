"""Run a bench module under valgrind's callgrind and print instructions per call for each side it ran.

Spec context: the lab's goal is stated as a ratio to the bare SDK; on a shared 2-core machine a timed 2% is
within one run's noise, the instructions a call executes are not. Shared by bench/instructions.py (in
memory) and bench/connect_instructions.py (over HTTP or stdio).

The contract with the module run under valgrind: it collects only inside `functools.reduce` (a C function
nothing else here calls), runs each measured batch of `n` calls of one side inside one `reduce` call, and
prints `ORDER` followed by the side of each batch in the order they ran. Callgrind writes one file per
batch; a file with a few thousand instructions is a stray `reduce` elsewhere and is skipped.
MCP_LAB_CALLGRIND_KEEP=DIR keeps each batch's file in DIR, named by its side (for callgrind_annotate).
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
from typing import Any

__all__ = ["instructions_per_call", "measured_batches"]


def instructions_per_call(module: str, arguments: list[str], n: int, title: str, width: int = 7) -> None:
    """Run `python -m module *arguments` under callgrind; print each side's mean per call and its ratio to bare."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    out = tempfile.mkdtemp(prefix="mcp-lab-callgrind-")
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
        "--toggle-collect=functools_reduce", "--dump-after=functools_reduce",
        f"--callgrind-out-file={out}/cg.out", sys.executable, "-m", module, *arguments,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    order = done.stdout.split("ORDER", 1)[1].split()
    totals = []
    for path in sorted(glob.glob(f"{out}/cg.out.*"), key=lambda p: int(p.rsplit(".", 1)[1])):
        total = _summary(path)
        if total > 100_000:  # a stray reduce call elsewhere holds a few thousand
            totals.append(total)
    per: dict[str, list[float]] = defaultdict(list)
    for side, total in zip(order, totals, strict=True):
        per[side].append(total / n)
    keep = os.environ.get("MCP_LAB_CALLGRIND_KEEP")
    if keep:  # each batch's file, named by its side, for callgrind_annotate
        os.makedirs(keep, exist_ok=True)
        files = sorted(glob.glob(f"{out}/cg.out.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        kept = [p for p in files if _summary(p) > 100_000]
        for index, (side, path) in enumerate(zip(order, kept, strict=True)):
            shutil.copy(path, os.path.join(keep, f"{index:02d}-{side}.out"))
    shutil.rmtree(out, ignore_errors=True)
    bare = sum(per["bare"]) / len(per["bare"])
    print(title)
    for side, values in per.items():
        mean = sum(values) / len(values)
        print(
            f"  {side:{width}s} {mean / 1e6:.3f} M  (batches {' '.join(f'{v / 1e6:.3f}' for v in values)})  "
            f"{side}/bare {mean / bare:.4f}  {side}-bare {(mean - bare) / 1e3:+.0f} k"
        )


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
