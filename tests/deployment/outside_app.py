"""A deployment the lab did not start: `uvicorn tests.deployment.outside_app:app --host 127.0.0.1 --port P`.

The shop's tools on a server whose request_state keys come from the file `SHOP_KEY_FILE` names (one hex key,
the same for every instance: shared keys), or, without it, the SDK's default: a key of this process.
"""

from __future__ import annotations

import os
from pathlib import Path

from mcp.server.mcpserver import MCPServer, RequestStateSecurity

from tests.deployment import shop_server

_key_file = os.environ.get("SHOP_KEY_FILE")
_security = RequestStateSecurity(keys=[bytes.fromhex(Path(_key_file).read_text())]) if _key_file else None
mcp = MCPServer("shop", log_level="WARNING", request_state_security=_security)
mcp.tool()(shop_server.order)
app = mcp.streamable_http_app()
