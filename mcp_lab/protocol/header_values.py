"""How a header parameter's value is spelled, and how one `tools/call`'s headers are judged against its body.

Spec context: 2026-07-28 header parameters. A tool argument whose JSON Schema carries `x-mcp-header: Name`
travels as `Mcp-Param-Name` too: plain when the value is a safe header value, as the `=?base64?...?=`
sentinel otherwise, a boolean as `true`/`false`. A server rejects a call whose header and body disagree
(-32020). Every verdict comes from the SDK's own helpers in `mcp.shared.inbound` (the code the client and
the server run); this module only names them per argument. Pure functions over data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcp.shared.inbound import (
    MCP_PARAM_HEADER_PREFIX,
    decode_header_value,
    find_invalid_x_mcp_header,
    mcp_param_headers,
    validate_mcp_param_headers,
    x_mcp_header_map,
)

from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["encoding_of", "header_text", "header_value", "nested_schema", "other_value", "param_header_usage"]


def encoding_of(value: object, header_value: str | None) -> str:
    """How a body value appears in its header: plain, base64 sentinel, or a JSON boolean word."""
    if header_value is None:
        return "not sent"
    if isinstance(value, bool):
        return "boolean as true/false"
    if header_value.startswith("=?base64?") and header_value.endswith("?="):
        return "base64 sentinel"
    return "plain"


def header_value(token: str, value: object) -> str | None:
    return mcp_param_headers({("value",): token}, {"value": value}).get(f"{MCP_PARAM_HEADER_PREFIX}{token}")


def nested_schema(path: Sequence[str], leaf: JsonValue) -> JsonObject:
    """A schema holding only `leaf` at `path`, so the SDK's checks speak about that one property."""
    node = leaf
    for key in reversed(path):
        node = {"type": "object", "properties": {key: node}}
    return dict(node) if isinstance(node, Mapping) else {}


def _value_at(arguments: Mapping[str, JsonValue], path: Sequence[str]) -> JsonValue:
    node: JsonValue = arguments
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _leaf(schema: Mapping[str, JsonValue], path: Sequence[str]) -> JsonValue:
    node: JsonValue = schema
    for key in path:
        properties = node.get("properties") if isinstance(node, Mapping) else None
        node = properties.get(key) if isinstance(properties, Mapping) else None
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
    usage: list[JsonObject] = []
    for path, token in x_mcp_header_map(schema).items():
        name = f"{MCP_PARAM_HEADER_PREFIX}{token}"
        raw = folded.get(name.lower())
        value = _value_at(arguments, path)
        expected = mcp_param_headers({path: token}, arguments).get(name)
        rejection = validate_mcp_param_headers(nested_schema(path, _leaf(schema, path)), arguments, sent)
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


def other_value(value: object) -> JsonValue:
    """A value of the same JSON type that differs from `value` (what a header that disagrees carries)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return f"{value}-other"


def header_text(value: object) -> str:
    """`value` as a plain header parameter spells it (JSON booleans lower-case)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
