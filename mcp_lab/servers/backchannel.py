"""The SDK `Client`'s callbacks for server-to-client requests (elicitation, sampling, roots), typed.

A 2025-11-25 connection sends those requests on the back channel: `backchannel_callbacks` hands each to an
`AnswerFn` (a flow's answerer). A 2026-07-28 client declares its capabilities with callbacks too, but its
requests arrive embedded in results and are answered by flows: `refusing_callbacks` refuses any that come.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypedDict

import mcp.types as T
from mcp.client import ClientRequestContext
from mcp.client.session import ElicitationFnT, ListRootsFnT, SamplingFnT

__all__ = ["AnswerFn", "Backchannel", "backchannel_callbacks", "refusing_callbacks"]

AnswerFn = Callable[[str, T.InputRequest], Awaitable[T.InputResponse | T.ErrorData]]
"""Answers one input request (by its key); an `ErrorData` refuses it."""


class Backchannel(TypedDict, total=False):
    """The SDK `Client`'s callbacks for server-to-client requests (passed as `**callbacks`)."""

    elicitation_callback: ElicitationFnT
    sampling_callback: SamplingFnT
    list_roots_callback: ListRootsFnT


async def _not_expected(context: ClientRequestContext, params: object = None) -> T.ErrorData:
    # The modern client only declares capabilities with these; embedded requests are answered by flows.
    return T.ErrorData(code=-32603, message="mcp_lab answers input requests through flows, not client callbacks")


def refusing_callbacks() -> Backchannel:
    """Callbacks that refuse every server-to-client request: a 2026-07-28 client declares its capabilities
    with them, and its embedded requests are answered by flows."""
    return Backchannel(
        elicitation_callback=_not_expected, sampling_callback=_not_expected, list_roots_callback=_not_expected
    )


def backchannel_callbacks(answer: AnswerFn) -> Backchannel:
    """The three callbacks, each asking `answer` under the request's JSON-RPC id (an answer of the wrong
    kind for the request is refused, as the SDK could not send it)."""

    async def elicit(context: ClientRequestContext, params: T.ElicitRequestParams) -> T.ElicitResult | T.ErrorData:
        response = await answer(str(context.request_id), T.ElicitRequest(params=params))
        return response if isinstance(response, T.ElicitResult | T.ErrorData) else _wrong_kind(response, "elicitation")

    async def sample(
        context: ClientRequestContext, params: T.CreateMessageRequestParams
    ) -> T.CreateMessageResult | T.CreateMessageResultWithTools | T.ErrorData:
        response = await answer(str(context.request_id), T.CreateMessageRequest(params=params))
        if isinstance(response, T.CreateMessageResult | T.CreateMessageResultWithTools | T.ErrorData):
            return response
        return _wrong_kind(response, "sampling")

    async def roots(context: ClientRequestContext) -> T.ListRootsResult | T.ErrorData:
        response = await answer(str(context.request_id), T.ListRootsRequest())
        return response if isinstance(response, T.ListRootsResult | T.ErrorData) else _wrong_kind(response, "roots")

    return Backchannel(elicitation_callback=elicit, sampling_callback=sample, list_roots_callback=roots)


def _wrong_kind(response: object, request: str) -> T.ErrorData:
    return T.ErrorData(code=-32603, message=f"mcp_lab answered a {request} request with a {type(response).__name__}")
