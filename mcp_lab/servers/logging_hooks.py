"""What the lab puts on Python's logging and warnings, put there when the extension loads and taken off when
it unloads -- never when a module is imported.

Spec context: request_state rejection reasons. The wire says only "Invalid or expired requestState"; the
SDK's boundary logs the real reason ("requestState rejected on tools/call: expired") on the
`mcp.server.request_state` logger. The lab owns the server, so it keeps that reason with the leg it belongs
to (the flow view shows it beside the wire error) instead of letting it print into the cell's stderr. Two
groups of hooks:

- the legs' hooks (`install_leg_hooks`): the rejection reasons and a handler's exception (one line, not a
  36-line traceback) go to the legs running now. Lab servers need them, so without the extension loaded --
  a CLI, a script calling `mcp_lab.call` -- the first lab server made installs them (and a leg run after
  an unload puts them back);
- the cells' hooks (`install_cell_hooks`): the SDK's "Tool already exists" said once as one short line, and
  pydantic's serializer warnings raised during a lab leg kept in that server's log. Only the extension
  installs these: a script sees the SDK's logging and Python's warnings as they are.

`install()` / `uninstall()` put both on and take everything off again (also the root logger's router,
servers/log_book.py), so `%reload_ext mcp_lab` leaves one of each.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping

from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import current_capture
from mcp_lab.servers.log_book import server_logs, uninstall_root_router
from mcp_lab.servers.sdk_notices import DUPLICATE_LOGGERS, DuplicateNotice, ServerWarnings
from mcp_lab.servers.server_log import HandlerErrorFilter

__all__ = [
    "REQUEST_STATE_LOGGER",
    "LegLogSink",
    "LoggingHooks",
    "hooks",
    "install",
    "install_cell_hooks",
    "install_leg_hooks",
    "uninstall",
]

REQUEST_STATE_LOGGER = "mcp.server.request_state"
"""The boundary logs "requestState rejected on <method>: <reason>" (mcp 2.3.0 `_reject`)."""


class LegLogSink(logging.Handler):
    """Routes the server's request_state rejection reasons to the legs running now."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def legs(self) -> list[LegCapture]:
        """The legs a server log record belongs to: the one whose request the server is handling, when the
        context says so, else every leg running now."""
        own = current_capture()
        active = server_logs.capturing
        return [own] if own is not None and any(c is own for c in active) else list(active)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        for capture in self.legs():
            capture.server_log.append(message)


class LoggingHooks:
    """What the lab put on Python's logging and warnings, so that it can take it off again."""

    def __init__(self) -> None:
        self.leg_sink: LegLogSink | None = None
        """On `mcp.server.request_state`: the server's rejection reasons go to the legs running now."""
        self.propagate_before = True
        """`mcp.server.request_state`'s `propagate` before the lab set it to False."""
        self.handler_errors: HandlerErrorFilter | None = None
        """On the SDK loggers that log a handler's exception: one line in the leg instead of a traceback."""
        self.duplicates: DuplicateNotice | None = None
        """On the SDK's manager loggers: "Tool already exists" said once, as one line."""
        self.server_warnings: ServerWarnings | None = None
        """`warnings.showwarning` while the extension is loaded (it holds the one it replaced)."""


hooks = LoggingHooks()
"""The process's one record of installed hooks (part of `mcp_lab.servers.registry`)."""


def install_leg_hooks() -> None:
    """Rejection reasons and handler exceptions to the legs running now (once: a second call does nothing)."""
    if hooks.leg_sink is not None:
        return
    sink = LegLogSink()
    state_logger = logging.getLogger(REQUEST_STATE_LOGGER)
    state_logger.addHandler(sink)
    # The lab shows these reasons in the flow view; without this they would also print to the cell's stderr.
    hooks.propagate_before, state_logger.propagate = state_logger.propagate, False
    errors = HandlerErrorFilter(sink.legs)
    errors.install()
    hooks.leg_sink, hooks.handler_errors = sink, errors


def install_cell_hooks(servers: Mapping[str, object]) -> None:
    """The SDK's duplicate-name warnings and pydantic's serializer warnings stay out of cells (once).
    `servers`: the sandbox's servers by name (a duplicate's server is found among them)."""
    if hooks.duplicates is None:
        notice = DuplicateNotice(servers)
        for name in DUPLICATE_LOGGERS:
            logging.getLogger(name).addFilter(notice)
        hooks.duplicates = notice
    if hooks.server_warnings is None:
        hooks.server_warnings = ServerWarnings(warnings.showwarning)
        warnings.showwarning = hooks.server_warnings


def install(servers: Mapping[str, object]) -> None:
    install_leg_hooks()
    install_cell_hooks(servers)


def uninstall() -> None:
    """Take off everything `install` (or a leg, or a server's own logging setup) put on."""
    if hooks.leg_sink is not None:
        state_logger = logging.getLogger(REQUEST_STATE_LOGGER)
        state_logger.removeHandler(hooks.leg_sink)
        state_logger.propagate = hooks.propagate_before
        hooks.leg_sink = None
    if hooks.handler_errors is not None:
        hooks.handler_errors.uninstall()
        hooks.handler_errors = None
    if hooks.duplicates is not None:
        for name in DUPLICATE_LOGGERS:
            logging.getLogger(name).removeFilter(hooks.duplicates)
        hooks.duplicates = None
    if hooks.server_warnings is not None:
        if warnings.showwarning is hooks.server_warnings:  # else someone wrapped it since: theirs stays
            warnings.showwarning = hooks.server_warnings.previous
        hooks.server_warnings = None
    uninstall_root_router()
