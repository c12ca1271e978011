"""`%%mcp_server NAME --http`, `%mcp_server serve|list|stop|restart` through a real IPython shell."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import pytest
from IPython.core.interactiveshell import InteractiveShell

import mcp_lab
from mcp_lab.deployment.ports import free_port
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import HOST, live_servings
from tests.http_records import sent_headers

BODY = """
from typing import Annotated
import mcp_lab

@mcp.tool()
def forecast(region: Annotated[str, mcp_lab.header("Region")]) -> str:
    return f"sunny in {region}"
"""


@pytest.fixture
async def shell() -> AsyncIterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    mcp_lab.load_ipython_extension(ip)
    try:
        yield ip
    finally:
        await sandbox.stop_all()
        mcp_lab.unload_ipython_extension(ip)


async def test_cell_magic_serves_and_calls_go_over_http(
    shell: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    shell.run_cell_magic("mcp_server", f"shop --http --port {port}", BODY)
    url = f"http://127.0.0.1:{port}/mcp"
    assert capsys.readouterr().out.strip() == f"serving 'shop' at {url} (callers need its secret: %mcp_server url shop)"
    listing = shell.run_line_magic("mcp_server", "list")
    assert "shop: mcpserver, lab-generated key" in listing._repr_mimebundle_()["text/plain"]
    assert url in listing._repr_mimebundle_()["text/plain"]
    flow = await shell.run_line_magic("mcp_call", "shop forecast region=eu-west")
    assert flow.text == "sunny in eu-west"
    (exchange,) = flow.rounds[0].http
    sent = sent_headers(exchange)
    assert sent["mcp-param-region"] == "eu-west"
    shell.run_line_magic("mcp_server", "stop shop")
    assert "shop" not in sandbox.servers


async def test_serve_an_already_defined_server_and_restart(
    shell: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_cell_magic("mcp_server", "shop", BODY)
    assert sandbox.get("shop").url is None
    shell.run_line_magic("mcp_server", "serve shop")
    entry = sandbox.get("shop")
    assert entry.http is not None and entry.url is not None
    port = entry.http.port
    assert capsys.readouterr().out.strip().startswith(f"serving 'shop' at {entry.url} (callers need its secret")
    await sandbox.restart("shop")
    assert entry.http is not None and entry.http.port == port
    flow = await mcp_lab.call("shop", "forecast", {"region": "x"})
    assert flow.status == "done" and flow.rounds[0].http


async def test_replacing_a_served_server_on_the_same_port(shell: InteractiveShell) -> None:
    port = free_port()
    shell.run_cell_magic("mcp_server", f"shop --http --port {port}", BODY)
    shell.run_cell_magic("mcp_server", f"shop --replace --http --port {port}", BODY)
    flow = await mcp_lab.call("shop", "forecast", {"region": "again"})
    assert flow.text == "sunny in again" and flow.rounds[0].http
    assert [s.port for s in live_servings() if not s.stopping] == [port]


async def test_port_errors_are_one_line(shell: InteractiveShell) -> None:
    with socket.socket() as busy:
        busy.bind((HOST, 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(
            mcp_lab.LabError,
            match=rf"'shop' is defined \(in-process\) but not served: port {port} on 127.0.0.1 is in use",
        ):
            shell.run_cell_magic("mcp_server", f"shop --http --port {port}", BODY)
    assert "shop" in sandbox.servers and sandbox.get("shop").http is None
    with pytest.raises(mcp_lab.LabError, match="invalid port 'abc'"):
        shell.run_line_magic("mcp_server", "serve shop --port abc")
    with pytest.raises(mcp_lab.LabError, match="usage: %mcp_server serve NAME"):
        shell.run_line_magic("mcp_server", "serve")
    with pytest.raises(mcp_lab.LabError, match="no server named 'nope'"):
        shell.run_line_magic("mcp_server", "serve nope")
