"""What an instance imports: a module (`module:attribute`), a server adopted with `--from`, a %%mcp_server cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lab.deployment.source import cell_source, remember_adopted, remember_cell, resolve_source
from mcp_lab.errors import LabError


def test_module_adopted_and_cell_sources(tmp_path: Path) -> None:
    module = resolve_source("myproject.server:mcp", tmp_path)
    assert module.target == "myproject.server:mcp" and module.shown == "myproject.server:mcp"

    remember_adopted("till", "tests.deployment.shop_server:mcp")
    adopted = resolve_source("till", tmp_path)
    assert adopted.target == "tests.deployment.shop_server:mcp" and "adopted as 'till'" in adopted.shown

    remember_cell("kiosk", "kiosk --ttl 30", "@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n")
    cell = resolve_source("kiosk", tmp_path)
    written = (tmp_path / "mcp_lab_cell_kiosk.py").read_text()
    assert cell.target == "mcp_lab_cell_kiosk:mcp" and "mcp = MCPServer('kiosk')" in written
    assert "def ping() -> str:" in written and cell.shown == "the %%mcp_server cell 'kiosk'"

    history = ["%%mcp_server shop\n@mcp.tool()\ndef a() -> str:\n    return 'a'", "1 + 1"]
    assert cell_source("shop", history) is not None and cell_source("other", history) is None
    with pytest.raises(LabError, match="not an MCPServer cell"):
        cell_source("low", ["%%mcp_server low --lowlevel\nasync def on_list_tools(): ..."])
    with pytest.raises(LabError, match="no %%mcp_server cell named 'nowhere'"):
        resolve_source("nowhere", tmp_path)
