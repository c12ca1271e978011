"""The floor under the engine: what the least a recording client can do costs over the bare SDK.

Spec context: multi round-trip requests, the same in-memory 2-round tool call as bench/overhead.py. The lab's
goal (issue 23) is its engine within 2% of `Client.call_tool`. This bench asks how low any engine that
records the legs can go, by building the smallest one by hand beside the bare SDK and the lab:

- `bare`: `Client.call_tool` (the SDK's own driver and callback);
- `manual`: the two legs by hand on the same session (`allow_input_required=True`), recording nothing;
- `record`: `manual` plus the least a record of the legs can be -- the wire form (camelCase JSON) of the
  questions, the answers and the result, the echoed token, the outcome and two clock readings per leg, in
  plain dicts, the flow kept in a history of the last 1,000 flows (as a kernel keeps `mcp_lab.flows`);
- `record+pack`: `record`, each finished flow kept as one marshalled `bytes` (what flow/kept.py does, so the
  collector does not visit a thousand flows' objects);
- `shapes`: the same record in the lab's own shapes -- a `Flow` and its `Round`s, filled in as the engine fills
  them, kept 1,000 deep and packed by `Flow.pack` when the next one starts -- without the engine around them
  (no answerer, capture, checks, history, Interrupt guard or driver loop): what the lab's data costs alone;
- `lab`: `mcp_lab.call`.

Each side is timed against bare in a pass of its own, interleaved call by call in one process, with the
ratios bench/ratio.py defines; `--instructions` counts each side's machine instructions per call under
callgrind instead (bench/callgrind.py); `--footprint` counts the Python bytecodes each side runs per call and
how many distinct functions (code objects) it runs, and names the lab's own functions that run the most
bytecodes -- exact and untouched by load, like instructions. The timed cost of the lab's own code is about
twice its share of instructions or bytecodes: it runs once per leg, cold (after a leg of the SDK's work has
gone through the caches), where much of the SDK's runs in loops.

`--phases` times where the lab's own time goes, in place: before the first leg, between the legs, after the
last (and packing the previous flow), against bare's whole call and what the goal allows.

Run: python -m bench.floor [N pairs, default 1000] | python -m bench.floor --instructions [WARM] [N] [REPS]
     | python -m bench.floor --footprint [TOP lab functions, default 25] | python -m bench.floor --phases [N]
"""

from __future__ import annotations

import asyncio
import collections
import marshal
import os
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

import mcp.types as T
from mcp import Client
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

INNER = "--inner"
KEEP = 1000
WARM = 1100


class Region(BaseModel):
    region: str


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


def accepted(requests: Mapping[str, object]) -> dict[str, T.ElicitResult]:
    """The answer every side gives: the region accepted, under each key asked."""
    return {key: T.ElicitResult(action="accept", content={"region": "eu"}) for key in requests}


async def warm_up(calls: list[tuple[str, Callable[[], Awaitable[object]]]], times: int) -> None:
    """Each call `times` times, in turn: imports and validators warm, and the lab's flow history full."""
    for _ in range(times):
        for _name, call in calls:
            await call()


def _own(path: str) -> bool:
    return f"{os.sep}mcp_lab{os.sep}" in path


