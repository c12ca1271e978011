"""Recorded calls sent again, leg by leg, with the answers from the recording -- and one leg changed.

Spec context: a multi round-trip request (2026-07-28) is a sequence of independent client requests: the
first carries the call's arguments; each retry carries the same arguments, the answers (`inputResponses`,
keyed like the questions) and the `requestState` echoed exactly. A check repeats a recorded call this way
and changes one thing at one point -- the echoed token, an answer, a header, the declared capabilities, the
connection -- then looks at what that one request got back. Every leg becomes a `Round` of a `Flow`, the
lab's own record, so each probe's evidence renders as a flow and can be saved and replayed.

Why not the lab's flow engine: it talks through the SDK's typed session calls, which refuse what a broken
server sends (an empty `InputRequiredResult` is a validation error there); the audit must see it as sent.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import anyio
from mcp import MCPError
from mcp.client.session import ClientSession

from mcp_lab.audit.reach import Reach, RequestSpec
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.flow.leg_data import LegError
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.codes import HEADER_MISMATCH
from mcp_lab.protocol.eras import MODERN
from mcp_lab.protocol.rejections import rejection_reason

__all__ = ["At", "Change", "Leg", "Replayed", "Replayer", "label", "outcome", "same_outcome"]

_BACKOFF = (0.05, 0.25)
"""A state-only round is retried after a backoff, as the SDK's client does: 50 ms doubling to 250 ms."""

At = Literal["first", "state", "answers"]
"""Where a change applies: the first leg, the first retry echoing a requestState, the first retry answering."""


@dataclass
class Leg:
    """One request of a recorded call, as it will be sent."""

    method: str
    target: str
    arguments: JsonObject
    input_responses: dict[str, JsonObject] | None = None
    request_state: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    drop_headers: tuple[str, ...] = ()
    capabilities: JsonObject | None = None

    def spec(self) -> RequestSpec:
        if self.method == "resources/read":
            params: JsonObject = {"uri": self.target}
        elif self.method == "prompts/get":
            params = {"name": self.target, "arguments": {k: str(v) for k, v in self.arguments.items()}}
        else:
            params = {"name": self.target, "arguments": dict(self.arguments)}
        if self.input_responses is not None:
            params["inputResponses"] = self.input_responses
        if self.request_state is not None:
            params["requestState"] = self.request_state
        return RequestSpec(
            self.method,
            params,
            headers=self.headers,
            drop_headers=self.drop_headers,
            capabilities=self.capabilities,
        )


Change = Callable[[Leg], Awaitable[Leg | None]]
"""What a probe does to the leg at its point: the leg to send instead, or None to stop before sending."""


@dataclass
class Replayed:
    """A recorded call sent again: the evidence flow, the changed leg's round, and every raw IR seen."""

    flow: Flow
    probe: Round | None = None
    """The round of the changed leg (None: the change stopped before sending, or its point never came)."""
    reached: bool = False
    """The change's point came (a leg was handed to the change)."""
    held: Leg | None = None
    """The leg the change received (its token is what a probe that stops before sending wanted)."""


def outcome(rnd: Round | None) -> tuple[object, ...]:
    """What a leg came back with, for comparing two runs: a result's texts, the questions asked, an error code."""
    if rnd is None:
        return ("nothing",)
    if rnd.outcome == "result":
        from mcp_lab.protocol.results import result_texts

        data = rnd.result or {}
        return ("result", tuple(result_texts(data)), bool(data.get("isError")))
    if rnd.outcome == "input_required":
        return ("input_required", tuple(sorted(rnd.input_requests or {})))
    return ("error", (rnd.error or {}).get("code"))


def same_outcome(a: Round | None, b: Round | None) -> bool:
    return outcome(a) == outcome(b)


def label(flow: Flow) -> str:
    """A recorded call in one line: method, target, arguments."""
    from mcp_lab.replay.collection import flow_label

    return flow_label(flow)


def _error(exc: BaseException) -> LegError:
    if isinstance(exc, MCPError):
        return {"code": exc.error.code, "message": exc.error.message, "data": exc.error.data}
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    message = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return {"code": None, "message": message, "where": "client"}


