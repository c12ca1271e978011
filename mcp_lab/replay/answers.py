"""Answers for a replay, from the recording only: by input-request key, or in order on the back channel.

A question the recording does not hold is not guessed: it is noted (`Unrecorded`) and left unanswered, so
the replayed flow stops there and the report names it.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

import mcp.types as T

from mcp_lab.flow.answers import AnswerContext, InputResponse, Unanswered, request_kind
from mcp_lab.flow.flow import Flow
from mcp_lab.flow.legs import parse_response, wire
from mcp_lab.json_types import JsonObject
from mcp_lab.replay.diff import renamed_key

__all__ = ["RecordedAnswers", "Unrecorded"]


class Unrecorded(TypedDict):
    """A question the recording cannot answer: by position on the 2025-11-25 back channel, else by round."""

    key: str
    request: JsonObject
    asked_before: bool
    position: NotRequired[int]
    round: NotRequired[int]


class RecordedAnswers:
    """Answers each question with the answer the recording gave under the same key; never guesses."""

    label = "recording"

    def __init__(self, recorded: Flow) -> None:
        self.by_key: dict[str, list[JsonObject]] = {}
        self.asked: set[str] = set()
        for rnd in recorded.rounds:
            for key, response in (rnd.sent_input_responses or {}).items():
                self.by_key.setdefault(key, []).append(response)
            self.asked.update((rnd.input_requests or {}).keys())
        self.backchannel = [e for rnd in recorded.rounds for e in rnd.backchannel if "response" in e]
        self.unrecorded: list[Unrecorded] = []
        """Questions the recording cannot answer."""
        self._backchannel_position = 0

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        if context.backchannel:
            position = self._backchannel_position
            self._backchannel_position += 1
            if position < len(self.backchannel) and self.backchannel[position]["kind"] == request_kind(request):
                return parse_response(self.backchannel[position]["response"])
            self.unrecorded.append({"key": key, "request": wire(request), "asked_before": False, "position": position})
            raise Unanswered(key)
        queue = self.by_key.get(key) or self.by_key.get(renamed_key(key, self.by_key) or key)
        if not queue:
            asked_before = key in self.asked or renamed_key(key, self.asked) is not None
            self.unrecorded.append(
                {"key": key, "request": wire(request), "asked_before": asked_before, "round": context.round_index}
            )
            raise Unanswered(key)
        return parse_response(queue.pop(0))
