"""JSON-RPC error codes the lab tells apart.

Spec context: 2026-07-28. A server answers a refused (altered, expired, foreign) request_state with the
frozen -32602 "Invalid params"; over Streamable HTTP a call whose `Mcp-Param-*` header disagrees with its
body is refused with -32020 (and HTTP 400).
"""

from __future__ import annotations

__all__ = ["HEADER_MISMATCH", "INVALID_PARAMS"]

INVALID_PARAMS = -32602
HEADER_MISMATCH = -32020
