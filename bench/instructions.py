"""Instructions per call, lab against bare SDK, counted by valgrind (callgrind): a figure no load can move.

Spec context: multi round-trip requests, the same in-memory 2-round tool call as bench/overhead.py. On a
2-core machine shared by eight people a timed 2% is within the noise of one run; the number of machine
instructions a call executes is not (two batches of one side agree within about 0.5%). It is a proxy, not
the time: cache misses and the collector's pauses cost time that instructions undercount, so the timed
benches stay the figure the goal is stated in.

How: the script runs itself under `valgrind --tool=callgrind`, collecting only inside `functools.reduce`
(a C function nothing else here calls); each measured batch of calls runs inside one `reduce` call on the
event loop, and callgrind writes one file per batch. Warm-up runs uninstrumented (`callgrind_control -i on`
switches instrumentation on after it), so the kernel-sized flow history (1,000 flows) is cheap to reach.
Sides (bench/floor.py builds them): `bare` (Client.call_tool), `lab` (mcp_lab.call) and `manual` (the two legs
by hand on the lab's own session: the protocol work alone, the floor both sides stand on).

Each count is taken once per fixed hash seed and averaged (bench/callgrind.py; MCP_LAB_HASH_SEEDS=0,1,2).

Run: python -m bench.instructions [WARM, default 200] [N per batch, default 20] [REPS, default 2]
"""

from __future__ import annotations

import sys

from bench.callgrind import instructions_per_call
from bench.floor import inner as floor_inner

INNER = "--inner"
SIDES = ("bare", "lab", "manual")
"""Of bench/floor.py's sides, the three this bench counts (`python -m bench.floor --instructions`: all of them)."""


def outer(warm: int, n: int, reps: int) -> None:
    title = f"instructions per call (callgrind), {warm} warm-up calls of each side, {reps} batches of {n}:"
    instructions_per_call("bench.instructions", [INNER, str(warm), str(n), str(reps)], n, title)


def inner(warm: int, n: int, reps: int) -> None:
    floor_inner(warm, n, reps, SIDES)


if __name__ == "__main__":
    if sys.argv[1:2] == [INNER]:
        inner(*(int(a) for a in sys.argv[2:5]))
    else:
        args = [int(a) for a in sys.argv[1:4]]
        outer(args[0] if args else 200, args[1] if len(args) > 1 else 20, args[2] if len(args) > 2 else 2)
