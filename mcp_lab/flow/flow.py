"""One multi round-trip conversation, recorded as plain data, and the one driver that runs it.

Spec: 2026-07-28 multi round-trip requests (SEP-2322). A `tools/call`, `prompts/get` or `resources/read`
may be answered by an `InputRequiredResult`; the client answers its `input_requests` and retries with
`input_responses` and the `request_state` token echoed byte for byte, until a final result arrives.

mcp_lab drives that loop itself (through `session.<method>(..., allow_input_required=True)`, the SDK's
manual path) instead of letting `Client.call_tool` hide the rounds, because seeing every leg is the
point of the lab. `step()` runs the one driver for one leg and `run()` until done, so automatic and
step-by-step behave identically. A `Flow` is JSON all the way down, so it can be written down between legs
and resumed by another process -- the SDK docs' distributed client, where any instance may send the next leg.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import mcp.types as T

import mcp_lab.view_registry as view_registry
from mcp_lab.errors import FlowError, LabError
from mcp_lab.flow.answers import AnswerContext, Answerer, ChainAnswerer, ScriptedAnswerer, Unanswered
from mcp_lab.flow.asking import Answered, answer_round, missing_answer_message, scripted_answers
from mcp_lab.flow.ending import final_error, final_result, final_text
from mcp_lab.flow.ids import new_flow_id
from mcp_lab.flow.kept import PACKED, PACKED_FIELDS, PackedField, pack
from mcp_lab.flow.leg_data import LegError
from mcp_lab.flow.legs import BACKCHANNEL_HINT, backchannel_hint, send_leg
from mcp_lab.flow.round import Connection, LegCapture, Round, read_saved, saved_json, short_repr
from mcp_lab.flow.stepping import (
    Backoff,
    keep_answers,
    last_answered,
    late_leg_note,
    lost_in_transit,
    next_leg,
    refused_in_client,
    running_message,
    status_after,
)
from mcp_lab.given import json_safe
from mcp_lab.listeners import Listeners
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.eras import METHODS, MODERN
from mcp_lab.protocol.limits import DEFAULT_MAX_ROUNDS

__all__ = ["Connection", "Flow", "LegCapture", "Round", "running_message"]


_GOING = frozenset(("new", "input_required"))
"""The statuses a flow still sends legs from."""
_UNBOUND = "this flow is not connected to a server; use mcp_lab.resume(...) to continue it"


@dataclass
class Flow:
    """A multi round-trip conversation: the request, its rounds, and how it ended."""

    server: str
    method: str
    target: str
    arguments: dict[str, Any] = field(default_factory=dict)
    era: str = MODERN
    rounds: list[Round] = field(default_factory=list)
    status: Literal["new", "input_required", "done", "error", "stopped", "interrupted"] = "new"
    stop_reason: str | None = None
    notes: list[str] = field(default_factory=list)
    max_rounds: int = DEFAULT_MAX_ROUNDS
    start_over: bool = False
    """On a rejected request_state (-32602), start the flow over once instead of failing."""
    id: str = field(default_factory=new_flow_id)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise LabError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        self._connection: Connection | None = None
        self._answerer: Answerer | None = None
        self._scripted: ScriptedAnswerer | None = None
        """The scripted answers among the answerer's (so the unused ones can be named afterwards)."""
        self._unused: tuple[str, ...] = ()  # the unused scripted answers, once a packed flow let its answerer go
        self._backoff: Backoff | None = None  # made on the first state-only round (most flows have none)
        self._listeners: Listeners[[Flow]] | None = None  # made when a view subscribes
        self._epoch = 0
        """Bumped when the flow is interrupted: a leg still in flight then must not write into it."""
        self.displays = 0
        """How often the notebook drew this flow (a failure it drew is not announced again)."""
        self._stepping: int | None = None
        """The epoch of the step running now (None between steps): a second driver is refused meanwhile."""

    @classmethod
    def new(cls, server: str, method: str, target: str, arguments: dict[str, Any], era: str, max_rounds: int) -> Flow:
        """`Flow(server=..., ..., max_rounds=...)` equal in every way (fields and state, in their order), made
        by copying a new flow's instead of running the dataclass's `__init__` (every call makes one)."""
        if method not in METHODS:
            raise LabError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        flow = object.__new__(cls)
        state = _NEW.copy()
        state["server"], state["method"], state["target"], state["arguments"] = server, method, target, arguments
        state["era"], state["rounds"], state["notes"] = era, [], []
        state["max_rounds"], state["id"] = max_rounds, new_flow_id()
        flow.__dict__ = state
        return flow

    def to_dict(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "rounds"}
        data["rounds"] = [r.to_dict() for r in self.rounds]
        return data

    def to_json(self, indent: int | None = None) -> str:
        # Strict JSON: a NaN (which JSON has not) reads as the null the SDK sends for it.
        return json.dumps(json_safe(self.to_dict()), indent=indent, ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Flow:
        """A flow from plain data, validated against the dataclasses' own fields (`round.read_saved`): a
        malformed one is one `LabError` naming what is wrong."""
        return read_saved(cls, data)

    @classmethod
    def from_json(cls, text: str) -> Flow:
        return read_saved(cls, saved_json(text))

    @property
    def done(self) -> bool:
        return self.status in ("done", "error")

    @property
    def running(self) -> bool:
        """A step of this flow is running now (not counting a leg left behind by an interrupt)."""
        return self._stepping is not None and self._stepping == self._epoch

    @property
    def last(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def _last_answered(self) -> Round | None:
        """The last leg that got an answer (a leg that failed in transit is retried, not built on)."""
        return last_answered(self.rounds)

    @property
    def request_state(self) -> str | None:
        """The token to echo on the next leg (the last InputRequiredResult's)."""
        last = self._last_answered
        return last.request_state if last is not None and last.outcome == "input_required" else None

    @property
    def pending_requests(self) -> dict[str, T.InputRequest]:
        """The questions the next leg must answer."""
        last = self._last_answered
        return last.requests() if last is not None and last.outcome == "input_required" else {}

    @property
    def result(self) -> T.CallToolResult | T.GetPromptResult | T.ReadResourceResult | None:
        """The final result as an SDK model, or None while the flow is unfinished or failed."""
        return final_result(self.method, self.last)

    @property
    def error(self) -> LegError | None:
        """The error that ended the flow: a JSON-RPC error, or a tool's own (`isError: true`) result."""
        return final_error(self.last)

    @property
    def text(self) -> str:
        """The text parts of the final result, joined (handy in tutorials); for a flow that ended in an
        error instead (the server's, or a refusal in the client such as Reject), that error in one line."""
        return final_text(self.last)

    def raise_for_status(self) -> Flow:
        """Raise `FlowError` with the one-line reason unless the flow ended with a result (a tool's
        `isError: true` result is a failure too)."""
        if self.status == "done":
            return self
        reason = (self.error or {}).get("reason") if self.last is not None and self.last.outcome == "result" else None
        hint = f" ({BACKCHANNEL_HINT})" if BACKCHANNEL_HINT in self.notes else ""
        raise FlowError(self.summary() + (f" -- server logged: {reason}" if reason else "") + hint)

    def summary(self) -> str:
        return view_registry.text(self, "summary")

    def bind(
        self, connection: Connection, answerer: Answerer | None = None, scripted: ScriptedAnswerer | None = None
    ) -> Flow:
        """Attach what this process drives the flow with (not part of the record): its connection, its
        answerer, and the scripted answers among them (so unused ones can be named afterwards)."""
        self._connection = connection
        if answerer is not None:
            self._answerer = answerer
        if scripted is not None:
            self._scripted = scripted
        return self

    def on_round(self, listener: Callable[[Flow], object]) -> Callable[[], None]:
        """Call `listener(flow)` after every leg (live views update this way); returns the unsubscriber."""
        if self._listeners is None:
            self._listeners = Listeners()
        return self._listeners.add(listener)

    async def run(
        self,
        answers: Mapping[str, Any] | Answerer | None = None,
        *,
        max_rounds: int | None = None,
        timeout: float | None = None,
    ) -> Flow:
        """Step until a final result, an error, the round cap or the wall-clock `timeout` (seconds)."""
        self._check_runnable()
        if max_rounds is not None:
            self.max_rounds = max_rounds
        self._set_answers(answers)
        await self.driven(timeout)
        return self

    def driven(self, timeout: float | None = None) -> Awaitable[object]:
        """`run(timeout=timeout)`'s legs, checked now, awaited in the caller's own coroutine (no `run` around them)."""
        self._check_runnable()
        return self._drive() if timeout is None else self._drive_within(timeout)  # a cancel scope costs a leg's

    def _check_runnable(self) -> None:
        if self.running:
            raise FlowError(running_message(self))
        if self._connection is None and self.status in _GOING:
            raise LabError(_UNBOUND)

    async def _drive_within(self, timeout: float) -> None:
        with anyio.move_on_after(timeout) as scope:
            await self._drive()
        if scope.cancelled_caught:
            legs = len(self.rounds)
            self._stop(f"wall-clock limit of {timeout:g} s reached after {legs} leg{'' if legs == 1 else 's'}")

    async def step(self, answers: Mapping[str, Any] | Answerer | None = None) -> Round | None:
        """Perform one leg: answer the pending questions (if any), send, record what came back."""
        if self.done:
            raise FlowError(f"flow {self.id} has already ended ({self.status}); start a new call")
        if self._connection is None:
            raise LabError(_UNBOUND)
        if self.running:  # driving it twice at once would send the same leg twice (a tool running twice)
            raise FlowError(running_message(self))
        if answers is not None:
            self._set_answers(answers)
        return await self._drive(once=True)

    async def _drive(self, once: bool = False) -> Round | None:
        """The driver, as the SDK's loop: limits, answer (or back off), send, record -- until the flow ends, stops
        or waits for an answer (`once`: one leg). The leg recorded last (None: none, or not the flow's to record)."""
        epoch = self._stepping = self._epoch
        try:
            while self.status in _GOING or once:  # `step` sends its leg whatever the status (as it always has)
                following = next_leg(self.rounds, self.max_rounds)
                if isinstance(following, str):  # a limit: nothing is sent
                    self._stop(following)
                    return None
                leg, pending = following
                self.stop_reason = None
                if pending is not None and leg.sent_input_responses is None:
                    if not pending.input_requests:  # state only: pause (longer each time) before the retry
                        self._backoff = self._backoff or Backoff()
                        await self._backoff.pause(leg)
                    elif not (self._answered_by_script(pending, leg) or await self._answer(pending, leg)):
                        return leg if leg.outcome == "error" else None  # refused in the client, or waiting
                assert self._connection is not None
                await send_leg(self, leg, self._connection, self._answerer)
                recorded = self._recorded(leg, epoch)
                if once or (self.stop_reason is not None and self.status == "input_required"):
                    return recorded  # one leg asked for, or waiting for an answer
            return None
        finally:
            if self._stepping == epoch:
                self._stepping = None

    def _answered_by_script(self, pending: Round, leg: Round) -> bool:
        """Answer `pending`'s questions into `leg` from the script when it fits every one (no coroutine, context
        or task of their own); False to leave them to `_answer`. Questions start the state-only pause over."""
        if self._backoff is not None:
            self._backoff.reset()
        answered = scripted_answers(self._answerer, self._scripted, pending.requests())
        if answered is None:
            return False
        keep_answers(leg, *answered)
        return True

    async def _answer(self, pending: Round, leg: Round) -> bool:
        """Answer `pending`'s questions into `leg`; False (the flow says why) when they cannot be answered."""
        requests = pending.requests()
        try:
            responses, labels = await self._answers_to(requests, pending.index)
        except Unanswered as missing:
            key = str(missing.args[0])
            self.stop_reason = missing_answer_message(key, requests.get(key))
            self._notify()
            return False
        except FlowError as failure:
            self._fail_locally(leg, failure)
            return False
        keep_answers(leg, responses, labels)
        return True

    def _recorded(self, leg: Round, epoch: int) -> Round | None:
        """Record the leg just sent: hints, a connection lost (interrupted, resumable), the status it leaves."""
        if epoch != self._epoch:  # interrupted while the leg was in flight (a hung tool): keep the record as it was
            self.notes.append(late_leg_note(leg))
            return None
        rounds = self.rounds
        rounds.append(leg)
        if leg.outcome == "input_required":  # the server asks: no hint, no failure, nothing ended
            self.status = "input_required"
        else:
            hint = backchannel_hint(self.era, leg)
            if hint is not None and hint not in self.notes:
                self.notes.append(hint)
            if leg.transport_failed:
                self.interrupt(lost_in_transit(leg))
                return leg
            self.status = status_after(leg, self.start_over and not any(r.started_over for r in rounds))
            if self.done:  # nothing is sent from it again (a start-over sends the request afresh)
                leg.drop_models()
        if len(rounds) > 1:  # the round whose questions this leg answered: nothing is sent from it again
            rounds[-2].drop_models()
        self._notify()
        return leg

    def _set_answers(self, answers: Mapping[str, Any] | Answerer | None) -> None:
        if answers is None:
            return
        if isinstance(answers, Mapping):
            scripted = ScriptedAnswerer(answers)
            self._scripted = scripted
            chain: list[Answerer] = [scripted]
            if self._answerer is not None:
                chain.append(self._answerer)
            self._answerer = ChainAnswerer(chain)
        else:
            self._answerer = answers

    def unused_answers(self) -> list[str]:
        """The scripted answers no question matched (usually a typo)."""
        return self._scripted.unused() if self._scripted is not None else list(self._unused)

    def pack(self) -> bool:
        """Keep this finished flow in a form the garbage collector barely visits (kept.py); reading a packed
        field unpacks it. False when it stays as it is (running, unfinished, or parts of it held elsewhere)."""
        if PACKED in self.__dict__ or not self.done or self._stepping is not None:
            return PACKED in self.__dict__
        if not (self.status == "error" and self.rounds and self.rounds[-1].state_rejected):  # resume starts over
            self._unused = tuple(self.unused_answers())
            self._answerer = self._scripted = None  # a flow that ended for good asks nothing again
            self._connection = None  # nor sends (`step` refuses it): its dict is atoms, left untracked
        return pack(self.__dict__)

    async def _answers_to(self, requests: dict[str, T.InputRequest], index: int) -> Answered:
        answerer = self._answerer
        if answerer is None:
            raise Unanswered(next(iter(requests)))
        assert self._connection is not None  # a script reads no session (nor does anyone else its context):
        session = None if type(answerer) is ScriptedAnswerer else await self._connection.session(self.era)
        context = AnswerContext.of(self.server, self.method, self.target, index, session, flow=self)
        return await answer_round(answerer, requests, context)

    def _fail_locally(self, rnd: Round, failure: FlowError) -> None:
        refused_in_client(rnd, str(failure))
        self.rounds.append(rnd)
        self.status = "error"
        self._notify()

    def interrupt(self, reason: str) -> None:
        """End the flow now, keeping every recorded leg; `mcp_lab.resume(flow)` continues it from the last one."""
        if not self.done:
            self._epoch += 1
            self._stop(reason, "interrupted")

    def _stop(self, reason: str, status: Literal["stopped", "interrupted"] = "stopped") -> None:
        self.status, self.stop_reason = status, reason
        self._notify()

    def _notify(self) -> None:
        if self._listeners is not None:
            self._listeners.notify(self)

    def __repr__(self) -> str:
        """Bounded (the dataclass's printed 41 KB for one long argument): `flow` in a cell shows the view."""
        fields = {"id": self.id, "server": self.server, "method": self.method, "target": self.target}
        return short_repr("Flow", len(self.rounds), **fields, arguments=self.arguments, status=self.status)

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        self.displays += 1  # a failure shown in the notebook needs no second line (live.say_if_failed)
        return view_registry.bundle(self)


_NEW = Flow(server="", method="tools/call", target="").__dict__
"""A new flow's fields and state, in their order, copied by `Flow.new` (its containers replaced)."""

for _name in PACKED_FIELDS:  # after @dataclass, which would take a class attribute for a field's default
    setattr(Flow, _name, PackedField(_name))
del _name
