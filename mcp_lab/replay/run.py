"""Replay a saved collection against a server and report, per flow, what changed.

Spec context: a multi round-trip request is a conversation -- the server asks (`input_requests`, keyed), the
client answers under the same keys, and a result arrives. Replaying re-sends each recorded request and answers
every question from the recording, by input-request key (on the 2025-11-25 back channel, which names no
question, in order). It never guesses: a question the recording does not hold stops the flow there with a
"not in the recording" difference. The report compares what a regression test cares about: the same
questions asked (kind, message, requested schema), the same number of rounds, the same result or error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import mcp.types as T

from mcp_lab.errors import LabError
from mcp_lab.flow.answers import AnswerContext, InputResponse, Unanswered, request_kind
from mcp_lab.flow.flow import LEGACY, MODERN, Connection, Flow
from mcp_lab.flow.legs import parse_response, wire
from mcp_lab.records.base import clip_json
from mcp_lab.replay.collection import load_flows
from mcp_lab.replay.record import ReplayRecord

__all__ = ["Difference", "RecordedAnswers", "ReplayEntry", "ReplayReport", "compare_flows", "replay", "replay_flow"]

DEFAULT_TIMEOUT = 60.0
"""Seconds each replayed flow may take: a replay in CI must end."""

Status = Literal["same", "different", "stopped", "failed"]


@dataclass
class Difference:
    """One way the replay differs from the recording."""

    kind: Literal["question", "rounds", "outcome", "result", "error", "unrecorded", "failed"]
    where: str
    message: str
    """One line, stable (no times, no tokens)."""
    recorded: Any = None
    replayed: Any = None


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "server": self.server,
            "status": self.status,
            "recorded_rounds": self.recorded_rounds,
            "replayed_rounds": self.replayed_rounds,
            "differences": [d.__dict__ for d in self.differences],
        }


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
        from mcp_lab.replay.view import headline

        return ReplayRecord.model_validate(
            {
                "server": self.server,
                "source": self.source,
                "ok": self.ok,
                "headline": headline(self.entries, self.server),
                "entries": [clip_json(e.to_dict()) for e in self.entries],
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return self.record().dump()

    def text(self) -> str:
        from mcp_lab.replay.view import replay_text

        return replay_text(self.record())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from mcp_lab.replay.view import replay_bundle

        return replay_bundle(self.record())


class RecordedAnswers:
    """Answers each question with the answer the recording gave under the same key; never guesses."""

    label = "recording"

    def __init__(self, recorded: Flow) -> None:
        self.by_key: dict[str, list[dict[str, Any]]] = {}
        self.asked: set[str] = set()
        for rnd in recorded.rounds:
            for key, response in (rnd.sent_input_responses or {}).items():
                self.by_key.setdefault(key, []).append(response)
            self.asked.update((rnd.input_requests or {}).keys())
        self.backchannel = [e for rnd in recorded.rounds for e in rnd.backchannel if "response" in e]
        self.unrecorded: list[dict[str, Any]] = []
        """Questions the recording cannot answer: {key, request, asked_before, position}."""
        self._backchannel_position = 0

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        if context.backchannel:
            position = self._backchannel_position
            self._backchannel_position += 1
            if position < len(self.backchannel) and self.backchannel[position]["kind"] == request_kind(request):
                return parse_response(self.backchannel[position]["response"])
            self.unrecorded.append({"key": key, "request": wire(request), "asked_before": False, "position": position})
            raise Unanswered(key)
        queue = self.by_key.get(key)
        if not queue:
            self.unrecorded.append(
                {"key": key, "request": wire(request), "asked_before": key in self.asked, "round": context.round_index}
            )
            raise Unanswered(key)
        return parse_response(queue.pop(0))


def flow_label(flow: Flow) -> str:
    args = f" {json.dumps(flow.arguments, ensure_ascii=False, sort_keys=True)}" if flow.arguments else ""
    return f"{flow.method} {flow.target}{args}"


def _question(request: dict[str, Any]) -> dict[str, Any]:
    params = request.get("params") or {}
    kind = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling"}.get(
        request.get("method", ""), "roots"
    )
    return {"kind": kind, "message": params.get("message"), "schema": params.get("requestedSchema")}


def _describe(question: dict[str, Any]) -> str:
    message = f" {question['message']!r}" if question.get("message") else ""
    return f"{question['kind']}{message}"


def _compare_question(where: str, a: dict[str, Any], b: dict[str, Any]) -> list[Difference]:
    diffs: list[Difference] = []
    if a["kind"] != b["kind"]:
        diffs.append(Difference("question", where, f"{where}: {a['kind']} -> {b['kind']}", a, b))
    elif a["message"] != b["message"]:
        diffs.append(Difference("question", where, f"{where}: message {a['message']!r} -> {b['message']!r}", a, b))
    if a["kind"] == b["kind"] and a["schema"] != b["schema"]:
        diffs.append(Difference("question", where, f"{where}: requested schema changed", a["schema"], b["schema"]))
    return diffs


def _strip_meta(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_meta(v) for k, v in value.items() if k != "_meta"}
    if isinstance(value, list):
        return [_strip_meta(v) for v in value]
    return value


def _result_text(result: dict[str, Any]) -> str:
    texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict) and c.get("type") == "text"]
    texts += [m.get("content", {}).get("text", "") for m in result.get("messages", []) if isinstance(m, dict)]
    texts += [c.get("text", "") for c in result.get("contents", []) if isinstance(c, dict) and "text" in c]
    shown = " | ".join(repr(t) for t in texts if t) or json.dumps(_strip_meta(result), sort_keys=True)[:200]
    return shown + (" (isError)" if result.get("isError") else "")


def _ending(flow: Flow) -> tuple[str, Any]:
    last = flow.last
    if flow.done and last is not None and last.outcome == "result" and last.result is not None:  # isError too
        return "result", _strip_meta(last.result)
    if flow.status == "error" and last is not None and last.error is not None:
        return "error", {"code": last.error.get("code"), "message": last.error.get("message")}
    return "unfinished", flow.status


def _describe_ending(ending: tuple[str, Any]) -> str:
    kind, value = ending
    if kind == "result":
        return f"result {_result_text(value)}"
    if kind == "error":
        code = f"{value['code']} " if value.get("code") is not None else ""
        return f"error {code}{value.get('message')!r}"
    return f"unfinished ({value})"


def compare_flows(recorded: Flow, replayed: Flow, answers: RecordedAnswers | None = None) -> list[Difference]:
    """The differences between a recording and its replay (empty when they match)."""
    diffs: list[Difference] = []
    unrecorded = answers.unrecorded if answers is not None else []
    new_keys = {(u.get("round"), u["key"]) for u in unrecorded}
    for index, (a, b) in enumerate(zip(recorded.rounds, replayed.rounds, strict=False)):
        asked_a = {k: _question(v) for k, v in (a.input_requests or {}).items()}
        asked_b = {k: _question(v) for k, v in (b.input_requests or {}).items()}
        for key in sorted(asked_a.keys() | asked_b.keys()):
            where = f"round {index}, question {key!r}"
            if key not in asked_b:
                diffs.append(Difference("question", where, f"{where} ({_describe(asked_a[key])}): no longer asked"))
            elif key not in asked_a:
                if (index, key) not in new_keys:
                    diffs.append(Difference("question", where, f"{where} ({_describe(asked_b[key])}): newly asked"))
            else:
                diffs += _compare_question(where, asked_a[key], asked_b[key])
    channel_a = [_question(e["request"]) for r in recorded.rounds for e in r.backchannel]
    channel_b = [_question(e["request"]) for r in replayed.rounds for e in r.backchannel]
    for index, (qa, qb) in enumerate(zip(channel_a, channel_b, strict=False)):
        diffs += _compare_question(f"back-channel request {index}", qa, qb)
    if len(channel_a) > len(channel_b):
        diffs.append(
            Difference("question", "back channel", f"back channel: {len(channel_a)} request(s) -> {len(channel_b)}")
        )
    for item in unrecorded:
        question = _question(item["request"])
        if "position" in item:
            where = f"back-channel request {item['position']}"
            message = f"{where} ({_describe(question)}): not in the recording; the lab refused it"
        elif item["asked_before"]:
            where = f"round {item['round']}, question {item['key']!r}"
            message = f"{where} ({_describe(question)}): asked more often than in the recording; replay stopped here"
        else:
            where = f"round {item['round']}, question {item['key']!r}"
            message = f"{where} ({_describe(question)}): not in the recording; replay stopped here"
        diffs.append(Difference("unrecorded", where, message, None, question))
    if unrecorded and replayed.status == "input_required":
        return diffs  # rounds and result would only restate where the replay stopped
    if len(recorded.rounds) != len(replayed.rounds):
        diffs.append(
            Difference(
                "rounds",
                "rounds",
                f"rounds: {len(recorded.rounds)} -> {len(replayed.rounds)}",
                len(recorded.rounds),
                len(replayed.rounds),
            )
        )
    a_end, b_end = _ending(recorded), _ending(replayed)
    if a_end != b_end:
        kind: Literal["outcome", "result", "error"] = "outcome" if a_end[0] != b_end[0] else a_end[0]  # type: ignore[assignment]
        if kind == "outcome":
            text = f"outcome: {_describe_ending(a_end)} -> {_describe_ending(b_end)}"
        else:
            text = f"{kind}: {_describe_ending(a_end).partition(' ')[2]} -> {_describe_ending(b_end).partition(' ')[2]}"
            if kind == "result" and _result_text(a_end[1]) == _result_text(b_end[1]):
                text = "result: same text, different structure"
        diffs.append(Difference(kind, kind, text, a_end[1], b_end[1]))
    if replayed.stop_reason and replayed.status == "stopped" and recorded.status != "stopped":
        diffs.append(Difference("outcome", "stopped", f"stopped: {replayed.stop_reason}"))
    return diffs


def _connection(server: str | Connection | None, recorded: Flow) -> Connection:
    from mcp_lab.servers.sandbox import sandbox

    if server is None or isinstance(server, str):
        return sandbox.get(server or recorded.server)
    return server


async def replay_flow(
    recorded: Flow, *, server: str | Connection | None = None, timeout: float | None = DEFAULT_TIMEOUT
) -> ReplayEntry:
    """Replay one recorded flow (answers from the recording only) and compare."""
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
    stopped = any(d.kind == "unrecorded" for d in entry.differences) and flow.status == "input_required"
    entry.status = "stopped" if stopped else ("different" if entry.differences else "same")
    return entry


async def replay(
    collection: str | Path | Flow | Iterable[Flow],
    *,
    server: str | Connection | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> ReplayReport:
    """Replay every flow of a collection (a path written by `save_flows`, or flows) and report the differences.

    `server` replays against another server (a sandbox name or a connection); by default each flow goes to the
    server it was recorded against, by name.
    """
    source = str(collection) if isinstance(collection, str | Path) else None
    if isinstance(collection, str | Path):
        flows = load_flows(collection)
    elif isinstance(collection, Flow):
        flows = [collection]
    else:
        flows = list(collection)
    if not all(isinstance(f, Flow) for f in flows):
        raise LabError("replay takes a collection path or a list of flows")
    entries = [await replay_flow(f, server=server, timeout=timeout) for f in flows]
    label = server if isinstance(server, str) else getattr(server, "name", None)
    return ReplayReport(entries=entries, server=label, source=source)