async def sides() -> tuple[list[tuple[str, Callable[[], Awaitable[object]]]], Callable[[], Awaitable[None]]]:
    """Each side's call, on one sandbox server and one bare client; and how to stop them."""
    import mcp_lab
    from mcp_lab.flow.flow import Flow
    from mcp_lab.flow.legs import wire
    from mcp_lab.flow.round import Round
    from mcp_lab.protocol.limits import DEFAULT_MAX_ROUNDS
    from mcp_lab.servers.sandbox import sandbox

    entry = sandbox.new_mcpserver("bench")

    @entry.server.tool()  # type: ignore[union-attr, untyped-decorator]
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
        return f"Booked {city} in {region.region}"

    sandbox.register(entry)

    async def callback(ctx: Any, params: Any) -> T.ElicitResult:
        return T.ElicitResult(action="accept", content={"region": "eu"})

    held: dict[str, Any] = {}
    ready, stop = asyncio.Event(), asyncio.Event()

    async def own() -> None:  # entered and exited in one task, as a kernel must
        async with Client(entry.server, elicitation_callback=callback) as client:
            held["client"] = client
            ready.set()
            await stop.wait()

    owner = asyncio.get_running_loop().create_task(own())
    await ready.wait()
    answers = {"ask_region": {"region": "eu"}}
    kept: collections.deque[object] = collections.deque(maxlen=KEEP)
    kept_packed: collections.deque[object] = collections.deque(maxlen=KEEP)

    async def bare() -> None:
        assert not (await held["client"].call_tool("book", {"city": "P"})).is_error

    async def lab() -> None:
        assert (await mcp_lab.call("bench", "book", {"city": "P"}, answers=answers)).status == "done"

    async def ask(session: Any) -> T.InputRequiredResult:
        first = await session.call_tool("book", {"city": "P"}, allow_input_required=True)
        assert isinstance(first, T.InputRequiredResult)
        return first

    async def answer(session: Any, first: T.InputRequiredResult, sent: dict[str, T.ElicitResult]) -> Any:
        final = await session.call_tool(
            "book", {"city": "P"}, input_responses=sent, request_state=first.request_state, allow_input_required=True
        )
        assert not final.is_error
        return final

    async def manual() -> None:
        session = await sandbox.get("bench").session("2026-07-28")
        first = await ask(session)
        await answer(session, first, accepted(first.input_requests or {}))

    async def recorded(pack: bool) -> None:
        session = await sandbox.get("bench").session("2026-07-28")
        flow: dict[str, Any] = {"server": "bench", "method": "tools/call", "target": "book", "arguments": {"city": "P"}}
        started, t0 = time.time(), time.perf_counter()
        first = await ask(session)
        requests = first.input_requests or {}
        leg0 = {
            "outcome": "input_required",
            "input_requests": {k: wire(v) for k, v in requests.items()},
            "request_state": first.request_state,
            "started": started,
            "elapsed": time.perf_counter() - t0,
        }
        sent = accepted(requests)
        started, t0 = time.time(), time.perf_counter()
        final = await answer(session, first, sent)
        leg1 = {
            "sent_input_responses": {k: wire(v) for k, v in sent.items()},
            "sent_request_state": first.request_state,
            "outcome": "result",
            "result": wire(final),
            "started": started,
            "elapsed": time.perf_counter() - t0,
        }
        flow["rounds"] = [leg0, leg1]
        flow["status"] = "done"  # `answer` saw no error
        if pack:
            kept_packed.append(marshal.dumps(flow))
        else:
            kept.append(flow)

    async def record() -> None:
        await recorded(False)

    ended: list[Flow] = []
    kept_flows: collections.deque[Flow] = collections.deque(maxlen=KEEP)

    async def shapes() -> None:
        for flow in ended:
            flow.pack()
        ended.clear()
        session = await sandbox.get("bench").session("2026-07-28")
        flow = Flow.new("bench", "tools/call", "book", {"city": "P"}, "2026-07-28", DEFAULT_MAX_ROUNDS)
        kept_flows.append(flow)
        leg0 = Round.blank(0)
        leg0.started, t0 = time.time(), time.perf_counter()
        first = await ask(session)
        requests = first.input_requests or {}
        leg0.outcome = "input_required"
        leg0.input_requests = {k: wire(v) for k, v in requests.items()}
        leg0.request_state = first.request_state
        leg0.elapsed = time.perf_counter() - t0
        flow.rounds.append(leg0)
        sent = accepted(requests)
        leg1 = Round.blank(1)
        leg1.sent_request_state = first.request_state
        leg1.sent_input_responses = {k: wire(v) for k, v in sent.items()}
        leg1.answered_by = {k: "script" for k in sent}
        leg1.started, t0 = time.time(), time.perf_counter()
        final = await answer(session, first, sent)
        leg1.outcome = "result"
        leg1.result = wire(final)
        leg1.elapsed = time.perf_counter() - t0
        flow.rounds.append(leg1)
        flow.status = "done"
        ended.append(flow)

    async def record_packed() -> None:
        await recorded(True)

    async def close() -> None:
        stop.set()
        await owner
        await sandbox.stop_all()

    found = [
        ("bare", bare),
        ("manual", manual),
        ("record", record),
        ("record+pack", record_packed),
        ("shapes", shapes),
        ("lab", lab),
    ]
    return found, close


