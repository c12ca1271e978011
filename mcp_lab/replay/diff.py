"""What a replay compares, and how each difference is named: by its JSON path.

Spec context: a multi round-trip request changes behaviour through any part of what the server sends --
every parameter of every embedded input request (elicitation message and requested schema, URL-mode `url`,
sampling messages, system prompt, max tokens, model preferences, a roots request asked or not), the result
(`content`, `structuredContent`, `isError`) or error, and, for a tool, its input schema and the header map
derived from its `x-mcp-header` marks (which arguments a 2026-07-28 client mirrors into `Mcp-Param-*`
headers). All of it is compared except `_meta` (protocol bookkeeping: server info, versions) and the value
of a URL-mode `elicitationId` (an opaque id the server may draw at random; its presence is still compared).

Paths start at the flow (`$.rounds[0].inputRequests['key'].params.systemPrompt`, `$.result.structuredContent`)
or at the called tool in the collection's tool listing (`$.tools['forecast'].inputSchema...`), so a CI log
says exactly which field moved.

Resolver keys are `module:qualname`. A recording made in-process (`pkg.server:ask_size`) and the same code
run as a script (`__main__:ask_size`) ask the same question: keys match by their qualname when only the
module part differs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from mcp.shared.inbound import x_mcp_header_map

from mcp_lab.json_types import JsonValue

__all__ = [
    "Difference",
    "header_map",
    "json_differences",
    "key_path",
    "match_keys",
    "renamed_key",
    "request_differences",
    "show",
    "strip_meta",
    "tool_differences",
]

DifferenceKind = Literal["question", "rounds", "outcome", "result", "error", "unrecorded", "failed", "tool"]
ABSENT = "(absent)"
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SHOWN = 80
"""Characters of a value shown in a difference's message (the full values are in `recorded`/`replayed`)."""
_OPAQUE = {"elicitationId"}
"""Fields whose value is the server's own opaque id: compared for presence only."""


@dataclass
class Difference:
    """One way the replay differs from the recording."""

    kind: DifferenceKind
    where: str
    """The JSON path of what differs (`$.rounds[1].inputRequests['q2']`, `$.result.structuredContent.high`)."""
    message: str
    """One line, stable (no times, no tokens), starting with the path."""
    recorded: object = None
    replayed: object = None


class _Absent:
    """A value missing on one side (distinct from JSON null)."""

    def __repr__(self) -> str:
        return ABSENT


_MISSING = _Absent()


def key_path(base: str, key: str | int) -> str:
    """`base.key` for identifier keys, `base['key']` otherwise, `base[3]` for list positions."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if _IDENTIFIER.match(key) else f"{base}[{key!r}]"


def show(value: object) -> str:
    """A value as one short line: strings quoted, the rest as JSON, long ones cut with an ellipsis."""
    if isinstance(value, _Absent):
        return ABSENT
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def strip_meta(value: object) -> object:
    """`value` without any `_meta` member, at any depth; opaque ids reduced to their presence."""
    if isinstance(value, dict):
        return {k: ("<id>" if k in _OPAQUE else strip_meta(v)) for k, v in value.items() if k != "_meta"}
    if isinstance(value, list):
        return [strip_meta(v) for v in value]
    return value


def json_differences(recorded: object, replayed: object, path: str) -> list[tuple[str, object, object]]:
    """Every leaf where two JSON values differ, as (path, recorded, replayed); a missing member is `(absent)`."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        found: list[tuple[str, object, object]] = []
        for key in [*recorded, *(k for k in replayed if k not in recorded)]:
            a, b = recorded.get(key, _MISSING), replayed.get(key, _MISSING)
            found += json_differences(a, b, key_path(path, str(key)))
        return found
    if isinstance(recorded, list) and isinstance(replayed, list):
        found = []
        for index in range(max(len(recorded), len(replayed))):
            a = recorded[index] if index < len(recorded) else _MISSING
            b = replayed[index] if index < len(replayed) else _MISSING
            found += json_differences(a, b, key_path(path, index))
        return found
    if type(recorded) is not type(replayed) or recorded != replayed:  # 1 and True differ in JSON
        return [(path, recorded, replayed)]
    return []


def differences(kind: DifferenceKind, recorded: object, replayed: object, path: str) -> list[Difference]:
    """`json_differences` as `Difference`s of one kind, each message `path: recorded -> replayed`."""
    return [
        Difference(kind, where, f"{where}: {show(a)} -> {show(b)}", _plain(a), _plain(b))
        for where, a, b in json_differences(recorded, replayed, path)
    ]


