"""The exchanges feature: what crossed an HTTP connection, leg by leg, as one record for every server.

Spec context: 2026-07-28 Streamable HTTP. Every request repeats parts of its JSON-RPC body in headers
(`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) so gateways can route without parsing
JSON. Here: the one exchange record (`record`), the one recorder that fills it for lab-served and connected
servers alike (`recorder`), the tool schemas it learns from listings (`schema_book`), and its view (`view`).
Named `exchanges`, not `http`: no part of mcp_lab is named after a standard-library module.
"""
