"""The tamper lab against real SDK servers: the logged reason of every variant is the one predicted."""

from __future__ import annotations

import os
import threading
import time

import mcp.types as T
import pytest

import mcp_lab
from mcp_lab import EnvelopeCodec, tamper_lab, use_codec
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.tamper import REPLAY_NOTE, flip_byte


async def asked(server: str, tool: str, arguments: dict[str, object]) -> mcp_lab.Flow:
    flow = await mcp_lab.start(server, "tools/call", tool, arguments)
    await flow.step()
    assert flow.request_state is not None
    return flow


EXPECTED = {
    "flipped byte": "seal",
    "other arguments": "request binding",
    "another tool": "request binding",
    "another server": "audience",
    "expired": "expired",
    "restart, new key": "unknown key",
    "replay (1st)": None,
    "replay (2nd)": None,
}


@pytest.mark.parametrize(("tool", "arguments"), [("handmade", {"x": 1}), ("book", {"city": "Oslo"})])
async def test_every_variant_is_rejected_for_the_predicted_reason(
    demo: LabServer, tool: str, arguments: dict[str, object]
) -> None:
    report = await tamper_lab(await asked("demo", tool, arguments))
    assert {c.case: c.logged for c in report.cases} == EXPECTED
    assert report.all_agree, [c for c in report.cases if not c.agree]
    for case in report.cases:
        assert case.predicted == (case.logged or "ok") == case.expected
        if case.logged is not None:
            assert case.wire == "-32602 Invalid or expired requestState"
    assert report.case("replay (2nd)").wire.startswith("accepted") and report.case("replay (2nd)").note == REPLAY_NOTE
    assert "principal cases skipped" in " ".join(report.notes)
    assert "demo-twin" not in sandbox.servers  # scratch servers never join the sandbox


async def test_principal_bound_server_adds_user_cases(demo: LabServer) -> None:
    demo.install_ring(demo.ring, bind_principal=mcp_lab.lab_principal)  # type: ignore[arg-type]
    mcp_lab.set_principal("alice")
    report = await tamper_lab(await asked("demo", "handmade", {"x": 1}))
    assert report.case("another user").logged == "principal"
    assert report.case("no user").logged == "principal drift"
    assert report.all_agree
    assert mcp_lab.lab_principal(None) == "alice"  # restored afterwards


async def test_codec_server_and_the_ttl_wait_never_blocks_the_loop(
    demo: LabServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_codec(demo, EnvelopeCodec(os.urandom(32)))
    flow = await asked("demo", "handmade", {"x": 2})
    blocking_sleep = time.sleep

    def no_sleep_on_the_loop(seconds: float) -> None:
        # The kernel's thread must await the token's expiry; server threads may sleep as they like.
        if threading.current_thread() is threading.main_thread():
            raise AssertionError(f"time.sleep({seconds}) on the event loop's thread")
        blocking_sleep(seconds)

    monkeypatch.setattr(time, "sleep", no_sleep_on_the_loop)
    report = await tamper_lab(flow, ttl=0.2)
    assert report.case("flipped byte").logged == "token failed verification"
    assert "restart, new key" not in {c.case for c in report.cases}
    assert report.all_agree


async def test_plaintext_server_accepts_every_variant() -> None:
    async def call_tool(ctx: object, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
        if params.request_state is None:
            return T.InputRequiredResult(request_state='{"admin": false}')
        return T.CallToolResult(content=[T.TextContent(type="text", text="ran")])

    async def list_tools(ctx: object, params: object) -> T.ListToolsResult:
        return T.ListToolsResult(tools=[T.Tool(name="naive", input_schema={"type": "object"})])

    sandbox.register(sandbox.new_lowlevel("low", {"on_call_tool": call_tool, "on_list_tools": list_tools}))
    try:
        report = await tamper_lab(await asked("low", "naive", {}))
        assert all(c.logged is None and c.predicted == "ok" and c.expected == "ok" for c in report.cases)
        assert report.all_agree
    finally:
        await sandbox.stop_all()


async def test_bad_input(demo: LabServer) -> None:
    with pytest.raises(mcp_lab.LabError, match="takes a Flow"):
        await tamper_lab("v1.token")  # type: ignore[arg-type]
    fresh = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    with pytest.raises(mcp_lab.LabError, match="no request_state"):
        await tamper_lab(fresh)
    with pytest.raises(mcp_lab.LabError, match="ttl"):
        await tamper_lab(fresh, ttl=60)


def test_flip_byte_keeps_the_format() -> None:
    token = "v1." + "A" * 43
    flipped = flip_byte(token)
    assert flipped != token and flipped.startswith("v1.") and len(flipped) == len(token)
    assert mcp_lab.inspect_token(flipped).problem is None
    assert flip_byte("abc") != "abc" and flip_byte("") == "x"