class Replayer:
    """Sends legs for one audit: one reach, one time limit per request, and the raw IRs it has seen."""

    def __init__(self, reach: Reach, *, timeout: float = 60.0) -> None:
        self.reach = reach
        self.timeout = timeout
        self.observed: list[tuple[str, JsonObject]] = []
        """(which call, the raw InputRequiredResult) for every one that came back."""

    async def send(
        self, leg: Leg | RequestSpec, index: int = 0, session: ClientSession | None = None, label: str = ""
    ) -> Round:
        """Send one leg (or any request); the Round records what was sent and what came back (a raw IR as sent)."""
        rnd = Round(index=index)
        if isinstance(leg, Leg):
            rnd.sent_input_responses, rnd.sent_request_state = leg.input_responses, leg.request_state
        spec = leg.spec() if isinstance(leg, Leg) else leg
        rnd.started = time.time()
        t0 = time.perf_counter()
        raw: JsonObject | None = None
        with self.reach.capture() as capture:
            try:
                with anyio.fail_after(self.timeout):
                    raw = await self.reach.send(spec, session)
            except TimeoutError:
                rnd.outcome = "error"
                rnd.error = {"code": None, "message": f"no answer within {self.timeout:g} s", "where": "client"}
            except Exception as exc:  # whatever the server or transport did is this leg's outcome
                rnd.outcome = "error"
                rnd.error = _error(exc)
        rnd.elapsed = time.perf_counter() - t0
        rnd.http = list(capture.http)
        rnd.server_log = list(capture.server_log)
        if rnd.error is not None and capture.server_log:
            rnd.error["reason"] = rejection_reason(capture.server_log) or capture.server_log[-1]
        if raw is not None:
            body = {k: v for k, v in raw.items() if k != "_meta"}
            if body.get("resultType") == "input_required":
                self.observed.append((label, body))
                rnd.outcome = "input_required"
                requests = body.get("inputRequests")
                rnd.input_requests = requests if isinstance(requests, dict) and requests else None
                state = body.get("requestState")
                rnd.request_state = state if isinstance(state, str) else None
            else:
                rnd.outcome = "result"
                rnd.result = body
        return rnd

    async def replay(
        self,
        recorded: Flow,
        *,
        at: At | None = None,
        change: Change | None = None,
        fresh: bool = False,
        note: str = "",
    ) -> Replayed:
        """Send `recorded` again with its recorded answers; at `at`, hand the leg to `change` and stop after it.

        `fresh`: every leg on a new connection. Without `at`, the call runs to its end (or to a question the
        recording cannot answer).
        """
        flow = Flow(
            server=self.reach.name,
            method=recorded.method,
            target=recorded.target,
            arguments=dict(recorded.arguments),
            era=MODERN,
            max_rounds=recorded.max_rounds,
        )
        if note:
            flow.notes.append(note)
        out = Replayed(flow)
        answers = _recorded_answers(recorded)
        leg: Leg | None = Leg(recorded.method, recorded.target, dict(recorded.arguments))
        limit = min(len(recorded.rounds) + 3, 12)
        backoff = _BACKOFF[0]
        label = _label(recorded)
        while leg is not None and len(flow.rounds) < limit:
            probing = at is not None and change is not None and _is_point(at, leg, flow)
            if probing:
                assert change is not None
                out.reached, out.held = True, leg
                leg = await change(replace(leg))
                if leg is None:
                    break
            rnd = await self._send_leg(leg, len(flow.rounds), fresh, label, relist=not probing)
            flow.rounds.append(rnd)
            if probing:
                out.probe = rnd
                break
            leg, backoff = await self._next(leg, rnd, answers, flow, backoff)
        flow.status = _status(flow)
        return out

    async def _send_leg(self, leg: Leg, index: int, fresh: bool, label: str, *, relist: bool) -> Round:
        if fresh:
            async with self.reach.fresh() as session:
                return await self.send(leg, index, session, label)
        rnd = await self.send(leg, index, label=label)
        if relist and rnd.outcome == "error" and (rnd.error or {}).get("code") == HEADER_MISMATCH:
            await self.reach.list_tools()  # the listing was missing or stale: re-list, resend once (as the SDK)
            rnd = await self.send(leg, index, label=label)
            rnd.relisted = True
        return rnd

    async def _next(
        self, leg: Leg, rnd: Round, answers: dict[str, list[Any]], flow: Flow, backoff: float
    ) -> tuple[Leg | None, float]:
        if rnd.outcome != "input_required":
            return None, backoff
        responses: dict[str, JsonObject] | None = None
        if rnd.input_requests:
            responses = {}
            for key in rnd.input_requests:
                queue = answers.get(key) or answers.get(_same_resolver(key, answers))
                if not queue:
                    flow.notes.append(f"question {key!r} is not in the recording: the audit stopped here")
                    return None, backoff
                responses[key] = queue.pop(0)
            backoff = _BACKOFF[0]
        else:
            await anyio.sleep(backoff)
            backoff = min(backoff * 2, _BACKOFF[1])
        nxt = Leg(leg.method, leg.target, dict(leg.arguments), responses, rnd.request_state)
        return nxt, backoff


def _is_point(at: At, leg: Leg, flow: Flow) -> bool:
    if at == "first":
        return not flow.rounds
    if at == "state":
        return leg.request_state is not None
    return bool(leg.input_responses)


def _same_resolver(key: str, answers: dict[str, list[object]]) -> str:
    """A recorded key naming the same resolver in another module: MCPServer keys are `module:qualname`, and
    a server run as a script (`__main__:confirm`) names its resolvers unlike the same server imported."""
    name = key.rpartition(":")[2]
    return next((k for k in answers if ":" in key and k.rpartition(":")[2] == name), key)


def _recorded_answers(recorded: Flow) -> dict[str, list[object]]:
    answers: dict[str, list[object]] = {}
    for rnd in recorded.rounds:
        for key, response in (rnd.sent_input_responses or {}).items():
            answers.setdefault(key, []).append(response)
    return answers


def _status(flow: Flow) -> Literal["input_required", "done", "error", "new"]:
    last = flow.last
    if last is None:
        return "new"
    return {"input_required": "input_required", "result": "done", "error": "error"}[last.outcome]  # type: ignore[return-value]


def _label(flow: Flow) -> str:
    return label(flow)
