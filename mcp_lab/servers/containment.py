"""A handler that raises `SystemExit` or `KeyboardInterrupt` fails its request, like any other handler error.

Spec context: JSON-RPC errors. The SDK turns a handler's `Exception` into the frozen `-32603 Internal server
error` (and logs it), but lets every other `BaseException` through. In a notebook that is fatal: a tool that
calls `sys.exit()` or raises `KeyboardInterrupt` runs inside an asyncio task -- the flow's, in-process, or a
request task of the serving thread over HTTP -- and asyncio re-raises those two out of the event loop itself.
In-process the kernel's loop stopped (every later cell hung, Interrupt did nothing); over HTTP the serving
thread died with a long traceback. `contain_handlers` wraps every handler of a lab server so that such an
escape becomes an ordinary exception (`HandlerExit`, chained to the original) before any task boundary sees
it: the SDK answers -32603 as for any failing handler, and the lab's server log records the one-line reason
(`SystemExit: 3`). Cancellation is never touched: it must reach the code that asked for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from mcp.server.lowlevel.server import HandlerEntry

__all__ = ["HandlerExit", "contain", "contain_handlers", "describe", "escaping"]


class HandlerExit(RuntimeError):
    """A request handler raised a `BaseException` that is not an `Exception` (SystemExit, KeyboardInterrupt)."""


def escaping(exc: BaseException) -> bool:
    """`exc` would escape `except Exception` and is not a cancellation (nor a generator closing)."""
    if isinstance(exc, Exception | GeneratorExit | asyncio.CancelledError):  # anyio cancels with the latter
        return False
    if isinstance(exc, BaseExceptionGroup):
        return any(escaping(inner) for inner in exc.exceptions)
    return True


def describe(exc: BaseException) -> str:
    """`SystemExit: 3`, `KeyboardInterrupt` -- one line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def contain(exc: BaseException, what: str) -> HandlerExit:
    """The ordinary exception that stands for `exc` (raise it `from exc`)."""
    return HandlerExit(f"{what} raised {describe(exc)}")


def contain_handlers(server: Any) -> None:
    """Make every request and notification handler of the lowlevel `server` fail with `HandlerExit` instead
    of letting SystemExit / KeyboardInterrupt escape -- also handlers registered later (idempotent).

    The entries are wrapped as the runner looks them up, on this server object alone, so its middleware
    chain (which tutorials print) stays what its author made."""
    if getattr(server, _MARK, False):
        return
    wrapped: dict[int, tuple[HandlerEntry[Any], HandlerEntry[Any]]] = {}

    def lookup(find: Callable[[str], HandlerEntry[Any] | None]) -> Callable[[str], HandlerEntry[Any] | None]:
        def contained_entry(method: str) -> HandlerEntry[Any] | None:
            entry = find(method)
            if entry is None:
                return None
            known = wrapped.get(id(entry))
            if known is None or known[0] is not entry:
                known = wrapped[id(entry)] = (entry, replace(entry, handler=_contained(entry.handler, method)))
            return known[1]

        return contained_entry

    server.get_request_handler = lookup(server.get_request_handler)
    server.get_notification_handler = lookup(server.get_notification_handler)
    setattr(server, _MARK, True)


_MARK = "_mcp_lab_contained"


def _contained(handler: Callable[..., Awaitable[Any]], method: str) -> Callable[..., Awaitable[Any]]:
    async def run(ctx: object, params: object) -> object:
        try:
            return await handler(ctx, params)
        except BaseException as exc:
            if not escaping(exc):
                raise
            raise contain(exc, f"the {method} handler") from exc

    return run
