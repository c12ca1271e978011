"""Connecting to servers the kernel did not start: `mcp_lab.connect`, `disconnect`, the stdio log.

Spec context: any MCP server, reached over either standard transport; the client negotiates the protocol era
(`server/discover` for 2026-07-28, else the 2025-11-25 `initialize` handshake). This module parses what a
person gives (URL or command, environment, headers), registers the `OutsideServer` (outside.py) in the
sandbox under its name and starts connecting; failures become one `LabError` line.
"""

from __future__ import annotations

import asyncio
import os
import shlex
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import keep_out_of_records
from mcp_lab.given import check_text_map, shown
from mcp_lab.protocol.limits import check_timeout
from mcp_lab.servers.lab_server import check_name
from mcp_lab.servers.outside import KEYLESS_NOTE, OutsideServer, stdio_log_path
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.transports import read_log, stdio

if TYPE_CHECKING:
    from mcp_lab.servers.connection_view import ConnectionLog

__all__ = [
    "KEYLESS_NOTE",
    "OutsideServer",
    "connect",
    "connection_log",
    "disconnect",
    "open_connection",
    "parse_environment",
    "server_log",
]


def parse_environment(pairs: Sequence[str]) -> dict[str, str]:
    """`KEY=VALUE` words (from `--env`) as a dict; one clear error for anything else."""
    env: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise LabError(f"--env takes KEY=VALUE, not {pair!r}")
        env[key] = value
    return env


def open_connection(
    name: str,
    url: str | None = None,
    *,
    stdio: str | list[str] | None = None,
    legacy: bool = False,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 30.0,
    headers: Mapping[str, str] | None = None,
) -> OutsideServer:
    """Register `name` now and connect in the background (needs a running event loop); see `connect`."""
    check_name(name)
    _check_types(url, stdio, legacy, env, cwd, headers)
    if (url is None) == (stdio is None):
        raise LabError("give either a URL (Streamable HTTP) or stdio='COMMAND ARGS', not both or neither")
    if timeout is None or check_timeout(timeout) is None:
        raise LabError("timeout must be a positive number of seconds")
    if name in sandbox.servers:
        raise LabError(f"a server named {name!r} already exists; disconnect it first (%mcp_disconnect {name})")
    if url is not None:
        if not url.startswith(("http://", "https://")):
            raise LabError(f'not an http(s) URL: {url!r} (for a command use --stdio "COMMAND ARGS")')
        entry = OutsideServer(name=name, transport="http", url=url, legacy_only=legacy, timeout=timeout)
        entry.headers = {str(k): str(v) for k, v in (headers or {}).items()}
        keep_out_of_records(entry.headers)  # a credential by any name: its value never enters a flow or view
    elif headers:
        raise LabError("headers are for Streamable HTTP connections (a URL), not --stdio")
    else:
        try:
            command = shlex.split(stdio) if isinstance(stdio, str) else list(stdio or [])
        except ValueError as exc:
            raise LabError(f"could not parse the command: {exc}") from None
        if not command:
            raise LabError("the stdio command is empty")
        entry = OutsideServer(
            name=name,
            transport="stdio",
            command=command,
            legacy_only=legacy,
            env=dict(env or {}),
            cwd=cwd,
            timeout=timeout,
        )
        entry.log_path = stdio_log_path(name)
    asyncio.get_running_loop()  # a LabError-free RuntimeError before anything is registered
    # Re-running a connect replaces the earlier connection of that name; a server the lab started is never
    # replaced by a connection.
    sandbox.register(entry, replace=isinstance(sandbox.servers.get(name), OutsideServer))
    sandbox.begin_connect(entry)
    return entry


def _check_types(url: object, stdio: object, legacy: object, env: object, cwd: object, headers: object) -> None:
    """What each argument of `connect` must be: one clear line each, before anything is registered."""
    if url is not None and not isinstance(url, str):
        raise LabError(f"the URL is text such as 'http://127.0.0.1:8000/mcp', not {shown(url)}")
    words = stdio if isinstance(stdio, list | tuple) else None
    if stdio is not None and not isinstance(stdio, str) and (words is None or not all(isinstance(w, str) for w in words)):
        raise LabError(f"stdio= is a command line such as 'python server.py' (or a list of its words), not {shown(stdio)}")
    if not isinstance(legacy, bool):
        raise LabError(f"legacy= is True or False, not {shown(legacy)}")
    check_text_map(env, "env")
    check_text_map(headers, "headers")
    if cwd is not None:
        if not isinstance(cwd, str | os.PathLike) or not isinstance(os.fspath(cwd), str):
            raise LabError(f"cwd= is a directory path (str or pathlib.Path), not {shown(cwd)}")
        place = os.fspath(cwd)
        if "\0" in place:
            raise LabError(f"the working directory {shown(place)} contains a NUL byte (--cwd / cwd=)")
        if not os.path.isdir(place):  # else the SDK's spawn fails and the command itself looks missing
            what = "is not a directory" if os.path.exists(place) else "does not exist"
            raise LabError(f"the working directory {shown(place)} {what} (--cwd / cwd=)")


async def connect(
    name: str,
    url: str | None = None,
    *,
    stdio: str | list[str] | None = None,
    legacy: bool = False,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 30.0,
    headers: Mapping[str, str] | None = None,
) -> OutsideServer:
    """Connect to a server the kernel did not start, by URL or `stdio="COMMAND ARGS"`, and register it as `name`.

    The client negotiates the era (2026-07-28 when the server offers it); `legacy=True` forces 2025-11-25.
    `headers` go with every HTTP request (a server's bearer secret: `{"Authorization": "Bearer ..."}`).
    """
    entry = open_connection(name, url, stdio=stdio, legacy=legacy, env=env, cwd=cwd, timeout=timeout, headers=headers)
    await entry.ready()
    return entry


async def disconnect(name: str) -> None:
    """Close a connection (a stdio server process is stopped and reaped) and forget it."""
    entry = sandbox.get(name)
    if not isinstance(entry, OutsideServer):
        raise LabError(f"{name!r} is a server the lab started, not a connection; use %mcp_server stop {name}")
    await sandbox.stop(name)


def connection_log(name: str) -> str:
    """The stderr log of a stdio connection (kept after it ended, until the kernel exits)."""
    entry = sandbox.servers.get(name)
    path = entry.log_path if isinstance(entry, OutsideServer) else stdio.logs.get(name)
    if path is None:
        if isinstance(entry, OutsideServer):
            raise LabError(f"{name!r} is a Streamable HTTP connection: its server's log lives with that server")
        raise LabError(f"no stdio connection named {name!r} (now or earlier in this kernel)")
    return read_log(path)[0]


def server_log(name: str) -> ConnectionLog:
    """What server `name` logged while the lab ran it (and, for a stdio connection, what it wrote to stderr)."""
    from mcp_lab.servers.connection_view import ConnectionLog
    from mcp_lab.servers.log_book import log_lines

    if not isinstance(name, str):
        sandbox.get(name)  # the one-line "a server is named by text" error
    entry = sandbox.servers.get(name)
    lines = log_lines(name)
    if entry is None and not lines:
        sandbox.get(name)  # the one-line "no server named ..." error
    text = ""
    if isinstance(entry, OutsideServer) and entry.transport == "stdio":
        text = connection_log(name)
    if lines:
        text += ("\n" if text and not text.endswith("\n") else "") + "\n".join(lines) + "\n"
    return ConnectionLog(name, text, empty=f"({name!r} has logged nothing the lab kept)")
