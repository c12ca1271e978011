"""`mcp_lab.header(...)` at definition time, `mcp_lab.header_table(...)` on real servers, and the per-leg
header view of flows over HTTP."""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator
from typing import Annotated, Any

import mcp.types as T
import pytest
from mcp.server import Server
from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from mcp.shared.inbound import encode_header_value
from pydantic import BaseModel, WithJsonSchema

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve


class Color(enum.StrEnum):
    red = "red"
    blue = "blue"


class Confirm(BaseModel):
    ok: bool


async def ask_ok(region: str) -> Elicit[Confirm]:
    return Elicit(f"Ship to {region}?", Confirm)


def _schema_of(server: MCPServer, tool: str) -> dict[str, Any]:
    return dict(server._tool_manager.get_tool(tool).parameters)  # type: ignore[union-attr]


def test_header_writes_the_key_for_str_int_bool_enum_and_optional() -> None:
    mcp = MCPServer("x", log_level="WARNING")

    @mcp.tool()
    def t(
        region: Annotated[str, mcp_lab.header("Region")],
        n: Annotated[int, mcp_lab.header("N")] = 3,
        fast: Annotated[bool, mcp_lab.header("Fast")] = False,
        color: Annotated[Color, mcp_lab.header("Color")] = Color.red,
        opt: Annotated[str | None, mcp_lab.header("Opt", optional=True)] = None,
        explicit: Annotated[str | None, WithJsonSchema({"type": "string"}), mcp_lab.header("W")] = None,
    ) -> str:
        return ""

    props = _schema_of(mcp, "t")["properties"]
    assert props["region"] == {"title": "Region", "type": "string", "x-mcp-header": "Region"}
    assert props["n"]["x-mcp-header"] == "N" and props["n"]["type"] == "integer"
    assert props["fast"]["type"] == "boolean"
    assert props["color"]["enum"] == ["red", "blue"] and props["color"]["type"] == "string"
    # The seed's WithJsonSchema({"type": "string", "x-mcp-header": ...}) shape: no anyOf.
    assert props["opt"]["type"] == "string" and "anyOf" not in props["opt"] and props["opt"]["x-mcp-header"] == "Opt"
    assert props["explicit"]["type"] == "string" and props["explicit"]["x-mcp-header"] == "W"


def test_header_mistakes_are_one_line_lab_errors_at_definition_time() -> None:
    with pytest.raises(mcp_lab.LabError, match=r"'Bad Name' is not an RFC 9110 token"):
        mcp_lab.header("Bad Name")
    with pytest.raises(mcp_lab.LabError, match="as a string"):
        mcp_lab.header(3)  # type: ignore[arg-type]
    mcp = MCPServer("x", log_level="WARNING")
    with pytest.raises(mcp_lab.LabError, match=r"\(got 'number'\); only str, int and bool"):

        @mcp.tool()
        def price(amount: Annotated[float, mcp_lab.header("Amount")]) -> str:
            return ""

    with pytest.raises(mcp_lab.LabError, match=r"optional=True\)\] = None"):

        @mcp.tool()
        def maybe(region: Annotated[str | None, mcp_lab.header("Region")] = None) -> str:
            return ""

    with pytest.raises(mcp_lab.LabError, match=r"got 'array'"):

        @mcp.tool()
        def many(regions: Annotated[list[str], mcp_lab.header("Regions")]) -> str:
            return ""


@pytest.fixture
async def shop() -> AsyncIterator[LabServer]:
    entry = sandbox.new_mcpserver("shop")
    mcp = entry.server
    assert isinstance(mcp, MCPServer)

    @mcp.tool()
    def check_stock(
        title: str,
        region: Annotated[str, mcp_lab.header("Region")],
        rush: Annotated[bool, mcp_lab.header("Rush")] = False,
    ) -> str:
        return f"{title}: 3 copies in {region}"

    @mcp.tool()
    async def ship(
        title: str, region: Annotated[str, mcp_lab.header("Region")], ok: Annotated[Confirm, Resolve(ask_ok)]
    ) -> str:
        return f"shipped {title} to {region} (ok={ok.ok})"

    @mcp.tool()
    def plain(x: int) -> int:
        return x

    sandbox.register(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


async def test_header_table_of_an_mcpserver(shop: LabServer) -> None:
    table = await mcp_lab.header_table("shop")
    assert table.kind == "mcpserver"
    assert [(r.tool, r.argument, r.header) for r in table.rows] == [
        ("check_stock", "region", "Mcp-Param-Region"),
        ("check_stock", "rush", "Mcp-Param-Rush"),
        ("ship", "region", "Mcp-Param-Region"),
    ]
    text = table._repr_mimebundle_()["text/plain"]
    assert "plain: no header parameters" in text
    assert '"São Paulo" -> =?base64?U8OjbyBQYXVsbw==?= (base64 sentinel)' in text


async def test_header_table_of_a_lowlevel_server_flags_what_clients_drop() -> None:
    good = T.Tool(
        name="good",
        input_schema={"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
    )
    bad = T.Tool(
        name="bad",
        input_schema={"type": "object", "properties": {"amount": {"type": "number", "x-mcp-header": "Amount"}}},
    )

    async def on_list_tools(ctx: Any, params: Any) -> T.ListToolsResult:
        return T.ListToolsResult(tools=[good, bad])

    server = Server("low", on_list_tools=on_list_tools)
    table = await mcp_lab.header_table(server)
    assert table.kind == "lowlevel"
    assert [t.dropped for t in table.tools] == [False, True]
    text = table._repr_mimebundle_()["text/plain"]
    assert "bad: INVALID -- property 'amount'" in text and "2026-07-28 clients drop this whole tool" in text
    sandbox.add(server)
    try:
        served = await mcp_lab.header_table("low")  # through the sandbox's own session, unfiltered
        assert [t.name for t in served.tools] == ["good", "bad"]
    finally:
        await sandbox.stop_all()


async def test_every_leg_over_http_shows_which_argument_went_into_which_header(shop: LabServer) -> None:
    serve("shop")
    flow = await mcp_lab.call(
        "shop", "ship", {"title": "Dune", "region": "São Paulo"}, answers={"ask_ok": {"ok": True}}
    )
    assert flow.status == "done" and len(flow.rounds) == 2
    for rnd in flow.rounds:
        (usage,) = rnd.http[-1]["param_headers"]
        assert usage["argument"] == "region" and usage["header"] == "Mcp-Param-Region"
        assert usage["sent"] == encode_header_value("São Paulo") and usage["decoded"] == "São Paulo"
        assert usage["verdict"] == "ok"
    text = flow._repr_mimebundle_()["text/plain"]
    line = 'region="São Paulo" -> Mcp-Param-Region: =?base64?U8OjbyBQYXVsbw==?= (decoded "São Paulo") [ok]'
    assert text.count(line) == 2
    html = flow._repr_mimebundle_()["text/html"]
    assert "decodes to <code>&quot;São Paulo&quot;</code>" in html and "mcp-lab-mcp" in html
    quick = await mcp_lab.call("shop", "check_stock", {"title": "Dune", "region": "eu", "rush": True})
    verdicts = {u["argument"]: (u["sent"], u["verdict"]) for u in quick.rounds[0].http[-1]["param_headers"]}
    assert verdicts == {"region": ("eu", "ok"), "rush": ("true", "ok")}
