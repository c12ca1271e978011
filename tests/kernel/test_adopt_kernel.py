"""Adopting your own server in a real kernel (issue 14, item 1): `--from`, a cell that rebinds `mcp`, a cell
that leaves `mcp` empty, and `%mcp_describe`. Nothing is silently empty, and nothing the servers log leaks."""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

ADOPT = "%mcp_server shop --from tests.sample_servers.own.shop:mcp"

CALL = """flow = await %mcp_call shop book city=Oslo --answers '{"ask_traveller": {"name": "Ada", "seats": 2}}'
report = mcp_lab.inspect_token(flow)
print(flow.text, report.verdict, report.verified)"""

REBIND = """%%mcp_server deploy
from mcp.server.mcpserver import MCPServer

def build_server():
    server = MCPServer("deploybot")  # the SDK's default log_level="INFO" configures the root logger
    @server.tool()
    def deploy(env: str) -> str:
        return f"deployed to {env}"
    return server

mcp = build_server()
"""

EMPTY = """%%mcp_server forgotten
from mcp.server.mcpserver import MCPServer
helper = MCPServer("helper", log_level="WARNING")
"""


def test_adopt_from_a_module_rebinding_and_describe_in_a_kernel() -> None:
    cells = run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        ADOPT,
        CALL,
        "%mcp_server list",
        REBIND,
        "flow = await %mcp_call deploy deploy env=prod\nprint(flow.text)",
        EMPTY,
        "%mcp_describe shop",
        "%mcp_server broken --from tests.sample_servers.own.shop:nothing",
        "%mcp_server desk --from tests.sample_servers.own.desk:server\n%mcp_server list",
        "%mcp_server log deploy",
    )
    assert [len(errors_of(c)) for c in cells] == [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
    adopted = text_of(cells[1])
    assert adopted.startswith("adopted 'shop' (mcpserver from tests.sample_servers.own.shop:mcp)")
    assert "keeps its own request_state keys [" in adopted and "audience 'shop'" in adopted
    assert text_of(cells[2]).strip() == "Booked 2 seat(s) to Oslo for Ada ok True"
    assert "shop: mcpserver, its own keys [" in text_of(cells[3])
    rebound = text_of(cells[4])
    assert rebound.startswith("the cell rebound `mcp` to its own server 'deploybot': adopted as 'deploy'")
    assert text_of(cells[5]).strip() == "deployed to prod"
    for cell in cells[4:6]:  # MCPServer's INFO logging set-up stays out of the cells
        assert "HTTP Request" not in text_of(cell) and "Processing request" not in text_of(cell)
    forgotten = text_of(cells[6])
    assert "warning: the cell registered nothing on `mcp`, so 'forgotten' offers no tools" in forgotten
    assert "mcp_lab.adopt(helper, name='forgotten')" in forgotten
    described = text_of(cells[7])
    assert described.startswith("shop (mcpserver): in-process")
    assert "forecast(region: string [Mcp-Param-Region], days?: integer) -> object" in described
    assert "has no attribute 'nothing'" in text_of(cells[8])
    assert "desk: lowlevel, its own keys [" in text_of(cells[9]) and "plaintext" not in text_of(cells[9])
    assert "'deploy' configured the root logger (level INFO, 1 handler(s))" in text_of(cells[10])
