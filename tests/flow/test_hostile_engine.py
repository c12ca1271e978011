"""The engine against hostile code, outside a kernel (issue 22): what the kernel tests rely on, case by case.

- Which exceptions are contained (SystemExit, KeyboardInterrupt, any BaseException, groups holding one) and
  which never are (cancellation).
- Handlers of a lowlevel server and of an MCPServer raising them fail the leg with the one-line reason.
- A flow being driven refuses a second driver (step, run, resume), so its tool runs once; an interrupted
  flow is not "running" even while a leg it left behind is still out.
- The bounds: max_rounds, rounds in a saved flow, questions in a saved flow, questions in one round.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import mcp.types as T
import pytest
from mcp.server import Server

import mcp_lab
from mcp_lab.protocol.limits import MAX_FLOW_ROUNDS, MAX_INPUT_REQUESTS
from mcp_lab.servers.containment import escaping
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox


class Custom(BaseException):
    pass


@pytest.mark.parametrize(
    ("exc", "contained"),
    [
        (SystemExit(3), True),
        (KeyboardInterrupt(), True),
        (Custom("x"), True),
        (BaseExceptionGroup("g", [ValueError(), SystemExit()]), True),
        (ValueError("plain"), False),  # an Exception: the SDK's own handling applies
        (asyncio.CancelledError(), False),
        (GeneratorExit(), False),
        (BaseExceptionGroup("g", [asyncio.CancelledError()]), False),
    ],
)
def test_what_is_contained(exc: BaseException, contained: bool) -> None:
    assert escaping(exc) is contained


@pytest.fixture
async def gate() -> AsyncIterator[dict[str, Any]]:
    """An MCPServer whose `slow` tool waits until the test opens its gate, and a lowlevel one that exits."""
    state: dict[str, Any] = {"open": asyncio.Event(), "runs": 0}
    entry = sandbox.new_mcpserver("gate")
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    async def slow() -> str:
        state["runs"] += 1
        await state["open"].wait()
        return "through"

    @mcp.tool()  # type: ignore[union-attr]
    def leave() -> str:
        raise SystemExit("bye")

    sandbox.register(entry)

    async def list_tools(ctx: Any, params: Any) -> T.ListToolsResult:
        return T.ListToolsResult(tools=[T.Tool(name="quit", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: Any) -> T.CallToolResult:
        raise KeyboardInterrupt

    sandbox.add(Server("low", on_list_tools=list_tools, on_call_tool=call_tool))
    try:
        yield state
    finally:
        await sandbox.stop_all()


async def test_handlers_raising_base_exceptions_fail_the_leg_with_one_reason(gate: dict[str, Any]) -> None:
    for server, tool, reason in (("gate", "leave", "SystemExit: bye"), ("low", "quit", "KeyboardInterrupt")):
        flow = await mcp_lab.call(server, tool)
        assert flow.status == "error" and flow.summary().endswith(f"server logged: {reason}"), flow.summary()
        with pytest.raises(mcp_lab.FlowError, match=reason):
            flow.raise_for_status()
    assert (await mcp_lab.call("gate", "leave", legacy=True)).status == "error"


async def test_a_flow_being_driven_refuses_a_second_driver(gate: dict[str, Any]) -> None:
    flow = await mcp_lab.start("gate", "tools/call", "slow")
    running = asyncio.get_running_loop().create_task(flow.run())
    for _ in range(500):
        if gate["runs"]:
            break
        await asyncio.sleep(0.01)
    assert flow.running and gate["runs"] == 1
    for second in (flow.step, flow.run):
        with pytest.raises(mcp_lab.FlowError, match="is still running"):
            await second()
    for saved in (flow, flow.to_json()):
        with pytest.raises(mcp_lab.LabError, match="is still running"):
            await mcp_lab.resume(saved)
    gate["open"].set()
    await running
    assert flow.status == "done" and flow.text == "through" and len(flow.rounds) == 1 and gate["runs"] == 1
    assert not flow.running


async def test_an_interrupted_flow_is_not_running_while_its_leg_is_still_out(gate: dict[str, Any]) -> None:
    flow = await mcp_lab.start("gate", "tools/call", "slow")
    running = asyncio.get_running_loop().create_task(flow.run())
    for _ in range(500):
        if gate["runs"]:
            break
        await asyncio.sleep(0.01)
    flow.interrupt("interrupted (test)")
    assert not flow.running and flow.status == "interrupted"
    gate["open"].set()
    await running  # the leg left behind comes back and is not written into the flow
    assert flow.rounds == [] and any("not recorded" in note for note in flow.notes)
    flow = await mcp_lab.resume(flow)
    assert flow.status == "done" and gate["runs"] == 2


def saved_flow(rounds: int, asks: int, **extra: Any) -> dict[str, Any]:
    question = {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object"}}}
    one = {"index": 0, "outcome": "input_required", "request_state": "s"}
    one["input_requests"] = {f"k{j}": question for j in range(asks)}
    return {
        "server": "gate",
        "method": "tools/call",
        "target": "slow",
        "status": "input_required",
        "rounds": [dict(one, index=i) for i in range(rounds)],
        **extra,
    }


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (saved_flow(MAX_FLOW_ROUNDS + 1, 1), f"it has {MAX_FLOW_ROUNDS + 1} rounds, more than a flow may hold"),
        (saved_flow(100_000, 0), "it has 100000 rounds"),
        (saved_flow(MAX_FLOW_ROUNDS, MAX_INPUT_REQUESTS + 1), "questions in all, more than a flow may hold"),
        (saved_flow(1, 1, max_rounds=MAX_FLOW_ROUNDS + 1), f"max_rounds must be at most {MAX_FLOW_ROUNDS}"),
    ],
)
def test_a_saved_flow_past_a_bound_is_one_line(data: dict[str, Any], line: str) -> None:
    with pytest.raises(mcp_lab.LabError, match=line):
        mcp_lab.Flow.from_dict(data)


async def test_max_rounds_is_bounded_and_a_saved_round_past_the_question_bound_is_never_answered(
    gate: dict[str, Any],
) -> None:
    with pytest.raises(mcp_lab.LabError, match=f"at most {MAX_FLOW_ROUNDS};"):
        await mcp_lab.call("gate", "slow", max_rounds=MAX_FLOW_ROUNDS + 1)
    answers = {f"k{j}": {"action": "accept", "content": {}} for j in range(MAX_INPUT_REQUESTS + 1)}
    flow = await mcp_lab.resume(saved_flow(1, MAX_INPUT_REQUESTS + 1), answers=answers)
    assert flow.status == "stopped" and "more than a round may ask (64); nothing was shown" in str(flow.stop_reason)
    assert len(flow.rounds) == 1 and gate["runs"] == 0
    flow = await mcp_lab.resume(saved_flow(1, MAX_INPUT_REQUESTS), server="low", answers=answers)
    assert flow.status == "error" and len(flow.rounds) == 2  # at the bound: answered and sent


async def test_an_answer_callback_raising_systemexit_fails_its_flow_in_both_eras(demo: LabServer) -> None:
    async def leave(ctx: object, params: T.ElicitRequestParams) -> T.ElicitResult:
        raise SystemExit(4)

    answers = mcp_lab.CallbackAnswerer(elicitation_callback=leave)
    modern = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=answers)
    assert modern.status == "error" and "the answer callback raised SystemExit: 4" in modern.summary()
    legacy = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=answers, legacy=True)
    assert legacy.status == "error", legacy.summary()
    assert legacy.rounds[0].backchannel[0]["error"] == "SystemExit: 4"  # the back channel was refused, not killed
    assert (
        await mcp_lab.call(
            "demo", "book", {"city": "Rome"}, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}
        )
    ).status == "done"
