"""A real third-party client against a lab server: the MCP Inspector's command-line client (npm
`@modelcontextprotocol/inspector`, pinned in tests/inspector/package.json and installed by ./dev with the
Node >= 22 it needs) lists the tools of a `%%mcp_server NAME --http` server and calls a tool whose argument
travels in a header -- run exactly as `%mcp_server url NAME` tells a user to, its secret read from the
private header file by the shell, never seen by the test's output.

What the server received is what the tool itself saw (`ctx.headers`, recorded by the cell into a list):
the Mcp-Param-Region header the Inspector mirrored from the argument, on a 2026-07-28 request. A user's own
server adopted with `--from` (its own keys) answers the Inspector the same way.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import mcp_lab
from mcp_lab.servers.sandbox import sandbox

HERE = Path(__file__).resolve().parent
BIN = HERE / "node_modules" / ".bin"
INSPECTOR_VERSION = "2.12.0"

BODY = '''
from typing import Annotated
from mcp.server.mcpserver import Context
import mcp_lab

received = []

@mcp.tool()
def forecast(region: Annotated[str, mcp_lab.header("Region")], ctx: Context) -> str:
    """Today's weather; gateways route on the Region header."""
    received.append({k.lower(): v for k, v in (ctx.headers or {}).items() if k.lower().startswith("mcp-")})
    return f"sunny in {region}"
'''


def _installed() -> None:
    if (BIN / "mcp-inspector").exists() and (BIN / "node").exists():
        return
    message = (
        "the MCP Inspector is not installed in tests/inspector (./dev installs it: npm ci --prefix tests/inspector)"
    )
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
async def shop(capsys: pytest.CaptureFixture[str]) -> AsyncIterator[tuple[InteractiveShell, str]]:
    """`%%mcp_server shop --http` and the Inspector command `%mcp_server url shop` printed for it."""
    _installed()
    shell = InteractiveShell.instance()
    mcp_lab.load_ipython_extension(shell)
    try:
        shell.run_cell_magic("mcp_server", "shop --http", BODY)
        capsys.readouterr()
        shell.run_line_magic("mcp_server", "url shop")
        printed = capsys.readouterr().out
        secret = mcp_lab.auth_headers("shop")["Authorization"].split()[1]
        assert secret not in printed  # the cell's output is saved with the notebook
        (command,) = [line.removeprefix("MCP Inspector: ") for line in printed.splitlines() if "Inspector" in line]
        yield shell, command
    finally:
        await sandbox.stop_all()
        mcp_lab.unload_ipython_extension(shell)


async def _run(command: str, home: Path) -> tuple[int, str, str]:
    """The command through bash, as a user pastes it: npx finds the pinned Inspector here, offline."""
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",  # the pinned node first
        "HOME": str(home),  # the Inspector keeps its catalog under ~/.mcp-inspector
        "MCP_INSPECTOR_SECRET_STORE": "memory",
        "npm_config_offline": "true",  # never fetched at test time: the lock's version or a failure
        "npm_config_update_notifier": "false",
    }
    process = await asyncio.create_subprocess_exec(
        "bash", "-c", command, cwd=HERE, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_pinned_inspector_runs_on_the_pinned_node(tmp_path: Path) -> None:
    _installed()
    code, out, err = await _run("node --version && npx @modelcontextprotocol/inspector --version", tmp_path)
    assert code == 0, err
    node, inspector = out.split()
    assert tuple(int(part) for part in node.removeprefix("v").split(".")) >= (22, 19, 0)
    assert inspector == INSPECTOR_VERSION


async def test_the_printed_command_lists_the_tools(shop: tuple[InteractiveShell, str], tmp_path: Path) -> None:
    _, command = shop
    assert '--header "$(cat ' in command and command.endswith("--method tools/list")
    code, out, err = await _run(command, tmp_path)
    assert code == 0, out + err
    listing: dict[str, Any] = json.loads(out)
    (tool,) = listing["tools"]
    assert tool["name"] == "forecast"
    assert tool["inputSchema"]["properties"]["region"]["x-mcp-header"] == "Region"


async def test_a_call_sends_the_argument_in_its_header(shop: tuple[InteractiveShell, str], tmp_path: Path) -> None:
    shell, command = shop
    call = command.replace("--method tools/list", "--method tools/call --tool-name forecast --tool-arg region=eu-west")
    code, out, err = await _run(call, tmp_path)
    assert code == 0, out + err
    result = json.loads(out)
    assert result["content"] == [{"type": "text", "text": "sunny in eu-west"}] and result["isError"] is False
    assert shell.user_ns["received"] == [
        {
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "forecast",
            "mcp-param-region": "eu-west",
        }
    ]


async def test_without_the_secret_the_inspector_is_refused(shop: tuple[InteractiveShell, str], tmp_path: Path) -> None:
    shell, command = shop
    head, _, rest = command.partition(' --header "$(cat ')
    without = head + " " + rest.partition(')"')[2].lstrip()
    without = without.replace("--method tools/list", "--method tools/call --tool-name forecast --tool-arg region=x")
    code, out, err = await _run(without, tmp_path)
    # The lab answers 401; the Inspector reads that as "log in" (OAuth), which it cannot do without a TTY.
    assert code != 0 and json.loads(err)["error"]["code"] == "auth_required", out + err
    assert shell.user_ns["received"] == []


async def test_an_adopted_server_of_your_own_answers_the_inspector(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`%mcp_server NAME --from module:attribute --http`: the user's own server, with its own keys, served
    by the lab; the Inspector calls its header-parameter tool and gets its structured result."""
    _installed()
    shell = InteractiveShell.instance()
    mcp_lab.load_ipython_extension(shell)
    try:
        shell.run_line_magic("mcp_server", "ownshop --from tests.sample_servers.own.shop:mcp --http")
        assert "keeps its own request_state keys" in capsys.readouterr().out
        shell.run_line_magic("mcp_server", "url ownshop")
        printed = capsys.readouterr().out
        (command,) = [line.removeprefix("MCP Inspector: ") for line in printed.splitlines() if "Inspector" in line]
        call = command.replace(
            "--method tools/list",
            "--method tools/call --tool-name forecast --tool-arg region=eu-west --tool-arg days=2",
        )
        code, out, err = await _run(call, tmp_path)
        assert code == 0, out + err
        result = json.loads(out)
        assert result["structuredContent"] == {
            "region": "eu-west",
            "days": 2,
            "high": 22,
            "summary": "2 sunny days in eu-west",
        }
    finally:
        await sandbox.stop_all()
        mcp_lab.unload_ipython_extension(shell)
