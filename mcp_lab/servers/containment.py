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

A handler's own body is not the only place: a tool that starts a task (`asyncio.create_task`, an anyio task
group) runs that task's code at the same task boundary, where a SystemExit stopped the kernel's loop just the
same (every later cell hung). So the running loop gets a task factory, put on once, that wraps the coroutine
of every task started from inside a lab handler (a context variable says so; tasks inherit it) the same way:
an awaited task fails with `HandlerExit`, and so does the handler awaiting it; a task nobody awaits ends with
one logged line instead of asyncio's "exception was never retrieved" traceback. Tasks started anywhere else
are made exactly as before (by the factory that was there, if any).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from mcp.server import Server
from mcp.server.context import HandlerResult, ServerRequestContext
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


_L = TypeVar("_L")  # the server's lifespan result
_T = TypeVar("_T")


class _Lookup(Protocol[_L]):
    """`Server.get_request_handler` / `get_notification_handler`."""

    def __call__(self, method: str) -> HandlerEntry[_L] | None: ...


def contain_handlers(server: Server[_L]) -> None:
    """Make every request and notification handler of the lowlevel `server` fail with `HandlerExit` instead
    of letting SystemExit / KeyboardInterrupt escape -- also handlers registered later (idempotent).

    The entries are wrapped as the runner looks them up, on this server object alone, so its middleware
    chain (which tutorials print) stays what its author made."""
    if getattr(server, _MARK, False):
        return
    wrapped: dict[int, tuple[HandlerEntry[_L], HandlerEntry[_L]]] = {}

    def lookup(find: _Lookup[_L]) -> _Lookup[_L]:
        def contained_entry(method: str) -> HandlerEntry[_L] | None:
            entry = find(method)
            if entry is None:
                return None
            known = wrapped.get(id(entry))
            if known is None or known[0] is not entry:
                known = wrapped[id(entry)] = (entry, replace(entry, handler=_contained(entry.handler, method)))
            return known[1]

        return contained_entry

    # On this object only (the class stays the SDK's): the runner looks every handler up through these.
    server.get_request_handler = lookup(server.get_request_handler)  # type: ignore[method-assign]
    server.get_notification_handler = lookup(server.get_notification_handler)  # type: ignore[method-assign]
    setattr(server, _MARK, True)


_MARK = "_mcp_lab_contained"


_HANDLING: ContextVar[str | None] = ContextVar("mcp_lab_handling", default=None)
"""The method whose lab handler runs in this context (and in every task started from it), else None."""

_logger = logging.getLogger(__name__)


_Handler = Callable[[ServerRequestContext[_L], object], Awaitable[HandlerResult]]
"""A request or notification handler as an entry holds it (its params' type is the entry's `params_type`)."""


def _contained(handler: _Handler[_L], method: str) -> _Handler[_L]:
    async def run(ctx: ServerRequestContext[_L], params: object) -> HandlerResult:
        _guard_tasks(asyncio.get_running_loop())
        token = _HANDLING.set(method)
        try:
            return await handler(ctx, params)
        except BaseException as exc:
            if not escaping(exc):
                raise
            raise contain(exc, f"the {method} handler") from exc
        finally:
            _HANDLING.reset(token)

    return run


class _TaskGuard:
    """A loop's task factory: tasks started inside a lab handler get their coroutine contained."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous

    def __call__(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        context = kwargs.get("context")
        method = context.get(_HANDLING) if context is not None else _HANDLING.get()
        guarded = method is not None and asyncio.iscoroutine(coro)
        if guarded:
            coro = _guarded(coro, method)
        if self.previous is not None:
            task: asyncio.Future[Any] = self.previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        return task


def _guard_tasks(loop: asyncio.AbstractEventLoop) -> None:
    factory = loop.get_task_factory()
    if not isinstance(factory, _TaskGuard):
        loop.set_task_factory(_TaskGuard(factory))


async def _guarded(coro: Coroutine[object, object, _T], method: str | None) -> _T:
    try:
        return await coro
    except BaseException as exc:
        if not escaping(exc):
            raise
        task = asyncio.current_task()
        if task is not None:  # this task's own end: said in one line if nobody awaits it
            task.add_done_callback(_note_unawaited)
        raise contain(exc, f"a task the {method} handler started") from exc


def _note_unawaited(task: asyncio.Future[object]) -> None:
    # Whoever awaits the task is woken by a callback scheduled after this one; look once they have run.
    task.get_loop().call_soon(_report_if_unretrieved, task)


def _report_if_unretrieved(task: asyncio.Future[object]) -> None:
    if getattr(task, "_log_traceback", False):  # nobody took the exception: asyncio would print a traceback
        exc = task.exception()  # taken now: asyncio's "never retrieved" traceback is not printed
        _logger.warning("%s", exc)  # server_log.py: one line in the leg running now
