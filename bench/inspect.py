"""Benchmark: `inspect_token` (anatomy + decrypt + checklist) against the SDK's bare unseal on the same tokens.

Spec context: the SDK docs' "Protecting requestState". The bare path is what a server does to open a token:
`AESGCMRequestStateCodec.unseal` + `json.loads`. The inspector does that and mirrors every boundary check,
so the interesting figure is the ratio, measured in the same run on the same 1,000 real tokens
(`python bench/inspect.py`). Goal: <= 3x. Presentation (claim rows, question tables, times) is derived on
first use and is not part of the inspection measured here.
"""

from __future__ import annotations

import os
import sys

# Run as `python bench/inspect.py`, this file's folder leads sys.path and its name would shadow the
# standard library's `inspect`: drop the folder, put the project root in its place.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [os.path.dirname(_HERE)] + [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import asyncio  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from mcp.server.mcpserver import AESGCMRequestStateCodec  # noqa: E402

import mcp_lab  # noqa: E402
from mcp_lab.sandbox import sandbox  # noqa: E402
from tests.conftest import build_demo  # noqa: E402
from tests.inspect.helpers import send  # noqa: E402

TOKENS = 1000
REPEATS = 9


async def mint() -> tuple[mcp_lab.KeyRing, list[tuple[str, dict[str, int]]]]:
    """1,000 tokens the real demo server sealed (handmade(x=i): every one bound to its own arguments)."""
    entry = build_demo("bench")
    try:
        assert entry.ring is not None
        tokens = []
        for i in range(TOKENS):
            rnd = await send(entry, None, arguments={"x": i})
            assert rnd.request_state is not None
            tokens.append((rnd.request_state, {"x": i}))
        return entry.ring, tokens
    finally:
        await sandbox.stop("bench")


def main() -> None:
    ring, tokens = asyncio.run(mint())
    codec = AESGCMRequestStateCodec(ring.secret_keys())

    def bare() -> None:
        for token, _ in tokens:
            json.loads(codec.unseal(token))

    def inspect() -> None:
        for token, arguments in tokens:
            report = mcp_lab.inspect_token(
                token, ring=ring, call=("tools/call", "handmade", arguments), audience="bench", principal=None
            )
            assert report.verdict == "ok"

    timings: dict[str, list[float]] = {"bare": [], "inspect": []}
    for _ in range(REPEATS):  # interleaved, so both see the same machine load
        for name, run in (("bare", bare), ("inspect", inspect)):
            t0 = time.process_time()  # CPU time: the machine is shared, wall time is noisy
            run()
            timings[name].append((time.process_time() - t0) / TOKENS * 1e6)
    best = {name: min(values) for name, values in timings.items()}
    median = {name: statistics.median(values) for name, values in timings.items()}
    print(f"{TOKENS} real tokens, {REPEATS} interleaved repeats (µs per token)")
    for name in ("bare", "inspect"):
        print(f"  {name:8} best {best[name]:6.1f}  median {median[name]:6.1f}")
    print(
        f"ratio inspect/bare: best {best['inspect'] / best['bare']:.2f}x, median {median['inspect'] / median['bare']:.2f}x"
    )


if __name__ == "__main__":
    main()
