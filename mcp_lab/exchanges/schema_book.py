"""What a connection learns from the tool listings that cross it: each tool's input schema, so a record can say
which argument of a `tools/call` travelled in which `Mcp-Param-*` header.

Spec context: 2026-07-28 header parameters -- an input schema marks an argument `x-mcp-header: Name`, and the
client mirrors its value into `Mcp-Param-Name`. Clients learn the marks from `tools/list`; so does the lab's
recorder (`mcp_lab.exchanges.recorder`), from the same responses.
"""

from __future__ import annotations

import json
from typing import cast

from mcp_lab.json_types import JsonObject

__all__ = ["SchemaBook"]


class SchemaBook:
    """Input schemas learnt from the tools/list responses a served server sent (what clients learn too).

    Used to say which argument went into which `Mcp-Param-*` header; filled from the server thread.
    """

    def __init__(self) -> None:
        self.schemas: JsonObject = {}
        self._learnt = 0
        """Listings learnt so far: `_marking` holds for the schemas as they were after this many."""
        self._marking: tuple[int, bool] = (0, False)
        self.unmarked: dict[str, object] = {}
        """Tool -> its learnt schema, once found to give no call any `Mcp-Param-*` usage (it marks no argument
        `x-mcp-header`, as most tools, or is invalid). By identity: a new listing's schema is looked at anew."""

    def param_headers(self, params: JsonObject, headers: list[tuple[str, str]]) -> list[JsonObject]:
        """Which argument of this `tools/call` went into which `Mcp-Param-*` header (`param_header_usage`)."""
        from mcp_lab.protocol.header_values import param_header_usage

        name = str(params.get("name"))
        schema = self.schemas.get(name)
        if schema is not None and self.unmarked.get(name) is schema:
            return []
        arguments = cast("JsonObject", params.get("arguments") or {})  # as the body held them: usage says what is wrong
        usage = param_header_usage(schema, arguments, headers)
        if not usage and isinstance(schema, dict):  # none for this schema whatever the call: none marked, or invalid
            self.unmarked[name] = schema
        return usage

    def marks_nothing(self) -> bool:
        """No schema learnt marks an argument `x-mcp-header` (validly): no `tools/call` has any `Mcp-Param-*`
        usage, whichever tool it calls -- so an exchange need not read its body to know it has none."""
        learnt, marking = self._marking
        if learnt != self._learnt:
            from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map

            learnt = self._learnt  # read before the schemas: a listing learnt meanwhile (a server thread) counts anew
            # What `param_header_usage` needs to find any: a valid schema that marks an argument.
            marking = any(
                isinstance(schema, dict) and find_invalid_x_mcp_header(schema) is None and bool(x_mcp_header_map(schema))
                for schema in list(self.schemas.values())
            )
            self._marking = (learnt, marking)
        return not marking

    def learn(self, listing: object) -> None:
        tools = listing.get("result", {}).get("tools") if isinstance(listing, dict) else None
        if isinstance(tools, list):
            for tool in tools:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    self.schemas[tool["name"]] = tool.get("inputSchema")
            self._learnt += 1

    def learn_body(self, raw: bytes, content_type: str) -> None:
        """Learn from a whole tools/list response body (JSON, or an SSE stream of messages)."""
        text = raw.decode("utf-8", errors="replace")
        if "text/event-stream" in content_type:
            blocks = text.replace("\r\n", "\n").split("\n\n")
            payloads = ["\n".join(ln[5:].lstrip() for ln in b.split("\n") if ln.startswith("data:")) for b in blocks]
        else:
            payloads = [text]
        for payload in payloads:
            try:
                self.learn(json.loads(payload))
            except ValueError:
                continue
