"""Replay a saved collection against a server and report, per flow, what changed.

Spec context: a multi round-trip request is a conversation -- the server asks (`input_requests`, keyed), the
client answers under the same keys, and a result arrives. Replaying re-sends each recorded request and answers
every question from the recording, by input-request key (on the 2025-11-25 back channel, which names no
question, in order; a resolver's key also by its name when only its module differs, as between a notebook
and the same code run with `python -m`). It never guesses: a question the recording does not hold stops
the flow there with a "not in the recording" difference. The report compares everything that makes the
behaviour (`replay_diff`: every parameter of every question, the number of rounds, the whole result or
error, the called tool's input schema and header map) and names each difference by its JSON path.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import mcp.types as T

import mcp_lab.view_registry as view_registry
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Connection, Flow
from mcp_lab.given import check_path, shown
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.eras import LEGACY, MODERN
from mcp_lab.protocol.limits import check_timeout
from mcp_lab.protocol.results import result_texts
from mcp_lab.records.base import fitted
from mcp_lab.replay.answers import RecordedAnswers
from mcp_lab.replay.collection import Collection, ToolListing, called_tools, flow_label, load_collection, tool_entry
from mcp_lab.replay.diff import (
    Difference,
    describe,
    differences,
    key_path,
    match_keys,
    request_differences,
    strip_meta,
    tool_differences,
)
from mcp_lab.replay.record import ReplayEntryRecord, ReplayRecord

__all__ = [
    "Difference",
    "ReplayEntry",
    "ReplayReport",
    "compare_flows",
    "compare_tool",
    "listed_tools",
    "replay",
    "replay_flow",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds each replayed flow may take: a replay in CI must end."""

Status = Literal["same", "different", "stopped", "failed"]
Ending = tuple[Literal["result", "error", "unfinished"], object]
"""How a flow ended: its result (without _meta), its error's code and message, or its status."""


@dataclass
class ReplayEntry:
    """One flow of the collection: what was replayed and how it compares."""

    label: str
    server: str
    status: Status
    recorded_rounds: int
    replayed_rounds: int
    differences: list[Difference] = field(default_factory=list)
    replayed: Flow | None = field(default=None, repr=False, compare=False)
    """The replayed flow itself (not part of the plain data: it holds fresh tokens)."""

    def to_dict(self) -> JsonObject:
        return {
            "label": self.label,
            "server": self.server,
            "status": self.status,
            "recorded_rounds": self.recorded_rounds,
            "replayed_rounds": self.replayed_rounds,
            "differences": [d.__dict__ for d in self.differences],
        }


def headline(entries: Sequence[ReplayEntry | ReplayEntryRecord], server: str | None) -> str:
    where = f"against {server!r}" if server else "against the recorded servers"
    counts = {s: sum(1 for x in entries if x.status == s) for s in ("different", "stopped", "failed")}
    tally = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no differences"
    return f"replay {where}: {len(entries)} flow(s), {tally}"


