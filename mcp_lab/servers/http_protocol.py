"""The HTTP/1.1 protocol the lab's servings speak: uvicorn's h11 one, with a bound on receiving a request.

Spec context: none of MCP's -- serving Streamable HTTP from a kernel. uvicorn closes an idle keep-alive
connection only after it has answered a request on it (`timeout_keep_alive`); a connection that sends
nothing, or half a request line, headers without their end, or a body shorter than its Content-Length, it
holds for as long as the client likes, each one a socket and a task in the serving thread. Here every
request must arrive whole within `REQUEST_TIMEOUT` seconds of its first byte (of the connection, for the
first one); otherwise the connection is closed. Responses are not bounded: a 2025-11-25 GET stream or a
tool that waits for a person may take as long as it takes once the request is in.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

__all__ = ["REQUEST_TIMEOUT", "bounded_h11"]

REQUEST_TIMEOUT = 30.0
"""Seconds a client has to send a whole request (line, headers and body); a loopback client needs far less."""


@functools.cache
def bounded_h11() -> type[Any]:
    """uvicorn's `H11Protocol` with the request bound (built on first use: uvicorn is imported lazily)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    received = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)

    class BoundedH11Protocol(H11Protocol):  # type: ignore[misc]
        _request_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()  # a connection that never sends a byte is a request that never arrives

        def data_received(self, data: bytes) -> None:
            if self._request_timer is None and self.conn.their_state not in received:
                self._arm()  # the next request on a kept-alive connection begins
            super().data_received(data)
            if self.conn.their_state in received:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state not in received and self.conn.trailing_data[0]:
                self._arm()  # the next request had begun arriving already (pipelined): it is bounded too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._request_timer = self.loop.call_later(REQUEST_TIMEOUT, self._request_timed_out)

        def _disarm(self) -> None:
            timer, self._request_timer = self._request_timer, None
            if timer is not None:
                timer.cancel()

        def _request_timed_out(self) -> None:
            self._request_timer = None
            if self.conn.their_state not in received and not self.transport.is_closing():
                self.transport.close()

    return BoundedH11Protocol
