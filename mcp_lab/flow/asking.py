"""Answering one round's questions: all keys together, one clear error, and who answered each.

Spec context: 2026-07-28 multi round-trip requests. One `InputRequiredResult` may carry several
independent questions (the SDK batches independent resolvers); its client answers them concurrently and
sends every answer under its key in one retry. A refusal (a callback's `ErrorData`) ends the flow, as it
ends the SDK's loop; a callback that raises is one short message, never an ExceptionGroup.
"""

from __future__ import annotations

from collections.abc import Mapping

import anyio
import mcp.types as T

from mcp_lab.errors import FlowError, LabError
from mcp_lab.flow.answers import (
    AnswerContext,
    Answerer,
    CallbackAnswerer,
    CallbackRefused,
    ChainAnswerer,
    InputResponse,
    ScriptedAnswerer,
    Unanswered,
    request_kind,
)
from mcp_lab.servers.containment import describe, escaping

__all__ = ["Answered", "answer_round", "answerer_label", "missing_answer_message", "scripted_answers"]

Answered = tuple[dict[str, InputResponse], dict[str, str]]
"""A round's answers by key, and who gave each (a label per key)."""


async def answer_round(
    answerer: Answerer, requests: Mapping[str, T.InputRequest], context: AnswerContext
) -> Answered:
    """Every request's answer, and a label per key; `Unanswered` or `FlowError` when that is impossible."""
    responses: dict[str, InputResponse] = {}
    labels: dict[str, str] = {}
    failures: list[BaseException] = []

    async def one(key: str, request: T.InputRequest) -> None:
        try:
            responses[key] = await answerer.answer(key, request, context)
            labels[key] = answerer_label(answerer, key)
        except BaseException as exc:  # one clear message per failing answer, never an ExceptionGroup
            if not isinstance(exc, Exception) and not escaping(exc):
                raise  # a cancellation
            failures.append(exc)  # a callback's SystemExit too: it must not stop the event loop

    if len(requests) == 1:
        for key, request in requests.items():
            await one(key, request)
    else:
        # Independent questions arrive together and are answered concurrently, as the SDK client does.
        async with anyio.create_task_group() as tg:
            for key, request in requests.items():
                tg.start_soon(one, key, request)
    for exc in failures:
        if isinstance(exc, Unanswered):
            raise exc
    if failures:
        exc = failures[0]
        if isinstance(exc, CallbackRefused | LabError):
            raise FlowError(str(exc))
        raise FlowError(f"the answer callback raised {describe(exc)}")
    return responses, labels


def scripted_answers(
    answerer: Answerer | None, scripted: ScriptedAnswerer | None, requests: Mapping[str, T.InputRequest]
) -> Answered | None:
    """Every answer and its label at once, when the call's script is asked first (alone, or before the live
    form) and gives a fitting plain value for each question: the common call, answered without a context
    or a task per question. None otherwise: `answer_round` answers, and says what is missing or wrong."""
    if scripted is None or not (answerer is scripted or _asks_first(answerer, scripted)):
        return None
    responses = scripted.answer_now(requests)
    if responses is None:
        return None
    if isinstance(answerer, ChainAnswerer):
        answerer.answered_by.update(dict.fromkeys(responses, scripted))
    return responses, dict.fromkeys(responses, "script")


def _asks_first(answerer: Answerer | None, scripted: ScriptedAnswerer) -> bool:
    return type(answerer) is ChainAnswerer and bool(answerer.answerers) and answerer.answerers[0] is scripted


def missing_answer_message(key: str, request: T.InputRequest | None) -> str:
    what = request_kind(request) if request is not None else "input"
    message = getattr(getattr(request, "params", None), "message", None)
    asked = f" ({message!r})" if message else ""
    return f"no answer for {key!r} ({what}{asked}); continue with: await flow.run(answers={{{key!r}: ...}})"


def answerer_label(answerer: Answerer, key: str) -> str:
    """A short name for who answered, for the timeline."""
    if isinstance(answerer, ChainAnswerer):
        if key in answerer.answered_by:
            return answerer_label(answerer.answered_by[key], key)
        for inner in answerer.answerers:
            if isinstance(inner, ScriptedAnswerer) and (key in inner.used or inner.lookup(key) is not None):
                return "script"
        return answerer_label(answerer.answerers[-1], key) if answerer.answerers else "?"
    if isinstance(answerer, ScriptedAnswerer):
        return "script"
    if isinstance(answerer, CallbackAnswerer):
        return "callback"
    return str(getattr(answerer, "label", type(answerer).__name__))
