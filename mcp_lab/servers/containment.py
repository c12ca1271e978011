"""A handler that raises `SystemExit` or `KeyboardInterrupt` fails its request, like any other handler error.

Spec context: JSON-RPC errors. The SDK turns a handler's `Exception` into the frozen `-32603 Internal server
error` (and logs it), but lets every other `BaseException` through. In a notebook that is fatal: a tool that
calls `sys.exit()` or raises `KeyboardInterrupt` runs inside an asyncio task -- the flow's, in-process, or a
request task of the serving thread over HTTP -- and asyncio re-raises those two out of the event loop itself.
In-process the kernel's loop stopped (every later cell hung, Interrupt did nothing); over HTTP the serving
thread died with a long traceback. `Containment` sits outermost in every lab server's middleware chain and
turns such an escape into an ordinary exception (`HandlerExit`, chained to the original) before any task
boundary sees it, so the SDK answers -32603 as for any failing handler and the lab's server log records the
one-line reason (`SystemExit: 3`). Cancellation is never touched: it must reach the code that asked for it.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

__all__ = ["Containment", "HandlerExit", "contain", "describe", "escaping"]


class HandlerExit(RuntimeError):
    """A request handler raised a `BaseException` that is not an `Exception` (SystemExit, KeyboardInterrupt)."""


def escaping(exc: BaseException) -> bool:
    """`exc` would escape `except Exception` and is not a cancellation (nor a generator closing)."""
    if isinstance(exc, Exception | GeneratorExit | anyio.get_cancelled_exc_class()):
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


class Containment:
    """Outermost server middleware: a handler's SystemExit / KeyboardInterrupt becomes `HandlerExit`."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        try:
            return await call_next(ctx)
        except BaseException as exc:
            if not escaping(exc):
                raise
            raise contain(exc, f"the {ctx.method} handler") from exc

    @classmethod
    def install(cls, chain: list[Any]) -> None:
        """Put one `Containment` first in a server's middleware `chain` (idempotent)."""
        if not any(isinstance(m, cls) for m in chain):
            chain.insert(0, cls())
