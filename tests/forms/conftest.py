"""A real in-process probe server that asks whatever schema a test gives it and records every answer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import mcp.types as T
import pytest
from mcp.server.mcpserver import Context

import mcp_lab
from mcp_lab.forms import FormAnswerer, Panel, clear_prearranged, current
from mcp_lab.lab import lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox


class Probe:
    """The probe server's entry plus what it saw."""

    def __init__(self, entry: LabServer) -> None:
        self.entry = entry
        self.seen: list[dict[str, Any]] = []

    def accepted(self) -> list[dict[str, Any]]:
        return [s for s in self.seen if s.get("action") == "accept"]


def build_probe() -> Probe:
    entry = sandbox.new_mcpserver("probe")
    probe = Probe(entry)
    mcp = entry.server

    @mcp.tool()
    async def ask(spec: dict[str, Any], ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            params = T.ElicitRequestFormParams(message="Tell me", requested_schema=spec)
            return T.InputRequiredResult(input_requests={"q": T.ElicitRequest(params=params)})
        answer = ctx.input_responses["q"]
        assert isinstance(answer, T.ElicitResult)
        probe.seen.append(answer.model_dump(exclude_none=True))
        return json.dumps({"action": answer.action, "content": answer.content})

    @mcp.tool()
    async def visit(url: str, ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            params = T.ElicitRequestURLParams(message="Authorize the calendar", url=url)
            return T.InputRequiredResult(input_requests={"consent": T.ElicitRequest(params=params)})
        answer = ctx.input_responses["consent"]
        assert isinstance(answer, T.ElicitResult)
        probe.seen.append(answer.model_dump(exclude_none=True))
        return f"consent: {answer.action} content={answer.content}"

    sandbox.register(entry)
    return probe


@pytest.fixture(autouse=True)
def _nothing_prearranged() -> Iterator[None]:
    clear_prearranged()
    yield
    clear_prearranged()


@pytest.fixture
async def probe() -> AsyncIterator[Probe]:
    p = build_probe()
    try:
        yield p
    finally:
        await sandbox.stop_all()


async def next_panel(before: Panel | None) -> Panel:
    """The next round of forms shown (every question of it joined), once the lab says it is shown."""
    panel = current()
    if panel is not None and panel is not before and panel.revealed:
        return panel
    shown: asyncio.Future[Panel] = asyncio.get_running_loop().create_future()

    def on_shown(panel: Panel) -> None:
        if panel is not before and not shown.done():
            shown.set_result(panel)

    unsubscribe = lab.board.on_round_shown(on_shown)
    try:
        return await asyncio.wait_for(shown, 60)  # a bound against a hang, not a timing claim
    finally:
        unsubscribe()


async def finished(flow: mcp_lab.Flow) -> mcp_lab.Flow:
    """`flow` once it has ended (a flow continuing in the background notifies after every leg)."""
    if flow.done:
        return flow
    ended: asyncio.Future[mcp_lab.Flow] = asyncio.get_running_loop().create_future()

    def on_leg(flow: mcp_lab.Flow) -> None:
        if flow.done and not ended.done():
            ended.set_result(flow)

    flow.on_round(on_leg)
    return await asyncio.wait_for(ended, 60)  # a bound against a hang, not a timing claim


async def ask_with_form(spec: dict[str, Any], **options: Any) -> tuple[asyncio.Future[mcp_lab.Flow], Panel]:
    """Start `probe.ask(spec)` answered by a FormAnswerer; return the running flow and its shown panel."""
    before = current()
    task = asyncio.ensure_future(mcp_lab.call("probe", "ask", {"spec": spec}, answers=FormAnswerer(**options)))
    return task, await next_panel(before)


def obj(*required: str, **properties: Any) -> dict[str, Any]:
    """A requested schema: `obj("a", a={...}, b={...})`."""
    return {"type": "object", "properties": properties, "required": list(required)}
