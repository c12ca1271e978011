"""Sending one leg of a flow and recording what came back, in either protocol era.

Spec: 2026-07-28 multi round-trip requests, and the 2025-11-25 back channel they replace. On 2026-07-28 a
leg is one plain client->server request (`allow_input_required=True` hands back the union). On 2025-11-25
the same server asks its questions as server->client requests *during* the single leg; the lab answers
those through the same `Answerer` and records them as the leg's back-channel traffic, so the two
generations can be compared side by side.

A -32020 (header mismatch) on 2026-07-28 means the client's tool listing is missing or stale; the spec's
recovery -- re-list, resend once -- is applied here so every flow behaves like the SDK's `Client`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import mcp.types as T
from mcp import MCPError
from mcp.client.session import ClientSession
from mcp.types import CONNECTION_CLOSED
from pydantic import ValidationError

from mcp_lab.errors import ConnectionFailed, LabError
from mcp_lab.exchanges.record import hand_on_http
from mcp_lab.flow.answers import AnswerContext, Answerer, CallbackRefused, InputResponse, Unanswered, request_kind
from mcp_lab.flow.received import keep_received, received
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.codes import HEADER_MISMATCH
from mcp_lab.protocol.rejections import rejection_reason
from mcp_lab.servers.containment import describe, escaping

if TYPE_CHECKING:
    from mcp_lab.flow.leg_data import BackchannelEntry
    from mcp_lab.flow.round import Connection, Request, Round

__all__ = ["BACKCHANNEL_HINT", "backchannel_hint", "parse_response", "send_leg"]

BACKCHANNEL_HINT = (
    "this handler asks through the 2025-11-25 back channel (ctx.elicit / ctx.session...), which a 2026-07-28 "
    "connection does not have: call it with --legacy (legacy=True), or ask with Resolve(...) / InputRequiredResult"
)
"""The one line a flow gains when a 2026-07-28 leg fails with the SDK's -32600 "no back-channel" error."""


def wire(model: Any) -> Any:
    """A pydantic model as it travels: camelCase, no nulls (`model_dump`'s serializer, called directly: every
    leg records two or three models)."""
    return model.__pydantic_serializer__.to_python(model, mode="json", by_alias=True, exclude_none=True)


_FINAL_RESULTS = (T.CallToolResult, T.GetPromptResult, T.ReadResourceResult)


def _asks(result: object) -> bool:
    """`isinstance(result, T.InputRequiredResult)`, told by the exact type first: pydantic's isinstance is a
    call of its own, and a final result (every flow's last leg) would fail it the slow way."""
    kind = type(result)
    if kind is T.InputRequiredResult:
        return True
    return kind not in _FINAL_RESULTS and isinstance(result, T.InputRequiredResult)


def _questions(requests: Mapping[str, T.InputRequest], raw: JsonObject | None) -> dict[str, Any]:
    """The questions' wire form: as received when the result arrived as plain data holding them all, else
    each model written back out.

    What was received is copied at its top (here and for a final result): the SDK's dispatcher holds the
    message it read last until the next arrives, and a record must be the flow's alone to be packed."""
    asked = raw.get("inputRequests") if raw is not None else None
    if type(asked) is dict and asked.keys() == requests.keys():
        return dict(asked)
    written: dict[str, Any] = {}
    for key, request in requests.items():  # a loop, not a comprehension: a function of its own
        written[key] = wire(request)
    return written


def parse_response(data: Mapping[str, Any]) -> InputResponse:
    """Wire dict back to the InputResponse model (the four shapes are told apart by their fields)."""
    if "action" in data:
        return T.ElicitResult.model_validate(data)
    if "roots" in data:
        return T.ListRootsResult.model_validate(data)
    try:
        return T.CreateMessageResult.model_validate(data)
    except ValidationError:
        return T.CreateMessageResultWithTools.model_validate(data)