async def timed_main(n: int) -> None:
    """Each side against bare, in a pass of its own: `n` pairs interleaved call by call (the order turned round
    every pair), so a side is timed right beside the call it is compared with, never after a third side's."""
    from bench.ratio import Samples, load, report, timed

    found, close = await sides()
    await warm_up(found, WARM)
    bare = found[0][1]
    for name, call in found[1:]:
        mine, theirs = Samples(), Samples()
        for i in range(n):
            for samples, side in ((mine, call), (theirs, bare)) if i % 2 == 0 else ((theirs, bare), (mine, call)):
                await timed(samples, side)
        report(f"in memory, {name} against Client.call_tool", mine, theirs)
    await close()
    print(load())


async def footprint(top: int, traced: int = 50) -> None:
    """Bytecodes and distinct code objects per call of each side (sys.settrace with opcode events)."""
    found, close = await sides()
    await warm_up(found, WARM)
    per_side: dict[str, collections.Counter[tuple[str, str]]] = {}
    for name, call in found:
        counts: collections.Counter[tuple[str, str]] = collections.Counter()

        def tracer(frame: Any, event: str, arg: object, counts: collections.Counter[tuple[str, str]] = counts) -> Any:
            frame.f_trace_opcodes = True
            if event == "opcode":
                code = frame.f_code
                counts[(code.co_filename, code.co_qualname)] += 1
            return tracer

        sys.settrace(tracer)
        try:
            for _ in range(traced):
                await call()
        finally:
            sys.settrace(None)
        per_side[name] = counts
    await close()
    print(f"Python bytecodes per call, and distinct functions run per call ({WARM} warm-up calls, {traced} traced):")
    for name, counts in per_side.items():
        ours = {key: count for key, count in counts.items() if _own(key[0])}
        print(
            f"  {name:12s} {sum(counts.values()) / traced:7.0f} bytecodes, {len(counts):4d} functions; "
            f"mcp_lab's own: {sum(ours.values()) / traced:5.0f} bytecodes in {len(ours)} functions"
        )
    lab, bare = per_side["lab"], per_side["bare"]
    print(
        f"  functions only lab runs: {len(lab.keys() - bare.keys())}; only bare runs: {len(bare.keys() - lab.keys())}"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    heaviest = sorted(((c, k) for k, c in lab.items() if _own(k[0])), reverse=True)[:top]
    print(f"  the lab's {top} heaviest functions (bytecodes per call):")
    for count, (path, qualname) in heaviest:
        print(f"    {count / traced:6.0f}  {path.removeprefix(root)}:{qualname}")


async def phases(n: int) -> None:
    """Where the lab's own time goes, in place: each `mcp_lab.call`'s time outside the SDK's two requests --
    before the first leg, between the legs, after the last -- and, within the first, packing the flow before it;
    against bare's whole call (timed first, unwrapped) and the 2% the goal allows. A clock read at each edge
    of the SDK's `ClientSession.call_tool` and of `Flow.pack`, wrapped for the lab's calls: timed, because on
    this kind of machine bytecodes and instructions say little of where the time goes (a pack check done in C
    ran 80% fewer bytecodes and took 4 us longer)."""
    import statistics

    from mcp.client.session import ClientSession

    from bench.ratio import GOAL, load
    from mcp_lab.flow.flow import Flow

    found, close = await sides()
    chosen = dict(found)
    bare, lab = chosen["bare"], chosen["lab"]
    await warm_up([("bare", bare), ("lab", lab)], WARM)
    bare_ns: list[int] = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        await bare()
        bare_ns.append(time.perf_counter_ns() - t0)
    edges: list[int] = []
    packing: list[int] = []
    sdk_call, flow_pack = ClientSession.call_tool, Flow.pack

    async def call_tool(self: ClientSession, *args: Any, **kwargs: Any) -> Any:
        edges.append(time.perf_counter_ns())
        try:
            return await sdk_call(self, *args, **kwargs)
        finally:
            edges.append(time.perf_counter_ns())

    def pack(self: Flow) -> bool:
        t0 = time.perf_counter_ns()
        try:
            return flow_pack(self)
        finally:
            packing.append(time.perf_counter_ns() - t0)

    ClientSession.call_tool, Flow.pack = call_tool, pack  # type: ignore[method-assign]
    parts: dict[str, list[int]] = {"before the first leg": [], "between the legs": [], "after the last leg": []}
    own: list[int] = []
    whole: list[int] = []
    try:
        await warm_up([("lab", lab)], 100)
        for _ in range(n):
            edges.clear()
            t0 = time.perf_counter_ns()
            await lab()
            t1 = time.perf_counter_ns()
            in1, out1, in2, out2 = edges
            for name, took in zip(parts, (in1 - t0, in2 - out1, t1 - out2), strict=True):
                parts[name].append(took)
            own.append(in1 - t0 + in2 - out1 + t1 - out2)
            whole.append(t1 - t0)
    finally:
        ClientSession.call_tool, Flow.pack = sdk_call, flow_pack  # type: ignore[method-assign]
        await close()
    bare_median = statistics.median(bare_ns) / 1000
    print(f"the lab's own time per call, in place ({n} calls each, medians; us):")
    allowed = bare_median * (GOAL - 1)
    print(f"  bare Client.call_tool, whole call     {bare_median:8.1f}   (the goal: within {allowed:.1f} of it)")
    for name, took in parts.items():
        print(f"  lab, {name:32s}  {statistics.median(took) / 1000:8.1f}")
        if name == "before the first leg":  # the previous flow is packed as the next one starts
            print(f"    of which packing the previous flow  {statistics.median(packing[-n:]) / 1000:8.1f}")
    mine = statistics.median(own) / 1000
    sdk = statistics.median([w - o for w, o in zip(whole, own, strict=True)]) / 1000
    print(f"  lab, outside the SDK's requests       {mine:8.1f}   ({mine / bare_median:.1%} of bare's call)")
    print(f"  lab, inside them (the SDK's own path) {sdk:8.1f}   ({sdk / bare_median:.1%} of bare's call)")
    print(f"  lab, whole call                       {statistics.median(whole) / 1000:8.1f}")
    print(load())


def inner(warm: int, n: int, reps: int, only: tuple[str, ...] = ()) -> None:
    """The measured run under callgrind (bench/callgrind.py's contract): every side, or those named in `only`."""
    from bench.callgrind import measured_batches

    loop = asyncio.new_event_loop()
    found, close = loop.run_until_complete(sides())
    chosen = [(name, call) for name, call in found if not only or name in only]
    loop.run_until_complete(warm_up(chosen, warm))
    measured_batches(loop, chosen, n, reps)
    loop.run_until_complete(close())


if __name__ == "__main__":
    if sys.argv[1:2] == [INNER]:
        inner(*(int(a) for a in sys.argv[2:5]))
    elif sys.argv[1:2] == ["--instructions"]:
        from bench.callgrind import instructions_per_call

        args = [int(a) for a in sys.argv[2:5]]
        warm, n, reps = (args + [WARM, 20, 2][len(args) :])[:3]
        title = f"instructions per call (callgrind), {warm} warm-up calls of each side, {reps} batches of {n}:"
        instructions_per_call("bench.floor", [INNER, str(warm), str(n), str(reps)], n, title)
    elif sys.argv[1:2] == ["--phases"]:
        asyncio.run(phases(int(sys.argv[2]) if len(sys.argv) > 2 else 1500))
    elif sys.argv[1:2] == ["--footprint"]:
        asyncio.run(footprint(int(sys.argv[2]) if len(sys.argv) > 2 else 25))
    else:
        asyncio.run(timed_main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
