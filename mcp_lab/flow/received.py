"""A leg's result as the SDK received it: the JSON-RPC result's plain data, kept as the record instead of
writing the SDK's model back out.

Spec context: 2026-07-28 multi round-trip requests. A leg's record holds its final result, or an
`InputRequiredResult`'s questions, in their wire form. The SDK's dispatcher hands its session that result as
plain data, and the session validates it into a model; writing the model back out (pydantic's serializer,
cold at every leg: nothing else in a call uses it) was the largest piece of recording a leg after packing
the flow. So a leg keeps the plain data itself. It is what arrived: a field the SDK's model does not know,
or a null it would drop, is in the record too. The leg copies its top (legs.py): the SDK's dispatcher holds
the message it read last until the next one arrives, and a record must be the flow's alone to be packed.

How: the leg's session's dispatcher is wrapped once (`keep_received`). Before its request a leg sets a slot of
its own in its context, and the wrapper puts the result of those three methods into the slot of the context
that sent the request; `received` takes it out once the request has returned. Flows running side by side run
in tasks of their own, each with its own context, so each leg finds its own result; a request sent outside a
leg (the audit's, a person's own on the session) finds no slot and leaves nothing behind.

Like `audit/reach.py`, this reaches into the SDK's session (`_dispatcher`; mcp is pinned).
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from typing import Any

from mcp.client.session import ClientSession

from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.eras import METHODS

__all__ = ["keep_received", "received"]

_WRAPPED = "_mcp_lab_received"
"""Set on a dispatcher whose `send_raw_request` is wrapped."""
_KEPT = frozenset(METHODS)
_SLOT: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar("mcp_lab_received", default=None)
"""The running leg's slot for its result, in the context that sends its request (None: no leg is running)."""


def keep_received(session: ClientSession) -> list[Any]:
    """A slot for the result of the request this context sends next on `session` (its dispatcher wrapped
    once, so it puts the results of the methods a flow sends into the slot of the context that sent them)."""
    dispatcher = session._dispatcher
    if not hasattr(dispatcher, _WRAPPED):
        send = dispatcher.send_raw_request

        async def send_raw_request(method: str, params: Mapping[str, Any] | None, *args: Any, **kwargs: Any) -> Any:
            raw = await send(method, params, *args, **kwargs)
            if method in _KEPT and type(raw) is dict:
                slot = _SLOT.get()
                if slot is not None:
                    slot[0] = raw
            return raw

        setattr(dispatcher, "send_raw_request", send_raw_request)  # noqa: B010  # an instance's method, replaced
        setattr(dispatcher, _WRAPPED, True)
    slot: list[Any] = [None]
    _SLOT.set(slot)
    return slot


def received(slot: list[Any] | None) -> JsonObject | None:
    """The result that landed in `slot` (`keep_received`'s), taken out; None when none did. The context's slot
    is cleared: requests sent after the leg land nowhere."""
    if slot is None:
        return None
    _SLOT.set(None)
    raw: JsonObject | None = slot[0]
    slot[0] = None
    return raw