async def send_leg(flow: Request, rnd: Round, connection: Connection, answerer: Answerer | None) -> None:
    """Send `rnd` (its answers and echoed token are already filled in) and record the outcome in it."""
    capturing = connection.capture()
    responses = rnd.response_models()
    if responses is None and rnd.sent_input_responses is not None:
        responses = {k: parse_response(v) for k, v in rnd.sent_input_responses.items()}
    rnd.started = time.time()
    t0 = time.perf_counter()
    used: ClientSession | None = None  # the session a failed leg used: only that one is dropped
    slot: list[Any] | None = None  # where the result lands as received (received.py)
    with capturing as capture:
        try:
            if flow.era == "2025-11-25":
                async with _legacy_session(flow, rnd, connection, answerer) as session:
                    used = session
                    slot = keep_received(session)
                    result = await _call(flow, session, responses, rnd.sent_request_state)
            else:
                session = used = await connection.session(flow.era)
                slot = keep_received(session)
                try:
                    result = await _call(flow, session, responses, rnd.sent_request_state)
                except MCPError as mismatch:
                    if mismatch.error.code != HEADER_MISMATCH:
                        raise
                    # The spec's recovery when the client's listing is missing or stale: re-list, resend once.
                    rnd.relisted = True
                    await session.list_tools()
                    result = await _call(flow, session, responses, rnd.sent_request_state)
        except BaseException as exc:  # recorded in the leg (never a traceback); cancellation goes on as it should
            received(slot)  # what a failed request left, if anything: let go of it
            if not isinstance(exc, Exception) and not escaping(exc):
                raise
            _record_error(rnd, exc)
            if rnd.transport_failed:  # the connection is gone: the retry connects afresh
                drop = getattr(connection, "drop_session", None)
                if drop is not None:
                    await drop(flow.era, used)
        else:
            raw = received(slot)  # the result as it arrived (received.py), else the model written back out
            if _asks(result):
                rnd.outcome = "input_required"
                requests = result.input_requests
                if requests:
                    rnd.input_requests = _questions(requests, raw)
                rnd.keep_request_models(requests or {})
                rnd.request_state = result.request_state
            else:
                rnd.outcome = "result"
                rnd.result = dict(raw) if raw is not None else wire(result)
    rnd.elapsed = time.perf_counter() - t0
    hand_on_http(capture, rnd)  # rnd.http = capture.http, the records still unbuilt (built when read)
    server_log = capture.server_log
    if server_log:  # else the round's own empty list stays (most legs log nothing)
        rnd.server_log = server_log
        if rnd.error is not None:
            rnd.error["reason"] = rejection_reason(server_log) or server_log[-1]
    served_by = capture.served_by
    if served_by is not None:
        rnd.served_by = served_by


def backchannel_hint(era: str, rnd: Round) -> str | None:
    """`BACKCHANNEL_HINT` when `rnd` failed because its handler used the back channel on a 2026-07-28 leg.

    The SDK answers `-32600 Cannot send 'elicitation/create': this transport context has no back-channel
    ...` (an error), and some servers turn the same exception into a tool's `isError` result.
    """
    if era == "2025-11-25":
        return None
    outcome = rnd.outcome
    if outcome == "input_required" or (outcome == "result" and not (rnd.result or {}).get("isError")):
        return None  # the common case, said without building the texts below (every leg asks)
    texts = [str((rnd.error or {}).get("message", ""))] if outcome == "error" else []
    if outcome == "result":
        content = (rnd.result or {}).get("content")
        parts = content if isinstance(content, list) else []
        texts += [str(c.get("text", "")) for c in parts if isinstance(c, dict)]
    return BACKCHANNEL_HINT if any("no back-channel" in text for text in texts) else None


