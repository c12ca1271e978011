"""Header parameters as data: which tool argument becomes which `Mcp-Param-*` header, and how.

Spec context: 2026-07-28 header parameters. A tool argument whose JSON Schema carries `x-mcp-header: Name`
is mirrored by 2026-07-28 clients into an `Mcp-Param-Name` HTTP header on every `tools/call`, so gateways
can route without parsing the body; servers reject a call whose header and body disagree (-32020). Only
string, integer and boolean properties reachable through plain `properties` may carry the mark, with a
name that is an RFC 9110 token, unique regardless of case. A tool whose schema breaks any rule is dropped
whole by 2026-07-28 clients.

Every verdict here comes from the SDK's own public helpers in `mcp.shared.inbound` (the same code the
client and the server run); this module only arranges their answers per argument for display. Pure
functions over data: no I/O, no server objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from mcp.shared.inbound import MCP_PARAM_HEADER_PREFIX, X_MCP_HEADER_KEY, find_invalid_x_mcp_header

from mcp_lab.headers.record import HeaderTableRecord, ToolHeadersRecord
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.header_values import encoding_of, header_value, nested_schema
from mcp_lab.records.base import fitted

__all__ = [
    "DROPPED",
    "HeaderRow",
    "HeaderTable",
    "ToolHeaders",
    "header_rows",
    "header_table_from_tools",
]

DROPPED = "2026-07-28 clients drop this whole tool"
_DATA_KEYWORDS = frozenset({"default", "examples", "const", "enum"})
"""Instance data, not schema: an `x-mcp-header` key inside them is a value, not a mark."""
_STRING_SAMPLES = ("eu-west", "São Paulo")
"""A value that travels verbatim and one that needs the base64 sentinel."""


def _marks(schema: object, path: tuple[str, ...] | None = ()) -> Iterator[tuple[tuple[str, ...] | None, JsonObject]]:
    """Every schema position carrying `x-mcp-header`, with its `properties` path (None when unreachable)."""
    if isinstance(schema, list):
        for item in schema:
            yield from _marks(item, None)
        return
    if not isinstance(schema, dict):
        return
    if X_MCP_HEADER_KEY in schema:
        yield (path if path else None), schema
    for key, value in schema.items():
        if key in _DATA_KEYWORDS:
            continue
        if key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                yield from _marks(sub, (*path, name) if path is not None else None)
        elif isinstance(value, dict | list):
            yield from _marks(value, None)


@dataclass
class HeaderRow:
    """One marked argument."""

    tool: str
    argument: str
    """Dotted `properties` path ("?" when the mark is not reachable through plain properties)."""
    header: str
    json_type: str
    samples: list[JsonObject] = field(default_factory=list)
    """`{"value", "header_value", "encoding"}` for a few sample values (what a client would send)."""
    valid: bool = True
    reason: str | None = None
    """The SDK's reason when the mark is invalid."""


@dataclass
class ToolHeaders:
    name: str
    rows: list[HeaderRow] = field(default_factory=list)
    dropped: bool = False
    reason: str | None = None
    """find_invalid_x_mcp_header's verdict on the whole schema: why clients drop the tool."""


@dataclass
class HeaderTable:
    """Every tool of a server and its header parameters."""

    server: str
    tools: list[ToolHeaders] = field(default_factory=list)
    kind: str = ""

    @property
    def rows(self) -> list[HeaderRow]:
        return [row for tool in self.tools for row in tool.rows]

    def record(self) -> HeaderTableRecord:
        return HeaderTableRecord(
            server=self.server,
            server_kind=self.kind,
            dropped_note=DROPPED,
            tools=[fitted(ToolHeadersRecord, asdict(t)) for t in self.tools],
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.headers.view import header_table_bundle

        return header_table_bundle(self.record())


def _samples(token: str, json_type: str, prop: Mapping[str, JsonValue]) -> list[JsonObject]:
    default = prop.get("default")
    enum = prop.get("enum")
    if isinstance(enum, list) and enum:
        values: list[JsonValue] = enum[:2]
    elif json_type == "boolean":
        values = [True, False]
    elif json_type == "integer":
        values = [default if isinstance(default, int) and not isinstance(default, bool) else 42]
    elif json_type == "string":
        first = default if isinstance(default, str) else _STRING_SAMPLES[0]
        values = [first, _STRING_SAMPLES[1]] if first != _STRING_SAMPLES[1] else [first]
    else:
        return []
    samples = []
    for value in values:
        spelled = header_value(token, value)
        samples.append({"value": value, "header_value": spelled, "encoding": encoding_of(value, spelled)})
    return samples


def _properties(path: tuple[str, ...], prop: JsonObject) -> Mapping[str, JsonValue]:
    """The `properties` of the schema that holds only `prop` at `path`."""
    found = nested_schema(path, prop).get("properties")
    return found if isinstance(found, Mapping) else {}


def header_rows(tool: str, schema: object) -> ToolHeaders:
    """The header parameters of one tool's input schema, each judged by the SDK."""
    verdict = find_invalid_x_mcp_header(schema)
    result = ToolHeaders(name=tool, dropped=verdict is not None, reason=verdict)
    seen: dict[str, tuple[tuple[str, ...], JsonObject]] = {}
    for path, prop in _marks(schema):
        token = prop.get(X_MCP_HEADER_KEY)
        json_type = prop.get("type") if isinstance(prop.get("type"), str) else ("anyOf" if "anyOf" in prop else "?")
        header = f"{MCP_PARAM_HEADER_PREFIX}{token}" if isinstance(token, str) else f"{MCP_PARAM_HEADER_PREFIX}?"
        row = HeaderRow(tool=tool, argument=".".join(path) if path else "?", header=header, json_type=str(json_type))
        if path is None:
            row.reason = find_invalid_x_mcp_header({"type": "object", "allOf": [prop]})
        else:
            row.reason = find_invalid_x_mcp_header(nested_schema(path, prop))
            if row.reason is None and isinstance(token, str):
                earlier = seen.get(token.lower())
                if earlier is not None:
                    properties = {**_properties(*earlier), **_properties(path, prop)}
                    row.reason = find_invalid_x_mcp_header({"type": "object", "properties": properties}) or verdict
                else:
                    seen[token.lower()] = (path, prop)
        row.valid = row.reason is None
        if row.valid and isinstance(token, str):
            row.samples = _samples(token, row.json_type, prop)
        result.rows.append(row)
    return result


def header_table_from_tools(server: str, tools: Sequence[Mapping[str, JsonValue]], kind: str = "") -> HeaderTable:
    """A `HeaderTable` from raw tool listings (`{"name", "inputSchema"}` dicts, wire form)."""
    table = HeaderTable(server=server, kind=kind)
    for tool in tools:
        table.tools.append(header_rows(str(tool.get("name")), tool.get("inputSchema", tool.get("input_schema"))))
    return table
