"""Declaring header parameters, and listing a server's: `mcp_lab.header(...)` and `mcp_lab.header_table(...)`.

Spec context: 2026-07-28 header parameters. The SDK's way to mark an argument is a raw JSON Schema key,
`Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]`, checked only when the tool is
registered, and an optional argument needs the schema written out by hand
(`Annotated[str | None, WithJsonSchema({"type": "string", "x-mcp-header": "Region"})] = None`), because
pydantic describes `str | None` as an `anyOf`, which the rules forbid. `header("Region")` writes the same
key, checks it while pydantic builds the schema (that is, at `@mcp.tool()`), and explains a mistake in one
line: a name that is not an RFC 9110 token, a float, an Optional without the explicit schema.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mcp.shared.inbound import X_MCP_HEADER_KEY, find_invalid_x_mcp_header

from mcp_lab.errors import LabError
from mcp_lab.headers.analysis import HeaderTable, header_table_from_tools
from mcp_lab.json_types import JsonObject
from mcp_lab.servers.listing import raw_tool_listing

if TYPE_CHECKING:
    from pydantic import GetJsonSchemaHandler
    from pydantic_core import CoreSchema

__all__ = ["HeaderParam", "header", "header_table"]


def _reason(prop: JsonObject) -> str | None:
    reason = find_invalid_x_mcp_header({"type": "object", "properties": {"arg": prop}})
    return reason.replace("property 'arg': ", "") if reason is not None else None


class HeaderParam:
    """Pydantic metadata: the argument's JSON Schema gains `x-mcp-header: <name>` (built by `header()`)."""

    def __init__(self, name: str, optional: bool = False) -> None:
        self.name = name
        self.optional = optional

    def __repr__(self) -> str:
        extra = ", optional=True" if self.optional else ""
        return f"mcp_lab.header({self.name!r}{extra})"

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonObject:
        schema = dict(handler(core_schema))
        if "$ref" in schema:  # an Enum or alias: inline it, a $ref carries no `type` of its own
            schema = dict(handler.resolve_ref_schema(schema))
        branches = schema.get("anyOf")
        if isinstance(branches, list) and any(b == {"type": "null"} for b in branches):
            others = [b for b in branches if b != {"type": "null"}]
            if not self.optional:
                raise LabError(
                    f"{self!r} on an optional argument: pydantic writes `X | None` as anyOf, which 2026-07-28 "
                    f"forbids; use `Annotated[str | None, mcp_lab.header({self.name!r}, optional=True)] = None` "
                    f'(the SDK docs\' WithJsonSchema({{"type": "string", "x-mcp-header": {json.dumps(self.name)}}}) form)'
                )
            if len(others) == 1 and isinstance(others[0], dict):
                rest = {k: v for k, v in schema.items() if k != "anyOf"}
                branch = dict(handler.resolve_ref_schema(others[0])) if "$ref" in others[0] else dict(others[0])
                schema = {**rest, **branch}
        schema[X_MCP_HEADER_KEY] = self.name
        reason = _reason(schema)
        if reason is not None:
            raise LabError(f"{self!r}: {reason}; only str, int and bool arguments can travel in a header")
        return schema


def header(name: str, *, optional: bool = False) -> HeaderParam:
    """Mark a tool argument as a header parameter: `region: Annotated[str, mcp_lab.header("Region")]`.

    2026-07-28 clients then also send it as `Mcp-Param-<name>`. For an optional argument write
    `Annotated[str | None, mcp_lab.header("Region", optional=True)] = None`.
    """
    if not isinstance(name, str):
        raise LabError(f"mcp_lab.header() takes the header name as a string, not {type(name).__name__}")
    if not isinstance(optional, bool):
        raise LabError(f"mcp_lab.header(optional=) is True or False, not {optional!r}")
    reason = _reason({"type": "string", X_MCP_HEADER_KEY: name})
    if reason is not None:
        raise LabError(f"mcp_lab.header({name!r}): {reason} (letters, digits and !#$%&'*+-.^_`|~ only)")
    return HeaderParam(name, optional)


async def header_table(server: object) -> HeaderTable:
    """Every tool's header parameters: header name, JSON type, how sample values are encoded, and the
    SDK's verdict on invalid marks (2026-07-28 clients drop such a tool whole). `await` it."""
    name, kind, tools = await raw_tool_listing(server)
    return header_table_from_tools(name, tools, kind)
