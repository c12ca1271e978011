"""Renderings of mcp_lab's plain data: stable `text/plain`, `text/html`, and vendor JSON for the labextension."""
