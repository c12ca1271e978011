"""The three header-parameter labs against real servers over real loopback HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import pytest
from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from pydantic import BaseModel

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from tests.http_records import sent_headers


class Confirm(BaseModel):
    ok: bool


async def ask_ok(region: str) -> Elicit[Confirm]:
    return Elicit(f"Ship to {region}?", Confirm)


@pytest.fixture
async def shop() -> AsyncIterator[LabServer]:
    entry = sandbox.new_mcpserver("shop")
    mcp = entry.server
    assert isinstance(mcp, MCPServer)

    @mcp.tool()
    def forecast(region: Annotated[str, mcp_lab.header("Region")]) -> str:
        return f"sunny in {region}"

    @mcp.tool()
    def stock(title: str, region: Annotated[str, mcp_lab.header("Region")] = "eu") -> str:
        return f"{title} in {region}"

    @mcp.tool()
    async def ship(region: Annotated[str, mcp_lab.header("Region")], ok: Annotated[Confirm, Resolve(ask_ok)]) -> str:
        return f"shipped to {region} (ok={ok.ok})"

    @mcp.tool()
    def plain(x: int) -> int:
        return x

    sandbox.register(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


async def test_mismatch_lab_reproduces_the_servers_checks(shop: LabServer) -> None:
    lab = await mcp_lab.mismatch_lab("shop", "forecast", {"region": "eu-west"})
    assert shop.url is not None and lab.notes and "now serves it" in lab.notes[0]
    got = {p.case: (p.status, p.code, p.message) for p in lab.probes}
    assert got["match"] == (200, None, None)
    assert got["base64"] == (200, None, None)
    assert got["mismatch"] == (
        400,
        -32020,
        "Mcp-Param-Region header does not match the request body's 'region' argument",
    )
    assert got["missing"] == (
        400,
        -32020,
        "Mcp-Param-Region header is missing but the request body's 'region' argument is present",
    )
    assert got["name"] == (400, -32020, "mcp-name header does not match the request body's 'name' parameter")
    assert got["envelope"][:2] == (400, -32020) and "protocol version" in str(got["envelope"][2])
    assert got["version"] == (
        400,
        -32020,
        "mcp-protocol-version header does not match the request envelope's protocol version",
    )
    assert got["unsupported"] == (400, -32022, "Unsupported protocol version")
    assert got["legacy"] == (400, -32600, "Bad Request: Missing session ID")  # routed, not checked
    assert got["no-meta"][:2] == (400, -32602)
    assert "extra" not in got  # 'region' is required in forecast
    for probe in lab.probes:
        assert probe.exchange["seen_by"] == ["client", "server"]
    sent = sent_headers(lab.probes[3].exchange)
    assert sent["mcp-param-region"] == "=?base64?ZXUtd2VzdA==?="
    text = lab._repr_mimebundle_()["text/plain"]
    assert "mismatch: Mcp-Param-Region disagrees with the body -> 400 -32020" in text
    assert "127.0.0.1" not in text


async def test_mismatch_lab_on_an_optional_argument_adds_the_absent_case(shop: LabServer) -> None:
    lab = await mcp_lab.mismatch_lab("shop", "stock")
    assert lab.arguments == {"title": "eu-west", "region": "eu"}
    extra = next(p for p in lab.probes if p.case == "extra")
    assert (extra.status, extra.code) == (400, -32020)
    assert extra.message == "Mcp-Param-Region header is present but the request body's 'region' argument is absent"


async def test_mismatch_lab_needs_a_marked_tool(shop: LabServer) -> None:
    with pytest.raises(mcp_lab.LabError, match="no argument marked x-mcp-header"):
        await mcp_lab.mismatch_lab("shop", "plain")
    with pytest.raises(mcp_lab.LabError, match="has no tool 'nope'"):
        await mcp_lab.mismatch_lab("shop", "nope")


async def test_list_first_lab_shows_each_clients_recovery(shop: LabServer) -> None:
    lab = await mcp_lab.list_first_lab("shop", "forecast", {"region": "eu-west"})
    client, session, flow, listed = (lab.scenario(n) for n in ("client", "session", "flow", "listed"))
    rpcs = [(e["rpc"], e["response"]["status"]) for e in client.exchanges]
    assert rpcs == [("tools/call", 400), ("tools/list", 200), ("tools/call", 200)]
    assert client.outcome == "result: sunny in eu-west"
    assert [e["rpc"] for e in client.connect] == ["server/discover"]
    assert session.posts == 1 and session.outcome.startswith(
        "raised MCPError -32020: Mcp-Param-Region header is missing"
    )
    assert flow.relisted and [(e["rpc"], e["response"]["status"]) for e in flow.exchanges] == rpcs
    assert flow.outcome.endswith("done after 1 leg")
    assert [e["rpc"] for e in listed.exchanges] == ["tools/list", "tools/call"]
    text = lab._repr_mimebundle_()["text/plain"]
    assert "SDK Client.call_tool, tools never listed: 3 POST(s)" in text
    assert "mcp_lab flow engine, tools never listed: 3 POST(s) (leg marked relisted)" in text


async def test_list_first_lab_with_questions_answered(shop: LabServer) -> None:
    lab = await mcp_lab.list_first_lab("shop", "ship", {"region": "eu"}, answers={"ask_ok": {"ok": True}})
    assert lab.scenario("client").outcome == "result: shipped to eu (ok=True)"
    assert "done after 2 legs" in lab.scenario("flow").outcome
    assert lab.scenario("flow").relisted


async def test_schema_lookup_lab_counts_list_handler_runs() -> None:
    lab = await mcp_lab.schema_lookup_lab(calls=5)
    assert lab.count(False) == 6  # the listing itself, then once per call with arguments
    assert lab.count(True) == 1
    text = lab._repr_mimebundle_()["text/plain"]
    assert "without get_tool_input_schema: on_list_tools ran 6 times" in text
    assert "with get_tool_input_schema: on_list_tools ran 1 time" in text
    assert "Bookshop" not in sandbox.servers
    with pytest.raises(mcp_lab.LabError, match="whole number"):
        await mcp_lab.schema_lookup_lab(calls=0)
