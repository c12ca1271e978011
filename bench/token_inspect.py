"""Benchmark: `inspect_token` (anatomy + decrypt + checklist) against the SDK's bare unseal on the same tokens.

Spec context: the SDK docs' "Protecting requestState". The bare path is what a server does to open a token:
`AESGCMRequestStateCodec.unseal` + `json.loads`. The inspector does that and mirrors every boundary check
in plain Python (no CPython-private modules, one code path), so the figure that matters is the ratio,
measured in the same run on the same 1,000 real tokens. Goal: <= 5x -- a person inspects one token at a
time, so clarity wins over the last microsecond. Presentation (claim rows, question tables, times) is
derived on first use and is not part of the inspection measured here.

Run: python -m bench.token_inspect
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import mcp.types as T
from mcp.server.mcpserver import AESGCMRequestStateCodec, Context

import mcp_lab
from mcp_lab.servers.sandbox import sandbox

TOKENS = 1000
REPEATS = 9
GOAL = 5.0
SERVER = "bench-tokens"
_ASK = T.ElicitRequest(
    params=T.ElicitRequestFormParams(
        message="pick a number",
        requested_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    )
)


async def mint() -> tuple[mcp_lab.KeyRing, list[tuple[str, dict[str, int]]]]:
    """1,000 tokens a real server sealed (handmade(x=i): every one bound to its own arguments)."""
    entry = sandbox.new_mcpserver(SERVER)
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    async def handmade(x: int, ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            return T.InputRequiredResult(input_requests={"q1": _ASK}, request_state=json.dumps({"x": x}))
        return f"x={x}"

    sandbox.register(entry)
    try:
        assert entry.ring is not None
        tokens = []
        for i in range(TOKENS):
            flow = await mcp_lab.start(SERVER, "tools/call", "handmade", {"x": i})
            first = await flow.step()
            assert first is not None and first.request_state is not None, flow.summary()
            tokens.append((first.request_state, {"x": i}))
        return entry.ring, tokens
    finally:
        await sandbox.stop(SERVER)


def main() -> None:
    ring, tokens = asyncio.run(mint())
    codec = AESGCMRequestStateCodec(ring.secret_keys())

    def bare() -> None:
        for token, _ in tokens:
            json.loads(codec.unseal(token))

    def inspect_all() -> None:
        for token, arguments in tokens:
            report = mcp_lab.inspect_token(
                token, ring=ring, call=("tools/call", "handmade", arguments), audience=SERVER, principal=None
            )
            assert report.verdict == "ok", report.verdict_detail

    timings: dict[str, list[float]] = {"bare": [], "inspect": []}
    for _ in range(REPEATS):  # interleaved, so both see the same machine load
        for name, run in (("bare", bare), ("inspect", inspect_all)):
            t0 = time.process_time()  # CPU time: the machine is shared, wall time is noisy
            run()
            timings[name].append((time.process_time() - t0) / TOKENS * 1e6)
    best = {name: min(values) for name, values in timings.items()}
    median = {name: statistics.median(values) for name, values in timings.items()}
    print(f"{TOKENS} real tokens, {REPEATS} interleaved repeats (µs per token)")
    for name in ("bare", "inspect"):
        print(f"  {name:8} best {best[name]:6.1f}  median {median[name]:6.1f}")
    ratio = median["inspect"] / median["bare"]
    verdict = "within" if ratio <= GOAL else "OVER"
    print(f"ratio inspect/bare: best {best['inspect'] / best['bare']:.2f}x, median {ratio:.2f}x ({verdict} {GOAL:g}x)")


if __name__ == "__main__":
    main()
