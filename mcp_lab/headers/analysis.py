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
from typing import Any

from mcp.shared.inbound import (
    MCP_PARAM_HEADER_PREFIX,
    X_MCP_HEADER_KEY,
    decode_header_value,
    find_invalid_x_mcp_header,
    mcp_param_headers,
    validate_mcp_param_headers,
    x_mcp_header_map,
)

from mcp_lab.bounded_json import JsonObject, JsonValue
from mcp_lab.headers.record import HeaderTableRecord, ToolHeadersRecord
from mcp_lab.markup import MimeBundle
from mcp_lab.records.base import fitted

__all__ = [
    "DROPPED",
    "HeaderRow",
    "HeaderTable",
    "ToolHeaders",
    "encoding_of",
    "header_rows",
    "header_table_from_tools",
    "header_text",
    "other_value",
    "param_header_usage",
]

DROPPED = "2026-07-28 clients drop this whole tool"
_DATA_KEYWORDS = frozenset({"default", "examples", "const", "enum"})
"""Instance data, not schema: an `x-mcp-header` key inside them is a value, not a mark."""
_STRING_SAMPLES = ("eu-west", "São Paulo")
"""A value that travels verbatim and one that needs the base64 sentinel."""


def encoding_of(value: object, header_value: str | None) -> str:
    """How a body value appears in its header: plain, base64 sentinel, or a JSON boolean word."""
    if header_value is None:
        return "not sent"
    if isinstance(value, bool):
        return "boolean as true/false"
    if header_value.startswith("=?base64?") and header_value.endswith("?="):
        return "base64 sentinel"
    return "plain"


def _header_value(token: str, value: object) -> str | None:
    return mcp_param_headers({("value",): token}, {"value": value}).get(f"{MCP_PARAM_HEADER_PREFIX}{token}")


def _nest(path: Sequence[str], leaf: object) -> JsonObject:
    """A schema holding only `leaf` at `path`, so the SDK's checks speak about that one property."""
    node: Any = leaf
    for key in reversed(path):
        node = {"type": "object", "properties": {key: node}}
    return dict(node)


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
        values: list[Any] = enum[:2]
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
        header_value = _header_value(token, value)
        samples.append({"value": value, "header_value": header_value, "encoding": encoding_of(value, header_value)})
    return samples


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
            row.reason = find_invalid_x_mcp_header(_nest(path, prop))
            if row.reason is None and isinstance(token, str):
                earlier = seen.get(token.lower())
                if earlier is not None:
                    first, second = _nest(earlier[0], earlier[1])["properties"], _nest(path, prop)["properties"]
                    properties: JsonObject = {}
                    for part in (first, second):
                        if isinstance(part, Mapping):
                            properties.update(part)
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


def _value_at(arguments: Mapping[str, JsonValue], path: Sequence[str]) -> Any:
    node: object = arguments
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _leaf(schema: Mapping[str, JsonValue], path: Sequence[str]) -> Any:
    node: object = schema
    for key in path:
        node = (node.get("properties") or {}).get(key) if isinstance(node, Mapping) else None
    return node


def _verdict(message: str | None, raw: str | None, value: object) -> str:
    if message is None:
        return "absent" if raw is None and value is None else "ok"
    for needle, verdict in (
        ("is missing", "missing"),
        ("is present but", "unexpected"),
        ("malformed", "malformed"),
        ("more than once", "duplicate"),
    ):
        if needle in message:
            return verdict
    return "mismatch"


def param_header_usage(
    schema: object, arguments: Mapping[str, JsonValue], headers: Sequence[tuple[str, str]] | Sequence[list[str]]
) -> list[JsonObject]:
    """For one `tools/call`: each marked argument, the header it should travel in, and what was sent.

    `verdict` is `ok`, `absent` (no value, no header: fine), `missing`, `mismatch`, `unexpected`,
    `malformed` or `duplicate`; `reason` is the server's -32020 message for the bad ones.
    An invalid schema yields nothing: clients drop such a tool and servers validate nothing for it.
    """
    if not isinstance(schema, dict) or find_invalid_x_mcp_header(schema) is not None:
        return []
    sent = {str(k): str(v) for k, v in headers}
    folded = {k.lower(): v for k, v in sent.items()}
    usage = []
    for path, token in x_mcp_header_map(schema).items():
        name = f"{MCP_PARAM_HEADER_PREFIX}{token}"
        raw = folded.get(name.lower())
        value = _value_at(arguments, path)
        expected = mcp_param_headers({path: token}, arguments).get(name)
        rejection = validate_mcp_param_headers(_nest(path, _leaf(schema, path)), arguments, sent)
        message = rejection.message if rejection is not None else None
        usage.append(
            {
                "argument": ".".join(path),
                "header": name,
                "value": value,
                "sent": raw,
                "decoded": decode_header_value(raw),
                "expected": expected,
                "encoding": encoding_of(value, raw if raw is not None else expected),
                "verdict": _verdict(message, raw, value),
                "reason": message,
            }
        )
    return usage


def other_value(value: object) -> Any:
    """A value of the same JSON type that differs from `value` (what a header that disagrees carries)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return f"{value}-other"


def header_text(value: object) -> str:
    """`value` as a plain header parameter spells it (JSON booleans lower-case)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
