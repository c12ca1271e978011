"""The sampling form: the person plays the language model and writes the assistant's reply.

Spec: `sampling/createMessage` (CreateMessageRequest; a server->client request through 2025-11-25,
embedded in `InputRequiredResult` on 2026-07-28, deprecated there by SEP-2577). The client shows what the
server wants sampled -- messages, system prompt, model preferences, max tokens -- and a human stays in the
loop: here the human *is* the model. Send answers `CreateMessageResult(role="assistant", content=text,
model=..., stopReason=...)`; Reject answers the way clients refuse sampling, an error
(`ErrorData(code=-1, message="User rejected sampling request")`), which ends the flow as the SDK does.

A `model=` callable can answer instead of a person (`FormAnswerer(model=echo_model)`), for demos.

A server-side example that produces this form::

    def write_haiku(topic: str) -> Sample:
        return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=f"A haiku on {topic}"))],
                      max_tokens=40, system_prompt="You are a poet.")

    @mcp.tool()
    async def haiku(topic: str, text: Annotated[CreateMessageResult, Resolve(write_haiku)]) -> str: ...

Headless: `form.fill(reply="old pond / a frog jumps in", model="me", stop_reason="endTurn").submit()`.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, ClassVar

import mcp.types as T

from mcp_lab.errors import LabError
from mcp_lab.flow.answers import InputResponse
from mcp_lab.forms.base import Form
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["REJECTED", "SamplingForm", "echo_model", "model_reply"]

REJECTED = "User rejected sampling request"
STOP_REASONS = ("endTurn", "stopSequence", "maxTokens")


def _block_text(block: object) -> str:
    if isinstance(block, T.TextContent):
        return block.text
    if isinstance(block, T.ImageContent | T.AudioContent):
        return f"[{block.type}: {block.mime_type}, {len(block.data)} base64 chars]"
    return f"[{getattr(block, 'type', type(block).__name__)}]"


def message_text(message: T.SamplingMessage) -> str:
    return "\n".join(_block_text(block) for block in message.content_as_list)


def echo_model(params: T.CreateMessageRequestParams) -> str:
    """A stand-in model for demos: replies with the last user message, prefixed by "echo: "."""
    users = [m for m in params.messages if m.role == "user"]
    return "echo: " + (message_text(users[-1]) if users else "")


async def model_reply(model: Any, params: T.CreateMessageRequestParams) -> T.CreateMessageResult:
    """Ask a `model=` callable (sync or async; returning text or a CreateMessageResult)."""
    reply = model(params)
    if inspect.isawaitable(reply):
        reply = await reply
    if isinstance(reply, T.CreateMessageResult):
        return reply
    if not isinstance(reply, str):
        raise LabError(f"the sampling model must return text or a CreateMessageResult, not {type(reply).__name__}")
    name = getattr(model, "model_name", None) or getattr(model, "__name__", None) or type(model).__name__
    return T.CreateMessageResult(
        role="assistant", content=T.TextContent(type="text", text=reply), model=str(name), stop_reason="endTurn"
    )


class SamplingForm(Form):
    """Write the assistant's reply; Send or Reject."""

    kind: ClassVar[str] = "sampling"
    record_kind: ClassVar[str] = "sampling"
    button_labels: ClassVar[tuple[str, str | None, str | None]] = ("Send", "Reject", None)

    @property
    def params(self) -> T.CreateMessageRequestParams:
        assert isinstance(self.request, T.CreateMessageRequest)
        return self.request.params

    def initial_values(self) -> JsonObject:
        return {"reply": "", "model": "human", "stop_reason": "endTurn"}

    def fields(self) -> list[JsonObject]:
        reasons = list(STOP_REASONS)
        chosen = self.values.get("stop_reason")
        if isinstance(chosen, str) and chosen not in reasons:
            reasons.append(chosen)  # a stop reason the protocol allows beyond the usual three
        blank = {"description": "", "note": "", "options": []}
        return [
            {
                **blank,
                "name": "reply",
                "label": "Reply",
                "kind": "textarea",
                "required": True,
                "placeholder": "the assistant's reply",
            },
            {**blank, "name": "model", "label": "Model", "kind": "text", "required": True, "placeholder": "human"},
            {
                **blank,
                "name": "stop_reason",
                "label": "Stop reason",
                "kind": "choice",
                "required": True,
                "placeholder": "",
                "options": [[r, r] for r in reasons],
            },
        ]

    def intro(self) -> str:
        return "The server asks your client to run a language model. You are the model: write the reply."

    def message(self) -> str:
        return ""

    def details(self) -> list[JsonObject]:
        p = self.params
        rows: list[JsonObject] = []
        if p.system_prompt:
            rows.append({"label": "system", "text": p.system_prompt, "pre": True})
        for m in p.messages:
            rows.append({"label": m.role, "text": message_text(m), "pre": True})
        facts = [f"max tokens: {p.max_tokens}"]
        if p.temperature is not None:
            facts.append(f"temperature: {p.temperature}")
        if p.stop_sequences:
            facts.append(f"stop sequences: {', '.join(map(repr, p.stop_sequences))}")
        if p.include_context:
            facts.append(f"include context: {p.include_context}")
        prefs = p.model_preferences
        if prefs is not None:
            hints = ", ".join(h.name or "?" for h in prefs.hints or [])
            if hints:
                facts.append(f"model hints: {hints}")
            for label, value in (
                ("cost", prefs.cost_priority),
                ("speed", prefs.speed_priority),
                ("intelligence", prefs.intelligence_priority),
            ):
                if value is not None:
                    facts.append(f"{label} priority: {value}")
        if p.tools:
            facts.append(f"tools offered: {', '.join(t.name for t in p.tools)}")
        rows.append({"label": "asked", "text": " · ".join(facts), "pre": False})
        return rows

    def fill(self, **values: JsonValue) -> SamplingForm:
        """`reply=`, `model=`, `stop_reason=` (any stop reason string the protocol allows)."""
        self._check_open()
        unknown = set(values) - {"reply", "model", "stop_reason"}
        if unknown:
            raise LabError(f"a sampling form has reply, model and stop_reason, not {', '.join(sorted(unknown))}")
        super().fill(**{k: str(v) for k, v in values.items()})
        return self

    def check(self, values: Mapping[str, JsonValue]) -> tuple[InputResponse | None, dict[str, str]]:
        reply, model = str(values.get("reply") or ""), str(values.get("model") or "").strip()
        stop = str(values.get("stop_reason") or "endTurn")
        errors = {}
        if not reply.strip():
            errors["reply"] = "write the assistant's reply (or Reject)"
        if not model:
            errors["model"] = "name the model that answered (e.g. human)"
        if errors:
            return None, errors
        return T.CreateMessageResult(
            role="assistant", content=T.TextContent(type="text", text=reply), model=model, stop_reason=stop
        ), {}

    def reject(self) -> bool:
        return self.decline()

    def _refusal(self) -> InputResponse:
        if self.state == "timed out":
            return self._refuse(f"No reply to the sampling request within {self.timeout:g} s")
        return self._refuse(REJECTED)

    def answer_text(self) -> str:
        response = self.response
        if isinstance(response, T.CreateMessageResult):
            text = _block_text(response.content) if not isinstance(response.content, list) else "..."
            return f"{text!r} (model {response.model}, {response.stop_reason})"
        return ""