def _plain(value: object) -> object:
    return None if isinstance(value, _Absent) else value


# ---- input requests ---------------------------------------------------------------------------------------
KINDS = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}


def question_kind(request: Mapping[str, JsonValue]) -> str:
    return KINDS.get(str(request.get("method", "")), str(request.get("method", "?")))


def describe(request: Mapping[str, JsonValue]) -> str:
    """`elicitation 'Which region?'`, `sampling`, `roots`: what a person recognises a question by."""
    params = request.get("params")
    message = params.get("message") if isinstance(params, Mapping) else None
    return question_kind(request) + (f" {show(message)}" if message else "")


def request_differences(recorded: Mapping[str, JsonValue], replayed: Mapping[str, JsonValue], path: str) -> list[Difference]:
    """Differences between two wire input requests: another kind is one line, else every parameter."""
    if question_kind(recorded) != question_kind(replayed):
        message = f"{path}: {question_kind(recorded)} -> {question_kind(replayed)}"
        return [Difference("question", path, message, dict(recorded), dict(replayed))]
    return differences("question", strip_meta(dict(recorded)), strip_meta(dict(replayed)), path)


# ---- resolver keys ----------------------------------------------------------------------------------------
def _module_and_name(key: str) -> tuple[str, str] | None:
    module, sep, name = key.rpartition(":")
    return (module, name) if sep and module and name else None


def renamed_key(key: str, candidates: Iterable[str]) -> str | None:
    """The one candidate naming the same resolver as `key` from another module (`pkg.mod:f` vs `__main__:f`)."""
    parts = _module_and_name(key)
    if parts is None:
        return None
    found = [c for c in candidates if c != key and (other := _module_and_name(c)) and other[1] == parts[1]]
    return found[0] if len(found) == 1 else None


def match_keys(recorded: Iterable[str], replayed: Iterable[str]) -> dict[str, str]:
    """Replayed key -> recorded key: the same key, or the same resolver run from another module."""
    recorded, replayed = list(recorded), list(replayed)
    matched = {key: key for key in replayed if key in recorded}
    spare_recorded = [k for k in recorded if k not in matched.values()]
    spare_replayed = [k for k in replayed if k not in matched]
    for key in spare_replayed:
        other = renamed_key(key, spare_recorded)
        if other is not None and renamed_key(other, spare_replayed) == key:
            matched[key] = other
    return matched


# ---- tools ------------------------------------------------------------------------------------------------
def header_map(schema: object) -> dict[str, str]:
    """Argument path (dotted) -> header name, as a 2026-07-28 client mirrors it (`{"region": "Region"}`)."""
    if not isinstance(schema, Mapping):
        return {}
    try:
        found = x_mcp_header_map(dict(schema))
    except (TypeError, ValueError, AttributeError):  # an invalid mark: the client sends no header for it
        return {}
    return {".".join(path): name for path, name in found.items()}


def _headers(tool: Mapping[str, JsonValue]) -> Mapping[str, JsonValue]:
    """A tool entry's `headers` (argument -> header name); empty where the entry has none."""
    headers = tool.get("headers")
    return headers if isinstance(headers, Mapping) else {}


def _travels_as(header: JsonValue) -> str:
    return "no header" if header is None else f"Mcp-Param-{header}"


def tool_differences(
    name: str, recorded: Mapping[str, JsonValue], replayed: Mapping[str, JsonValue] | None
) -> list[Difference]:
    """A called tool's input schema and header map, recorded vs. now listed (`None`: no longer listed)."""
    path = key_path("$.tools", name)
    if replayed is None:
        return [Difference("tool", path, f"{path}: no longer listed by the server", dict(recorded), None)]
    found: list[Difference] = []
    headers_a, headers_b = _headers(recorded), _headers(replayed)
    for argument in [*headers_a, *(a for a in headers_b if a not in headers_a)]:
        a, b = headers_a.get(argument), headers_b.get(argument)
        if a == b:
            continue
        where = key_path(key_path(path, "headers"), argument)
        what = f"{_travels_as(a)} -> {_travels_as(b)}"
        found.append(Difference("tool", where, f"{where}: argument {argument!r} travels as {what}", a, b))
    schema_path = key_path(path, "inputSchema")
    found += differences("tool", recorded.get("inputSchema"), replayed.get("inputSchema"), schema_path)
    return found
