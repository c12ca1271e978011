"""Run notebook cells in a kernel of a user's Jupyter server, reached through JupyterHub's proxy.

This is what JupyterLab does for a student: open a session for the notebook (jupyter_server REST), then
talk to its kernel over the `/api/kernels/{id}/channels` websocket with the Jupyter messaging protocol
(JSON, one message per text frame, each naming its channel). Nobody answers widgets here, as under
nbclient: the tutorials' `mcp_lab.forms.unattended(...)` cells answer the forms (MCP_LAB_UNATTENDED=1).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect


@dataclass
class CellRun:
    """What one cell produced: its outputs in nbformat's shape, and the reply's status."""

    source: str
    outputs: list[dict[str, Any]] = field(default_factory=list)
    status: str = ""

    @property
    def error(self) -> str | None:
        for output in self.outputs:
            if output["output_type"] == "error":
                return f"{output['ename']}: {output['evalue']}"
        return None


class RemoteKernel:
    """One kernel of a user's server, driven over its websocket (a token authenticates every request)."""

    def __init__(self, ws: WebSocketClientConnection, username: str) -> None:
        self._ws = ws
        self._loop = asyncio.get_running_loop()
        """The loop the websocket lives on: its close frame is written there."""
        self._session = uuid.uuid4().hex
        self._username = username

    @classmethod
    async def connect(cls, ws_url: str, token: str, username: str) -> RemoteKernel:
        request = HTTPRequest(ws_url, headers={"Authorization": f"token {token}"}, request_timeout=60)
        return cls(await websocket_connect(request, max_message_size=64 * 1024 * 1024), username)

    def _message(self, msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
        header = {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": self._username,
            "session": self._session,
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        }
        return {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell"}

    async def execute(self, source: str, timeout: float = 180.0) -> CellRun:
        """Run one cell; its outputs come back until the kernel is idle and has replied."""
        request = self._message(
            "execute_request",
            {"code": source, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False},
        )
        await self._ws.write_message(json.dumps(request))
        run, idle, replied = CellRun(source), False, False
        async with asyncio.timeout(timeout):
            while not (idle and replied):
                frame = await self._ws.read_message()
                if frame is None:
                    raise ConnectionError("the kernel's websocket closed")
                if isinstance(frame, bytes):
                    continue  # messages with binary buffers (widget state): nothing this runner reads
                message = json.loads(frame)
                if message.get("parent_header", {}).get("msg_id") != request["header"]["msg_id"]:
                    continue
                kind, content = message["header"]["msg_type"], message["content"]
                if message["channel"] == "shell" and kind == "execute_reply":
                    run.status, replied = content["status"], True
                elif kind == "status":
                    idle = idle or content["execution_state"] == "idle"
                elif kind == "stream":
                    run.outputs.append({"output_type": "stream", "name": content["name"], "text": content["text"]})
                elif kind in ("execute_result", "display_data"):
                    display_id = content.get("transient", {}).get("display_id")
                    run.outputs.append({"output_type": kind, "data": content["data"], "display_id": display_id})
                elif kind == "update_display_data":  # a form becomes its answered record in place
                    display_id = content.get("transient", {}).get("display_id")
                    for output in run.outputs:
                        if display_id is not None and output.get("display_id") == display_id:
                            output["data"] = content["data"]
                elif kind == "error":
                    run.outputs.append({"output_type": "error", "ename": content["ename"], "evalue": content["evalue"]})
                elif kind == "clear_output":
                    run.outputs.clear()
        return run

    async def run_cells(self, sources: list[str]) -> list[CellRun]:
        """Run the cells in order, stopping at the first that fails (as Run All does)."""
        runs = []
        for source in sources:
            runs.append(await self.execute(source))
            if runs[-1].status != "ok":
                break
        return runs

    def close(self) -> None:
        """Close the websocket on its own loop. (Outside that loop tornado would ask asyncio for "the current"
        one, which exists only while no earlier test -- pytest-asyncio's, say -- has set and unset one.)"""
        if self._loop.is_closed():
            return

        async def close() -> None:
            self._ws.close()

        if self._loop.is_running():
            self._ws.close()
        else:
            self._loop.run_until_complete(close())