@dataclass
class ReplayReport:
    """Every flow's entry; `ok` when nothing differs."""

    entries: list[ReplayEntry]
    server: str | None = None
    """The server replayed against, or None for each flow's recorded server."""
    source: str | None = None

    @property
    def ok(self) -> bool:
        return all(e.status == "same" for e in self.entries)

    @property
    def differences(self) -> list[Difference]:
        return [d for e in self.entries for d in e.differences]

    def record(self) -> ReplayRecord:
        return fitted(  # a recorded argument of any length: clipped where the record allows, still a str elsewhere
            ReplayRecord,
            {
                "server": self.server,
                "source": self.source,
                "ok": self.ok,
                "headline": headline(self.entries, self.server),
                "entries": [e.to_dict() for e in self.entries],
            },
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def text(self) -> str:
        return view_registry.text(self, "text")

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        return view_registry.bundle(self)


def _result_text(result: Mapping[str, object]) -> str:
    texts = result_texts(result)
    shown = " | ".join(repr(t) for t in texts if t) or json.dumps(result, sort_keys=True)[:200]
    return shown + (" (isError)" if result.get("isError") else "")


def _ending(flow: Flow) -> Ending:
    last = flow.last
    if flow.done and last is not None and last.outcome == "result" and last.result is not None:  # isError too
        return "result", strip_meta(last.result)
    if flow.status == "error" and last is not None and last.error is not None:
        return "error", {"code": last.error.get("code"), "message": last.error.get("message")}
    return "unfinished", flow.status


def _describe_ending(ending: Ending) -> str:
    kind, value = ending
    if kind == "result" and isinstance(value, Mapping):
        return f"result {_result_text(value)}"
    if kind == "error" and isinstance(value, Mapping):
        code = f"{value['code']} " if value.get("code") is not None else ""
        return f"error {code}{value.get('message')!r}"
    return f"{kind} ({value})"


def _asked(kind: Literal["question", "unrecorded"], path: str, request: Mapping[str, JsonValue], what: str) -> Difference:
    question = strip_meta(request)
    recorded, replayed = (question, None) if what == "no longer asked" else (None, question)
    return Difference(kind, path, f"{path} ({describe(request)}): {what}", recorded, replayed)


def _questions(recorded: Flow, replayed: Flow, new_keys: set[tuple[int | None, str]]) -> list[Difference]:
    diffs: list[Difference] = []
    for index, (a, b) in enumerate(zip(recorded.rounds, replayed.rounds, strict=False)):
        asked_a, asked_b = a.input_requests or {}, b.input_requests or {}
        base = f"$.rounds[{index}].inputRequests"
        recorded_key = match_keys(asked_a, asked_b)  # replayed key -> recorded key
        replayed_key = {v: k for k, v in recorded_key.items()}
        for key, request in asked_a.items():
            path = key_path(base, key)
            if key in replayed_key:
                diffs += request_differences(request, asked_b[replayed_key[key]], path)
            else:
                diffs.append(_asked("question", path, request, "no longer asked"))
        for key, request in asked_b.items():
            if key not in recorded_key and (index, key) not in new_keys:
                diffs.append(_asked("question", key_path(base, key), request, "newly asked"))
    return diffs


def _channel(flow: Flow) -> list[tuple[str, JsonObject]]:
    """The back-channel requests of a 2025-11-25 flow in order, each with its path."""
    return [
        (f"$.rounds[{i}].backchannel[{j}].request", entry["request"])
        for i, rnd in enumerate(flow.rounds)
        for j, entry in enumerate(rnd.backchannel)
    ]


def compare_flows(recorded: Flow, replayed: Flow, answers: RecordedAnswers | None = None) -> list[Difference]:
    """The differences between a recording and its replay (empty when they match), each named by its path."""
    unrecorded = answers.unrecorded if answers is not None else []
    diffs = _questions(recorded, replayed, {(u.get("round"), u["key"]) for u in unrecorded})
    channel_a, channel_b = _channel(recorded), _channel(replayed)
    for (path, qa), (_, qb) in zip(channel_a, channel_b, strict=False):
        diffs += request_differences(qa, qb, path)
    for path, request in channel_a[len(channel_b) :]:
        diffs.append(_asked("question", path, request, "no longer asked"))
    for item in unrecorded:
        if "position" in item:
            position = item["position"]
            path = channel_b[position][0] if position < len(channel_b) else f"$.backchannel[{position}]"
            what = "not in the recording; the lab refused it"
        else:
            path = key_path(f"$.rounds[{item['round']}].inputRequests", item["key"])
            again = "asked more often than in the recording" if item["asked_before"] else "not in the recording"
            what = f"{again}; replay stopped here"
        diffs.append(_asked("unrecorded", path, item["request"], what))
    if unrecorded and replayed.status == "input_required":
        return diffs  # rounds and result would only restate where the replay stopped
    n_a, n_b = len(recorded.rounds), len(replayed.rounds)
    if n_a != n_b:
        diffs.append(Difference("rounds", "$.rounds", f"$.rounds: {n_a} round(s) -> {n_b}", n_a, n_b))
    a_end, b_end = _ending(recorded), _ending(replayed)
    if a_end[0] == b_end[0] == "result":
        diffs += differences("result", a_end[1], b_end[1], "$.result")
    elif a_end[0] == b_end[0] == "error":
        diffs += differences("error", a_end[1], b_end[1], "$.error")
    elif a_end != b_end:
        text = f"$.status: {_describe_ending(a_end)} -> {_describe_ending(b_end)}"
        diffs.append(Difference("outcome", "$.status", text, a_end[1], b_end[1]))
    if replayed.stop_reason and replayed.status == "stopped" and recorded.status != "stopped":
        diffs.append(Difference("outcome", "$.stop_reason", f"$.stop_reason: {replayed.stop_reason}"))
    return diffs


async def listed_tools(connection: Connection) -> dict[str, JsonObject]:
    """The connection's tools now, each as `{inputSchema, headers}` (what a collection records)."""
    session = await connection.session(MODERN)
    tools: dict[str, JsonObject] = {}
    cursor: str | None = None
    for _ in range(100):
        page = await session.list_tools(params=T.PaginatedRequestParams(cursor=cursor) if cursor else None)
        tools.update({t.name: tool_entry(dict(t.input_schema)) for t in page.tools})
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


async def compare_tool(recorded: Flow, entry: Mapping[str, JsonValue], connection: Connection) -> list[Difference]:
    """The called tool's input schema and header map, as recorded vs. as the server lists it now."""
    try:
        now = await listed_tools(connection)
    except Exception as exc:  # a server that cannot list: one line, and the flow's own comparison stands
        text = str(exc) if isinstance(exc, LabError) else f"{type(exc).__name__}: {exc}"
        path = key_path("$.tools", recorded.target)
        return [Difference("tool", path, f"{path}: cannot list the tools of {connection.name!r}: {text}")]
    return tool_differences(recorded.target, entry, now.get(recorded.target))


def _connection(server: str | Connection | None, recorded: Flow) -> Connection:
    from mcp_lab.servers.sandbox import sandbox

    if server is None or isinstance(server, str):
        return sandbox.get(recorded.server if server is None else server)
    return server


async def replay_flow(
    recorded: Flow,
    *,
    server: str | Connection | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool: Mapping[str, JsonValue] | None = None,
) -> ReplayEntry:
    """Replay one recorded flow (answers from the recording only) and compare.

    `tool` is the called tool's recorded `{inputSchema, headers}` (a collection's `tools` entry): when given,
    the server's listing now is compared with it too.
    """
    label = flow_label(recorded)
    try:
        connection = _connection(server, recorded)
    except LabError as exc:
        return ReplayEntry(
            label,
            recorded.server if server is None else str(getattr(server, "name", server)),
            "failed",
            len(recorded.rounds),
            0,
            [Difference("failed", "server", str(exc))],
        )
    legacy = recorded.era == LEGACY or bool(getattr(connection, "legacy_only", False))
    flow = Flow(
        server=connection.name,
        method=recorded.method,
        target=recorded.target,
        arguments=dict(recorded.arguments),
        era=LEGACY if legacy else MODERN,
        max_rounds=recorded.max_rounds,
    )
    answers = RecordedAnswers(recorded)
    flow.bind(connection, answers)
    entry = ReplayEntry(label, connection.name, "same", len(recorded.rounds), 0, replayed=flow)
    try:
        await flow.run(timeout=timeout)
    except Exception as exc:  # a connection that fails mid-replay is this flow's failure, not the report's
        message = str(exc) if isinstance(exc, LabError) else f"{type(exc).__name__}: {exc}"
        entry.status, entry.differences = "failed", [Difference("failed", "replay", message.splitlines()[0])]
        entry.replayed_rounds = len(flow.rounds)
        return entry
    entry.replayed_rounds = len(flow.rounds)
    entry.differences = compare_flows(recorded, flow, answers)
    if tool is not None and recorded.method == "tools/call":
        entry.differences += await compare_tool(recorded, tool, connection)
    stopped = any(d.kind == "unrecorded" for d in entry.differences) and flow.status == "input_required"
    entry.status = "stopped" if stopped else ("different" if entry.differences else "same")
    return entry


def _collection(collection: str | Path | Flow | Collection | Iterable[Flow]) -> Collection:
    if isinstance(collection, str | os.PathLike | bytes):
        return load_collection(check_path(collection, "replay"))
    if isinstance(collection, Collection):
        return collection
    if not isinstance(collection, Flow | Iterable) or isinstance(collection, Mapping):
        raise LabError(f"replay takes a collection path or a list of flows, not {shown(collection)}")
    items: list[object] = [collection] if isinstance(collection, Flow) else list(collection)
    flows = [f for f in items if isinstance(f, Flow)]
    if len(flows) != len(items):
        raise LabError("replay takes a collection path or a list of flows (each from mcp_lab.call, %mcp_call, ...)")
    return Collection(flows, called_tools(flows))  # recorded here: the tools as the lab listed them


async def replay(
    collection: str | Path | Flow | Collection | Iterable[Flow],
    *,
    server: str | Connection | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> ReplayReport:
    """Replay every flow of a collection (a path written by `save_flows`, or flows) and report the differences.

    `server` replays against another server (a sandbox name or a connection); by default each flow goes to the
    server it was recorded against, by name. Flows given in memory are compared with the tools as the lab
    last listed them on their recorded server.
    """
    if server is not None and not isinstance(server, str) and not callable(getattr(server, "session", None)):
        raise LabError(f"server= is a server's name (str) or a connection, not {shown(server)}")
    timeout = check_timeout(timeout)
    loaded = _collection(collection)
    source = str(collection) if isinstance(collection, str | os.PathLike) else loaded.source
    tools: ToolListing = loaded.tools
    entries = [
        await replay_flow(f, server=server, timeout=timeout, tool=tools.get(f.server, {}).get(f.target))
        for f in loaded.flows
    ]
    label = server if isinstance(server, str) else getattr(server, "name", None)
    return ReplayReport(entries=entries, server=label, source=source)
