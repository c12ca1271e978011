"""A lab server's own error reason, as one line in the leg it belongs to -- not a traceback on stderr.

Spec context: JSON-RPC errors. When a handler raises something other than an `MCPError` (an unknown prompt,
a missing prompt argument, a bug in a tool's resolver), the SDK answers the frozen `-32603 Internal server
error` -- handler internals never reach the wire -- and logs the exception with its traceback
(`logger.exception`) on the server side. For a server the kernel runs, that traceback printed 36 lines into
the cell while the flow said only "-32603". The lab owns the server, so, as it does for request_state
rejection reasons, it keeps the server's reason -- `ValueError: Unknown prompt: nosuch` -- with the leg
that caused it (the flow view shows it beside the wire error) and keeps the traceback away from the root
logger's handlers (the kernel's stderr). A handler you put on the SDK's loggers yourself (on `mcp.server`,
say) still gets the record; outside a lab leg (your own `Client(server)` in a cell) the SDK's logging is
left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from mcp_lab.exchanges.record import LegCapture

__all__ = ["HANDLER_LOGGERS", "HandlerErrorFilter", "one_line"]

HANDLER_LOGGERS = (
    "mcp.shared.direct_dispatcher",  # in-process: "request handler raised"
    "mcp.server.runner",  # 2026-07-28 over HTTP: "modern request handler raised"
    "mcp.shared.jsonrpc_dispatcher",  # 2025-11-25 sessions: "handler for 'prompts/get' raised"
    "mcp.server.mcpserver.server",  # "Tool 'x' raised an unexpected exception"
    "mcp_lab.servers.containment",  # the lab's: a task a handler started and nobody awaited raised SystemExit
)
"""The SDK loggers (mcp 2.3.0) that log a request handler's exception (and the lab's one of the kind)."""


def one_line(record: logging.LogRecord) -> str:
    """`ValueError: Unknown prompt: nosuch` -- the root cause (the SDK wraps a tool's exception in its own
    `UnexpectedToolError: Error executing tool ...`; a task group its own group), or the message when there
    is no exception."""
    exc = record.exc_info[1] if record.exc_info else None
    if exc is None:
        return record.getMessage().splitlines()[0]
    seen = {id(exc)}
    while True:
        # The cause, or a task group's one failure (its group says only "unhandled errors in a TaskGroup").
        inner = exc.__cause__
        if inner is None and isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            inner = exc.exceptions[0]
        if inner is None or id(inner) in seen:
            break
        exc = inner
        seen.add(id(exc))
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class HandlerErrorFilter(logging.Filter):
    """Moves handler exceptions logged during lab legs into those legs' `server_log` (one line each)."""

    def __init__(self, legs: Callable[[], list[LegCapture]]) -> None:
        super().__init__()
        self._legs = legs
        """The captures the record belongs to (the current leg's, else every active one); [] outside legs."""

    def filter(self, record: logging.LogRecord) -> bool:
        legs = self._legs()
        if not legs or record.levelno < logging.WARNING:
            return True
        line = one_line(record)
        for capture in legs:
            capture.server_log.append(line)
        _to_sdk_handlers(record)
        return False

    def install(self) -> None:
        for name in HANDLER_LOGGERS:
            logger = logging.getLogger(name)
            if self not in logger.filters:
                logger.addFilter(self)

    def uninstall(self) -> None:
        for name in HANDLER_LOGGERS:
            logging.getLogger(name).removeFilter(self)


def _to_sdk_handlers(record: logging.LogRecord) -> None:
    """Hand `record` to the handlers on the SDK's own loggers (`mcp`, `mcp.server`, ...) -- someone put
    them there to see these records -- but not to the root's (or Python's last resort: the cell's stderr)."""
    logger: logging.Logger | None = logging.getLogger(record.name)
    while logger is not None and logger is not logging.root:
        for handler in logger.handlers:
            if record.levelno >= handler.level:
                handler.handle(record)
        if not logger.propagate:
            break
        logger = logger.parent
