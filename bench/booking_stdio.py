"""The benchmarks' booking server (one resolver question, then a result) served over stdio.

Run by bench/connect.py as `python -m bench.booking_stdio`; the HTTP benchmarks serve the same tools.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from bench.http_roundtrip import add_tools

if __name__ == "__main__":
    server = MCPServer("booking", log_level="WARNING")
    add_tools(server)
    server.run(transport="stdio")
