"""The pieces of one step of a flow, each on its own: the limits it runs under, which leg goes next, the
state-only backoff, keeping a round's answers, and what a leg's outcome makes of the flow.

Spec: 2026-07-28 multi round-trip requests (SEP-2322). A client answers an `InputRequiredResult`'s
questions and retries with `input_responses` and the echoed `request_state`; when the result carries state
only it waits (50 ms doubling to 250 ms, as the SDK's driver does) and retries without answers. `Flow.step`
(flow.py) is the loop that strings these pieces together, as the SDK's `run_input_required_driver` strings
together its injected dispatch and retry.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Literal, Protocol

import anyio
import mcp.types as T

from mcp_lab.flow.answers import InputResponse
from mcp_lab.flow.legs import wire
from mcp_lab.flow.round import Round
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.limits import MAX_FLOW_ROUNDS, MAX_INPUT_REQUESTS, too_many_questions

__all__ = [
    "BACKOFF_CAP",
    "BACKOFF_INITIAL",
    "Backoff",
    "answer_wire",
    "keep_answers",
    "last_answered",
    "late_leg_note",
    "lost_in_transit",
    "next_leg",
    "refused_in_client",
    "running_message",
    "status_after",
]

BACKOFF_INITIAL = 0.05
BACKOFF_CAP = 0.25
"""State-only rounds back off 50 ms doubling to 250 ms, as the SDK's driver does."""

Status = Literal["input_required", "done", "error", "new"]


class _Running(Protocol):
    id: str
    server: str
    method: str
    target: str


def running_message(flow: _Running) -> str:
    """Why a flow that is running now cannot be driven again."""
    return (
        f"flow {flow.id} ({flow.method} {flow.target} on {flow.server!r}) is still running; wait for it to end, "
        "or end it (its Stop button, or Interrupt) before resuming it"
    )


def _limit(rounds: list[Round], max_rounds: int, asking: Round | None) -> str | None:
    """Why the next leg must not be sent (the round cap, a full flow, too many questions at once), or None.

    `asking` is the round whose questions the next leg answers (the last one that got an answer)."""
    if len(rounds) > max_rounds:  # else no round can have asked more often than the cap: nothing to count
        asked_for_input = 0
        for rnd in rounds:  # a loop, not sum() over a generator: asked before every leg
            if rnd.outcome == "input_required":
                asked_for_input += 1
        if asked_for_input > max_rounds:
            return (
                f"round cap: the server asked for input {asked_for_input} times (max_rounds={max_rounds}); "
                "raise max_rounds or inspect the rounds"
            )
    if len(rounds) >= MAX_FLOW_ROUNDS:
        return f"the flow holds {len(rounds)} rounds, the most a flow may hold; start a new call"
    if asking is not None and asking.outcome == "input_required":
        asked = len(asking.input_requests or {})
        if asked > MAX_INPUT_REQUESTS:  # a form each: bounded before any is built
            return too_many_questions(asking.index + 1, asked)
    return None


class Backoff:
    """The pause before a leg that answers a state-only round; a round with questions starts it over."""

    __slots__ = ("delay",)

    def __init__(self) -> None:
        self.delay = BACKOFF_INITIAL

    def reset(self) -> None:
        self.delay = BACKOFF_INITIAL

    async def pause(self, leg: Round) -> None:
        """Sleep before `leg` (recording how long), and double the next pause up to the cap."""
        leg.backoff = self.delay
        await anyio.sleep(self.delay)
        self.delay = min(self.delay * 2, BACKOFF_CAP)


def last_answered(rounds: list[Round]) -> Round | None:
    """The last round that got an answer: a round that failed in transit is retried, not built on (None: none)."""
    if rounds and rounds[-1].transport_failed:
        return rounds[-2] if len(rounds) > 1 else None
    return rounds[-1] if rounds else None


def next_leg(rounds: list[Round], max_rounds: int) -> tuple[Round, Round | None] | str:
    """The leg to send now and the round of questions it answers (None for the first leg or a start-over); or,
    when no leg may be sent (`_limit`), why -- the rounds then as they were.

    Retry: a leg that failed in transit is taken off the record and sent again as it was (the same answers
    under the same token), so the server sees each answer once whatever the connection did.
    """
    last = last_answered(rounds)
    failed = bool(rounds) and last is not rounds[-1]  # the final round is not the one answered: it failed in transit
    limit = _limit(rounds, max_rounds, last)
    if limit is not None:
        return limit
    retry = rounds.pop() if failed else None
    leg = Round.blank(len(rounds))
    if last is None:
        return leg, None
    leg.started_over = last.state_rejected  # start-over: the original request again, without state
    if last.outcome != "input_required":
        return leg, None
    leg.sent_request_state = last.request_state
    if retry is not None and retry.sent_input_responses is not None:
        leg.sent_input_responses, leg.answered_by = retry.sent_input_responses, retry.answered_by
    return leg, last


def keep_answers(leg: Round, responses: Mapping[str, InputResponse], labels: dict[str, str]) -> None:
    """Record the answers `leg` carries: their wire form (the record), and the models sent as they are."""
    sent: dict[str, JsonObject] = {}
    for key, response in responses.items():  # a loop, not a comprehension: a function of its own, every answer
        sent[key] = answer_wire(response)
    leg.sent_input_responses = sent
    leg.keep_response_models(responses)
    leg.answered_by = labels


_FLAT = (str, int, bool, type(None))


def answer_wire(response: InputResponse) -> JsonObject:
    """`wire(response)`, said at once for the common answer -- a form's or a script's accepted fields of plain
    text, whole numbers, booleans, None or finite floats (what pydantic's JSON returns unchanged) -- and by
    pydantic for anything else. Its own `_meta` or a declined form's missing content goes through pydantic too."""
    if type(response) is T.ElicitResult and response.meta is None and type(response.content) is dict:
        content = response.content
        for name, value in content.items():
            kind = type(value)
            if type(name) is not str or not (kind in _FLAT or (kind is float and math.isfinite(value))):  # type: ignore[arg-type]
                return wire(response)  # type: ignore[no-any-return]
        return {"action": response.action, "content": dict(content)}
    return wire(response)  # type: ignore[no-any-return]


def status_after(leg: Round, may_start_over: bool) -> Status:
    """What the flow is after `leg` came back: waiting for answers, done, failed -- or new again when its
    token was refused and the flow may start over (once: `Flow.start_over`)."""
    if leg.outcome == "input_required":
        return "input_required"
    if leg.outcome == "error":
        return "new" if may_start_over and leg.state_rejected else "error"
    return "error" if (leg.result or {}).get("isError") else "done"  # a tool's own failure is a failure


def refused_in_client(leg: Round, message: str) -> None:
    """Record `leg` as refused in the client, never sent (its answers could not be given)."""
    leg.outcome = "error"
    leg.error = {"code": None, "message": message, "where": "client"}
    leg.started = time.time()


def late_leg_note(leg: Round) -> str:
    """The note a flow keeps when a leg in flight at an interrupt came back later (a hung tool)."""
    return f"a leg that was in flight when the flow was interrupted came back later ({leg.outcome}); not recorded"


def lost_in_transit(leg: Round) -> str:
    """Why a flow whose leg failed in transit was interrupted (resuming it sends that leg again)."""
    message = (leg.error or {}).get("message")
    return f"leg {leg.index + 1} failed: {message}; resume retries it with the last good token"
