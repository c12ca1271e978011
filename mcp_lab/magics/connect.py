"""`%mcp_connect` and `%mcp_disconnect`: parse, then delegate to connect.py. Nothing else lives here.

Spec context: any MCP server reached over Streamable HTTP or stdio, joined to the lab's sandbox so every call
magic works with it. Magic functions are synchronous and cannot await: the connection registers at once and
connects as a task, and the magic returns a `Pending` -- `c = await %mcp_connect ...` waits for it (errors are
one line), a bare `%mcp_connect ...` shows "connecting..." and then the connection, in place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, TypeVar

from IPython.core.magic import Magics, line_magic, magics_class, no_var_expand
from IPython.core.magic_arguments import argument, magic_arguments
from IPython.display import DisplayHandle, display

from mcp_lab.errors import LabError
from mcp_lab.magics.magic_line import expand_for, magic_args, refuse_options, shell_words
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.shown_task import ShownTask

if TYPE_CHECKING:  # connect.py (transports, stdio) is imported by the first %mcp_connect, not at %load_ext
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["ConnectMagics", "Pending"]

USAGE = (
    '%mcp_connect NAME URL [--legacy] | %mcp_connect NAME --stdio "COMMAND ARGS" [--env K=V] | %mcp_connect log NAME'
)


_T = TypeVar("_T")


class Pending(ShownTask[_T]):
    """A task started by a magic: await it for its value, or display it to see it finish in place (`shown`
    turns the value into what is displayed)."""

    def __init__(self, work: Coroutine[object, object, _T], label: str, shown: Callable[[_T], object]) -> None:
        super().__init__(work, label)
        self._shown = shown
        self._handle: DisplayHandle | None = None
        self.task.add_done_callback(self._finished)

    def _ipython_display_(self) -> None:
        if self.task.done():
            _show(self._outcome())
            return
        self._handle = _show(f"{self.label}...", display_id=True)

    def _outcome(self) -> object:
        ending, value = self.ending()  # also marks a failure as retrieved when nobody awaits it
        if ending == "cancelled":
            return f"{self.label}: cancelled"
        if ending == "failed":
            return str(value)
        return self._shown(value)

    def _finished(self, _: asyncio.Task[_T]) -> None:
        outcome = self._outcome()
        if self._handle is not None:
            # A live frontend replaces the display in place (nbclient only sees updates sent during its cell).
            if isinstance(outcome, str):
                self._handle.update({"text/plain": outcome}, raw=True)
            else:
                self._handle.update(outcome)


def _show(value: object, display_id: bool = False) -> DisplayHandle | None:
    """Strings as plain text (not their repr, with quotes); objects through their own bundle."""
    handle: DisplayHandle | None  # IPython's display() is untyped: a handle only when display_id is asked for
    if isinstance(value, str):
        handle = display({"text/plain": value}, raw=True, display_id=display_id)
    else:
        handle = display(value, display_id=display_id)
    return handle


def _unquote(value: str | None) -> str | None:
    """The argument splitter keeps the quotes around `--stdio "COMMAND ARGS"`, as IPython's does; drop the outer pair."""
    if value is not None and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


async def _connected(entry: OutsideServer) -> OutsideServer:
    await entry.ready()
    return entry


@magics_class
class ConnectMagics(Magics):
    """Servers the kernel did not start."""

    @no_var_expand
    @magic_arguments()
    @argument("name", help="the server's name in the lab (or `log`, then a stdio connection's name)")
    @argument("url", nargs="?", help="a Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")
    @argument("--stdio", metavar='"COMMAND ARGS"', help="start the server as a subprocess, over stdio")
    @argument("--legacy", action="store_true", help="speak 2025-11-25 only (the pre-2026 back channel)")
    @argument("--env", action="append", default=[], metavar="KEY=VALUE", help="environment for --stdio")
    @argument("--cwd", help="working directory for --stdio")
    @argument("--timeout", type=float, default=30.0, help="seconds to wait for the server (default 30)")
    @argument(
        "--header",
        action="append",
        default=[],
        metavar='"NAME: VALUE"',
        help="an HTTP header sent with every "
        'request, e.g. --header "Authorization: Bearer TOKEN", or --header {line} for a header line held in a '
        "variable (quoted text is sent as typed; the value is never shown or recorded)",
    )
    @line_magic
    def mcp_connect(self, line: str) -> object:
        """Connect to a server the kernel did not start; it joins `%mcp_server list` and every call magic.

        %mcp_connect NAME URL [--legacy]
        %mcp_connect NAME --stdio "COMMAND ARGS" [--env KEY=VALUE ...] [--cwd DIR] [--legacy]
        %mcp_connect log NAME      (what a stdio server wrote to stderr)
        """
        from mcp_lab.servers.connect import connection_log, open_connection, parse_environment
        from mcp_lab.servers.connection_view import ConnectionLog
        from mcp_lab.servers.credentials import header_arguments

        args = magic_args(self.shell, self.mcp_connect, line)
        args.stdio, args.cwd = _unquote(args.stdio), _unquote(args.cwd)
        args.env = [_unquote(pair) for pair in args.env]
        args.header = [_unquote(line) for line in args.header]
        if args.name == "log" and args.url and "://" not in args.url and not args.stdio:
            refuse_options(self.mcp_connect, args, "%mcp_connect log NAME")
            return ConnectionLog(args.url, connection_log(args.url))
        if bool(args.url) == bool(args.stdio):
            raise LabError(f"usage: {USAGE}")
        if args.env and not args.stdio:
            raise LabError("--env is for --stdio servers")
        entry = open_connection(
            args.name,
            args.url,
            stdio=args.stdio,
            legacy=args.legacy,
            env=parse_environment(args.env),
            cwd=args.cwd,
            timeout=args.timeout,
            headers=header_arguments(args.header),
        )
        return Pending(_connected(entry), f"connecting {args.name!r}", lambda e: e)

    @no_var_expand
    @line_magic
    def mcp_disconnect(self, line: str) -> object:
        """%mcp_disconnect NAME -- close a connection (a stdio server process is stopped and reaped)."""
        words = shell_words(expand_for(self.shell, line))
        if len(words) != 1:
            raise LabError("usage: %mcp_disconnect NAME")
        name = words[0]
        from mcp_lab.servers.outside import OutsideServer

        entry = sandbox.get(name)
        if not isinstance(entry, OutsideServer):
            raise LabError(f"{name!r} is a server the lab started, not a connection; use %mcp_server stop {name}")
        sandbox.forget(entry)  # gone for every later cell at once; the close finishes as a task
        return Pending(entry.close_clients(), f"disconnecting {name!r}", lambda _: f"disconnected {name!r}")
