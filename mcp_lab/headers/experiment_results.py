"""The results of the header-parameter experiments as plain data (what was sent, what came back).

Spec context: 2026-07-28 header parameters -- the server's -32020 checks, a client that never listed
tools, and a lowlevel server's schema lookups (see `mcp_lab.headers.experiments`, which runs the experiments).
Nothing here performs I/O; the views in `mcp_lab.headers.experiments_view` render these objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from mcp_lab.exchanges.record import HttpExchange
from mcp_lab.headers.record import (
    ListFirstRecord,
    MismatchRecord,
    ProbeRecord,
    ScenarioRecord,
    SchemaLookupRecord,
    SchemaLookupRun,
)
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.records.base import clip_json

__all__ = ["ListFirstExperiment", "MismatchExperiment", "Probe", "Scenario", "SchemaLookupExperiment", "rpc_error"]


def rpc_error(exchange: JsonObject) -> JsonObject | None:
    """The JSON-RPC error in a recorded exchange's response (JSON or an SSE stream), if any."""
    error = HttpExchange.model_validate(exchange).rpc_error
    return error.model_dump() if error is not None else None


@dataclass
class Probe:
    """One raw POST of the mismatch experiment."""

    case: str
    description: str
    status: int | None
    code: int | None
    message: str | None
    exchange: JsonObject = field(repr=False)

    @property
    def accepted(self) -> bool:
        return self.status == 200 and self.code is None

    @property
    def verdict(self) -> str:
        if self.accepted:
            return f"{self.status} accepted"
        code = f" {self.code}" if self.code is not None else ""
        status = self.status if self.status is not None else "no response"
        return f"{status}{code} {self.message or ''}".rstrip()

    @classmethod
    def from_exchange(cls, case: str, description: str, exchange: JsonObject) -> Probe:
        recorded = HttpExchange.model_validate(exchange)
        error = recorded.rpc_error
        return cls(
            case=case,
            description=description,
            status=recorded.response.status if recorded.response is not None else None,
            code=error.code if error is not None else None,
            message=error.message if error is not None else None,
            exchange=exchange,
        )


@dataclass
class MismatchExperiment:
    server: str
    tool: str
    argument: str
    header: str
    arguments: JsonObject
    probes: list[Probe] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def record(self) -> MismatchRecord:
        probes = []
        for probe in self.probes:
            exchange = HttpExchange.model_validate(probe.exchange)
            sent = sorted(
                (h for h in exchange.request.headers if h[0].lower().startswith("mcp-")), key=lambda h: h[0].lower()
            )
            probes.append(
                ProbeRecord(
                    case=probe.case,
                    description=probe.description,
                    status=probe.status,
                    code=probe.code,
                    message=probe.message,
                    accepted=probe.accepted,
                    verdict=probe.verdict,
                    sent_headers=sent,
                    exchange=exchange,
                )
            )
        return MismatchRecord(
            server=self.server,
            tool=self.tool,
            argument=self.argument,
            header=self.header,
            arguments=clip_json(self.arguments),
            probes=probes,
            notes=list(self.notes),
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.headers.experiments_view import mismatch_bundle

        return mismatch_bundle(self.record())


@dataclass
class Scenario:
    """One client's attempt in the list-before-call lab."""

    name: str
    description: str
    exchanges: list[JsonObject] = field(default_factory=list)
    """The call's HTTP exchanges (connection setup is in `connect`)."""
    outcome: str = ""
    connect: list[JsonObject] = field(default_factory=list)
    relisted: bool = False
    """The lab's flow engine marked its leg as re-listed after -32020."""

    @property
    def posts(self) -> int:
        return sum(1 for e in self.exchanges if e.get("method") == "POST")


@dataclass
class ListFirstExperiment:
    server: str
    tool: str
    arguments: JsonObject
    scenarios: list[Scenario] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def scenario(self, name: str) -> Scenario:
        return next(s for s in self.scenarios if s.name == name)

    def record(self) -> ListFirstRecord:
        return ListFirstRecord(
            server=self.server,
            tool=self.tool,
            arguments=clip_json(self.arguments),
            scenarios=[
                ScenarioRecord(
                    name=s.name,
                    description=s.description,
                    posts=s.posts,
                    relisted=s.relisted,
                    outcome=s.outcome,
                    exchanges=[HttpExchange.model_validate(x) for x in s.exchanges],
                    connect=[HttpExchange.model_validate(x) for x in s.connect],
                )
                for s in self.scenarios
            ],
            notes=list(self.notes),
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.headers.experiments_view import list_first_bundle

        return list_first_bundle(self.record())


class LookupRun(TypedDict):
    """One server of the schema-lookup experiment."""

    get_tool_input_schema: bool
    list_calls: int
    tool_calls: int
    on_list_tools: int


@dataclass
class SchemaLookupExperiment:
    calls: int
    tool: str
    runs: list[LookupRun] = field(default_factory=list)
    """One per server: with or without `get_tool_input_schema`, and how often each handler ran."""

    def count(self, with_lookup: bool) -> int:
        return next(r["on_list_tools"] for r in self.runs if r["get_tool_input_schema"] is with_lookup)

    def record(self) -> SchemaLookupRecord:
        return SchemaLookupRecord(
            calls=self.calls, tool=self.tool, runs=[SchemaLookupRun.model_validate(r) for r in self.runs]
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.headers.experiments_view import schema_lookup_bundle

        return schema_lookup_bundle(self.record())
