"""A leg's result as the SDK received it: the JSON-RPC result's plain data, kept as the record instead of
writing the SDK's model back out.

Spec context: 2026-07-28 multi round-trip requests. A leg's record holds its final result, or an
`InputRequiredResult`'s questions, in their wire form. The SDK's dispatcher hands its session that result as
plain data, and the session validates it into a model; writing the model back out (pydantic's serializer,
cold at every leg: nothing else in a call uses it) was the largest piece of recording a leg after packing
the flow. So a leg keeps the plain data itself. It is what arrived: a field the SDK's model does not know,
or a null it would drop, is in the record too. The leg copies its top (legs.py): the SDK's dispatcher holds
the message it read last until the next one arrives, and a record must be the flow's alone to be packed.

How: the leg's session's dispatcher is wrapped once (`keep_received`). The wrapper notes the last result of
those three methods, with the task that sent the request, and `received` takes it back once the leg's request
has returned, if that task is the one asking. A task sends one leg at a time, and between its request and the
session's return it sends nothing else of those methods (a `tools/list` that checks an output schema is
another method). Another task's request may land in between only when the session awaits something there;
then the note is not this task's, and the leg writes its model out as before. One note per dispatcher, not
one per task: a request sent outside a leg (the audit's, a person's own on the session) leaves at most one.
Like `audit/reach.py`, this reaches into the SDK's session (`_dispatcher`; mcp is pinned).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from mcp.client.session import ClientSession

from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.eras import METHODS

__all__ = ["keep_received", "received"]

_NOTE = "_mcp_lab_received"
"""The attribute a wrapped dispatcher holds its note in: [the task that sent the request, its result]."""
_KEPT = frozenset(METHODS)


def keep_received(session: ClientSession) -> None:
    """Make `session`'s dispatcher note the results of the methods a flow sends (wrapped once per session), and
    forget a note this task left before (so a leg never takes back an older request's result as its own)."""
    dispatcher = session._dispatcher
    noted: list[Any] | None = getattr(dispatcher, _NOTE, None)
    if noted is not None:
        if noted[0] is asyncio.current_task():
            noted[0] = noted[1] = None
        return
    note: list[Any] = [None, None]
    send = dispatcher.send_raw_request

    async def send_raw_request(method: str, params: Mapping[str, Any] | None, *args: Any, **kwargs: Any) -> Any:
        raw = await send(method, params, *args, **kwargs)
        if method in _KEPT and type(raw) is dict:
            note[0], note[1] = asyncio.current_task(), raw
        return raw

    setattr(dispatcher, "send_raw_request", send_raw_request)  # noqa: B010  # an instance's method, replaced
    setattr(dispatcher, _NOTE, note)


def received(session: ClientSession | None) -> JsonObject | None:
    """The result `session` last received for this task's request, taken back (None: none noted for it)."""
    if session is None:
        return None
    note: list[Any] | None = getattr(session._dispatcher, _NOTE, None)
    if note is None or note[0] is None or note[0] is not asyncio.current_task():
        return None
    raw: JsonObject = note[1]
    note[0] = note[1] = None
    return raw
