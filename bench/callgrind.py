"""Run a bench module under valgrind's callgrind and print instructions per call for each side it ran.

Spec context: the lab's goal is stated as a ratio to the bare SDK; on a shared 2-core machine a timed 2% is
within one run's noise, the instructions a call executes are not. Shared by bench/instructions.py (in
memory) and bench/connect_instructions.py (over HTTP or stdio).

The contract with the module run under valgrind: it collects only inside `functools.reduce` (a C function
nothing else here calls), runs each measured batch of `n` calls of one side inside one `reduce` call, and
prints `ORDER` followed by the side of each batch in the order they ran. Callgrind writes one file per
batch; a file with a few thousand instructions is a stray `reduce` elsewhere and is skipped.
"""

from __future__ import annotations

import glob
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

__all__ = ["instructions_per_call"]


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
        with open(path) as dump:
            found = re.search(r"^summary: (\d+)", dump.read(), re.M)
        if found and int(found.group(1)) > 100_000:  # a stray reduce call elsewhere holds a few thousand
            totals.append(int(found.group(1)))
    per: dict[str, list[float]] = defaultdict(list)
    for side, total in zip(order, totals, strict=True):
        per[side].append(total / n)
    shutil.rmtree(out, ignore_errors=True)
    bare = sum(per["bare"]) / len(per["bare"])
    print(title)
    for side, values in per.items():
        mean = sum(values) / len(values)
        print(
            f"  {side:{width}s} {mean / 1e6:.3f} M  (batches {' '.join(f'{v / 1e6:.3f}' for v in values)})  "
            f"{side}/bare {mean / bare:.4f}  {side}-bare {(mean - bare) / 1e3:+.0f} k"
        )
