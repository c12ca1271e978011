"""The SDK's "... already exists" warnings (tools, prompts, resources) reach the server's log and one short
note, never the cell's stderr (issue 22 item 12; the kernel test covers tools and pydantic's warnings)."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver import MCPServer

from mcp_lab.servers import logging_hooks
from mcp_lab.servers.log_book import contained, log_lines
from mcp_lab.servers.sandbox import sandbox


def test_a_second_prompt_or_resource_of_one_name_is_one_note_and_a_log_line(capsys: pytest.CaptureFixture[str]) -> None:
    logging_hooks.install_cell_hooks(sandbox.servers)  # as `%load_ext mcp_lab` does
    server = MCPServer("dupes", log_level="WARNING")

    def hello() -> str:
        return "hi"

    try:
        with contained("dupes"):
            for _ in range(3):
                server.prompt(name="hello")(hello)
                server.resource("doc://hello")(hello)
    finally:
        logging_hooks.uninstall()
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "note: 'dupes' already has a prompt 'hello'; the SDK keeps the first definition (give each its own name)",
        "note: 'dupes' already has a resource 'doc://hello'; the SDK keeps the first definition (give each its own name)",
    ]
    lines = log_lines("dupes")
    assert sum("Prompt already exists: hello" in line for line in lines) == 2
    assert sum("Resource already exists: doc://hello" in line for line in lines) == 2