def _transport_failure(exc: BaseException) -> bool:
    """The request never got an answer: the connection was refused, closed or broken (retryable)."""
    import httpx2

    if isinstance(exc, MCPError):
        return exc.error.code == CONNECTION_CLOSED and exc.error.message == "Connection closed"
    broken = (httpx2.TransportError, OSError, anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
    return isinstance(exc, (*broken, ConnectionFailed))


def _record_error(rnd: Round, exc: BaseException) -> None:
    # The SDK surfaces failures inside its task groups as ExceptionGroups; show the one underlying error.
    if isinstance(exc, BaseExceptionGroup):
        exc = _first_leaf(exc)
    rnd.outcome = "error"
    if isinstance(exc, MCPError):
        rnd.error = {"code": exc.error.code, "message": exc.error.message, "data": exc.error.data}
    elif isinstance(exc, ValidationError):
        rnd.error = {"code": None, "message": refused_result(exc), "where": "client"}
    else:
        text = str(exc) if isinstance(exc, LabError) else f"{type(exc).__name__}: {exc}"
        rnd.error = {"code": None, "message": text.splitlines()[0] if text else type(exc).__name__, "where": "client"}
    if _transport_failure(exc):
        rnd.error["where"] = "transport"


def refused_result(exc: ValidationError) -> str:
    """One line for a result the SDK client would not parse, with what the spec expects of it."""
    errors = exc.errors()
    missing = sorted({str(e["loc"][-1]) for e in errors if e.get("type") == "missing" and e.get("loc")})
    head = "the SDK client refused the server's result"
    if missing:
        return (
            f"{head}: it lacks {', '.join(missing)}; the spec reads a result without resultType as complete "
            "(resultType: 'complete'), and a complete result must carry those fields"
        )
    first = errors[0]["msg"] if errors else str(exc).splitlines()[0]
    return f"{head}: {first}"


def _first_leaf(group: BaseExceptionGroup[Any]) -> BaseException:
    exc: BaseException = group
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


@asynccontextmanager
async def _legacy_session(
    flow: Request, rnd: Round, connection: Connection, answerer: Answerer | None
) -> AsyncIterator[ClientSession]:
    # The open 2025-11-25 session, so SDK-style callbacks (CallbackAnswerer) get a live context here too:
    # one set of callbacks serves both generations.
    live: list[ClientSession] = []

    async def answer_backchannel(key: str, request: T.InputRequest) -> InputResponse | T.ErrorData:
        entry: BackchannelEntry = {"key": key, "kind": request_kind(request), "request": wire(request)}
        rnd.backchannel.append(entry)
        if answerer is None:
            entry["error"] = "no answerer"
            return T.ErrorData(code=-32603, message=f"mcp_lab has no answer for {key!r}")
        context = AnswerContext(
            server=flow.server,
            method=flow.method,
            target=flow.target,
            round_index=rnd.index,
            session=live[0] if live else None,
            backchannel=True,
        )
        try:
            response = await answerer.answer(key, request, context)
        except Unanswered:
            entry["error"] = "no answer"
            return T.ErrorData(code=-32603, message=f"mcp_lab has no answer for {key!r}")
        except CallbackRefused as refused:
            entry["error"] = str(refused)
            return refused.error
        except BaseException as exc:
            if isinstance(exc, Exception) or not escaping(exc):
                raise  # as before (the SDK answers the server), or a cancellation
            # A callback's SystemExit here would stop the event loop: it refuses this one request instead.
            entry["error"] = describe(exc)
            return T.ErrorData(code=-32603, message=f"the answer to {key!r} raised {describe(exc)}")
        entry["response"] = wire(response)
        return response

    async with connection.legacy_session(answer_backchannel) as session:
        live.append(session)
        yield session


def _call(flow: Request, session: ClientSession, responses: Any, state: str | None) -> Awaitable[Any]:
    """The SDK's request for this leg, to be awaited by the caller (a plain function: no coroutine frame of
    its own between the leg and the SDK)."""
    if flow.method == "tools/call":
        return session.call_tool(
            flow.target,
            flow.arguments or None,
            input_responses=responses,
            request_state=state,
            allow_input_required=True,
        )
    if flow.method == "prompts/get":
        return session.get_prompt(
            flow.target,
            {k: str(v) for k, v in flow.arguments.items()} or None,
            input_responses=responses,
            request_state=state,
            allow_input_required=True,
        )
    return session.read_resource(
        flow.target, input_responses=responses, request_state=state, allow_input_required=True
    )
