"""What an instance process imports: a module of the user's (`module:attribute`) or a `%%mcp_server` cell.

Spec context: a deployed server is code a process imports; a notebook's server lives in a cell. A cell's body
is written, as it is, into a module file in the fleet's private directory, after the two lines the cell
magic stands for (`from mcp.server.mcpserver import MCPServer` and `mcp = MCPServer(NAME)`), so each instance
builds the same server the cell built -- in its own process, with its own default key. A cell that needs
names from the notebook's namespace cannot be imported there, and the instance says so in one line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_lab.errors import LabError

__all__ = [
    "ServerSource",
    "ServerSources",
    "cell_source",
    "remember_adopted",
    "remember_cell",
    "resolve_source",
    "server_sources",
]

_CELL = re.compile(r"^\s*%%mcp_server[ \t]+(\S+)(.*)$")


class ServerSources:
    """Where each of the kernel's servers came from, for a fleet to import the same code in its processes."""

    def __init__(self) -> None:
        self.cells: dict[str, tuple[str, str]] = {}
        """Server name -> (the %%mcp_server line's arguments, the cell's body), as the magic last ran it."""
        self.adopted: dict[str, str] = {}
        """Server name -> the `module:attribute` it was adopted from (`%mcp_server NAME --from MODULE:ATTR`)."""


server_sources = ServerSources()
"""The kernel's one table of server sources (composed by `mcp_lab.lab.Lab`)."""


def remember_adopted(name: str, spec: str) -> None:
    """Called by `%mcp_server NAME --from SPEC`: a fleet of that name's server imports SPEC in each process."""
    server_sources.adopted[name] = spec
    server_sources.cells.pop(name, None)


def remember_cell(name: str, line: str, body: str) -> None:
    """Called by `%%mcp_server` for every cell it runs: the kernel's history is not kept everywhere (a cell
    run with store_history=False, as test runners do, never reaches it)."""
    server_sources.cells[name] = (line, body)
    server_sources.adopted.pop(name, None)


@dataclass(frozen=True)
class ServerSource:
    target: str
    """`module:attribute` the instance imports."""
    import_path: str
    """Directories (os.pathsep-separated) put first on the instance's sys.path."""
    shown: str
    """How views name it: `myserver:mcp`, or `the %%mcp_server cell 'shop'`."""
    server_name: str | None = None


def _history() -> list[str]:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return []
    shell: Any = get_ipython()
    if shell is None:
        return []
    return [str(cell) for cell in getattr(shell.history_manager, "input_hist_raw", [])]


def cell_source(name: str, history: list[str] | None = None) -> str | None:
    """The body of the latest `%%mcp_server NAME` cell run in this kernel (None: there is none)."""
    if history is None and name in server_sources.cells:
        line, body = server_sources.cells[name]
        history = [f"%%mcp_server {line}\n{body}"]
    for cell in reversed(history if history is not None else _history()):
        first, _, body = cell.partition("\n")
        match = _CELL.match(first)
        if match and match.group(1) == name:
            if "--lowlevel" in match.group(2) or "--from" in match.group(2):
                raise LabError(f"the %%mcp_server cell {name!r} is not an MCPServer cell: give server='module:attribute'")
            return body
    return None


def _module_file(directory: Path, name: str, body: str) -> str:
    module = "mcp_lab_cell_" + re.sub(r"[^A-Za-z0-9_]", "_", name)
    text = (
        f"# The %%mcp_server cell {name!r} as a module an instance process imports (written by mcp_lab).\n"
        "from mcp.server.mcpserver import MCPServer\n\n"
        f"mcp = MCPServer({name!r})\n\n" + body + "\n"
    )
    (directory / f"{module}.py").write_text(text)
    return module


def resolve_source(server: str, directory: Path, *, source: str | None = None) -> ServerSource:
    """`server` is `module:attribute` (imported from the notebook's working directory) or the name of a
    `%%mcp_server` cell; `source=` gives a cell body directly (then `server` is the server's name)."""
    if not isinstance(server, str) or not server.strip():
        raise LabError("start_fleet takes a server: 'module:attribute' or the name of a %%mcp_server cell")
    here = os.getcwd()
    if source is None and ":" not in server and server in server_sources.adopted:  # adopted with --from: its module
        spec = server_sources.adopted[server]
        return ServerSource(spec, os.pathsep.join([here, str(directory)]), f"{spec} (adopted as {server!r})", server)
    if source is None and ":" in server:
        module, _, attribute = server.partition(":")
        if not module or not attribute:
            raise LabError(f"a server is 'module:attribute' (e.g. myserver:mcp), not {server!r}")
        return ServerSource(server, os.pathsep.join([here, str(directory)]), server)
    body = source if source is not None else cell_source(server)
    if body is None:
        raise LabError(
            f"no %%mcp_server cell named {server!r} ran in this kernel; give server='module:attribute' "
            "or source='...' (a cell body)"
        )
    module = _module_file(directory, server, body)
    return ServerSource(f"{module}:mcp", os.pathsep.join([str(directory), here]), f"the %%mcp_server cell {server!r}", server)
