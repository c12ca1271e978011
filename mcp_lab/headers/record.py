"""Header-parameter records: a server's header table and the three header experiments' results.

Spec context: 2026-07-28 header parameters. A tool argument marked `x-mcp-header: Name` travels in an
`Mcp-Param-Name` header on every `tools/call`; only string, integer and boolean properties may carry the
mark, and a tool whose schema breaks a rule is dropped whole by 2026-07-28 clients. The experiments show what the
server answers to raw POSTs (match, mismatch, missing ...: HTTP 400 / -32020), what a client that never
listed tools goes through, and how often a lowlevel server runs its list handler to find a schema.
"""

from __future__ import annotations

from typing import Any, Literal

from mcp_lab.exchanges.record import Header, HttpExchange
from mcp_lab.records.base import Model, Record

__all__ = [
    "HeaderRowRecord",
    "HeaderSample",
    "HeaderTableRecord",
    "ListFirstRecord",
    "MismatchRecord",
    "ProbeRecord",
    "ScenarioRecord",
    "SchemaLookupRecord",
    "SchemaLookupRun",
    "ToolHeadersRecord",
]


class HeaderSample(Model):
    value: Any = None
    header_value: str | None = None
    encoding: str


class HeaderRowRecord(Model):
    """One marked argument: its header, JSON type, how sample values travel, or why the mark is invalid."""

    tool: str
    argument: str
    header: str
    json_type: str
    samples: list[HeaderSample] = []
    valid: bool = True
    reason: str | None = None


class ToolHeadersRecord(Model):
    name: str
    rows: list[HeaderRowRecord] = []
    dropped: bool = False
    reason: str | None = None


class HeaderTableRecord(Record):
    kind: Literal["headers"] = "headers"
    version: Literal[1] = 1
    server: str
    server_kind: str = ""
    dropped_note: str
    """What happens to a tool with an invalid mark."""
    tools: list[ToolHeadersRecord] = []


class ProbeRecord(Model):
    """One raw POST of the mismatch experiment and the server's verdict."""

    case: str
    description: str
    status: int | None = None
    code: int | None = None
    message: str | None = None
    accepted: bool
    verdict: str
    """`200 accepted` or `400 -32020 <message>`."""
    sent_headers: list[Header] = []
    """The `Mcp-*` headers sent, sorted by name."""
    exchange: HttpExchange


class MismatchRecord(Record):
    kind: Literal["header-mismatch"] = "header-mismatch"
    version: Literal[1] = 1
    server: str
    tool: str
    argument: str
    header: str
    arguments: dict[str, Any] = {}
    probes: list[ProbeRecord] = []
    notes: list[str] = []


class ScenarioRecord(Model):
    """One client's attempt in the list-before-call lab."""

    name: str
    description: str
    posts: int
    relisted: bool = False
    outcome: str = ""
    exchanges: list[HttpExchange] = []
    connect: list[HttpExchange] = []
    """Connection setup, kept apart from the call."""


class ListFirstRecord(Record):
    kind: Literal["list-first"] = "list-first"
    version: Literal[1] = 1
    server: str
    tool: str
    arguments: dict[str, Any] = {}
    scenarios: list[ScenarioRecord] = []
    notes: list[str] = []


class SchemaLookupRun(Model):
    get_tool_input_schema: bool
    list_calls: int
    tool_calls: int
    on_list_tools: int


class SchemaLookupRecord(Record):
    kind: Literal["schema-lookups"] = "schema-lookups"
    version: Literal[1] = 1
    calls: int
    tool: str
    runs: list[SchemaLookupRun] = []
