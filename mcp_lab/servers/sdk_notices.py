"""Two kinds of SDK chatter kept out of cells: "Tool already exists" and pydantic's serializer warnings.

Spec context: none of the protocol's -- running servers inside a kernel. `MCPServer` logs
`Tool already exists: NAME` (also for prompts and resources) at WARNING when a second definition of a name
is registered, and keeps the first; with no handler on the root logger, Python's last resort printed it to
the cell's stderr, a red line in the notebook. Registering twice is ordinary in a notebook (a cell that
adds a tool to a server run again), but that the SDK kept the *first* definition is something a person
editing the tool needs to know, so the lab says it once, as one short line naming the server, and keeps the
record in that server's log (`%mcp_server log NAME`).

Pydantic's "Pydantic serializer warnings" (`UserWarning`) come from a server serializing a result that does
not match its own types -- the server's business, printed into whichever cell was running. Raised during a
lab leg, they go to that leg's server's log, one line each; anywhere else they show as Python shows them.
"""

from __future__ import annotations

import logging
import re
import warnings
from typing import Any

from mcp_lab.lab import lab
from mcp_lab.servers.log_book import leg_server_names, note, running_server

__all__ = ["DUPLICATE_LOGGERS", "DuplicateNotice", "install"]

DUPLICATE_LOGGERS = (
    "mcp.server.mcpserver.tools.tool_manager",
    "mcp.server.mcpserver.prompts.manager",
    "mcp.server.mcpserver.resources.resource_manager",
)
"""The SDK loggers (mcp 2.3.0) that log `... already exists: NAME`."""

_DUPLICATE = re.compile(r"^(Tool|Prompt|Resource) already exists: (.*)$", re.DOTALL)
_SERIALIZER = "Pydantic serializer warnings"


def _owner(kind: str, name: str) -> str | None:
    """The server being defined now, else the one lab server that has a `kind` called `name`."""
    running = running_server()
    if running is not None:
        return running
    owners = []
    for server_name, entry in lab.servers.items():
        manager = getattr(getattr(entry, "server", None), f"_{kind.lower()}_manager", None)
        if manager is not None and name in getattr(manager, f"_{kind.lower()}s", {}):
            owners.append(server_name)
    return owners[0] if len(owners) == 1 else None


class DuplicateNotice(logging.Filter):
    """On the SDK's manager loggers: the record goes to the server's log and one short line, said once."""

    def __init__(self) -> None:
        super().__init__()
        self.said: set[tuple[str | None, str, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        match = _DUPLICATE.match(record.getMessage())
        if match is None:
            return True
        kind, name = match[1], match[2]
        owner = _owner(kind, name)
        if owner is not None:
            note(owner, f"WARNING {record.name}: {record.getMessage()} (the SDK keeps the first definition)")
        if (owner, kind, name) not in self.said:
            self.said.add((owner, kind, name))
            where = f"{owner!r} already has" if owner is not None else "the server already has"
            fix = "give each its own name" if running_server() is not None else "re-run its %%mcp_server cell to redefine it"
            print(f"note: {where} a {kind.lower()} {name[:60]!r}; the SDK keeps the first definition ({fix})")
        return False


_NOTICE = DuplicateNotice()
_SHOWN: list[Any] = []
"""`warnings.showwarning` as it was before the lab wrapped it."""


def _show_warning(message: object, category: object, filename: str, lineno: int, file: object = None, line: object = None) -> None:
    text = str(message)
    servers = leg_server_names() if text.startswith(_SERIALIZER) else []
    if not servers:
        _SHOWN[0](message, category, filename, lineno, file, line)
        return
    detail = " ".join(text.split())
    for server in servers:
        note(server, f"WARNING pydantic: {detail[:400]}" + ("..." if len(detail) > 400 else ""))


def install() -> None:
    for name in DUPLICATE_LOGGERS:
        logger = logging.getLogger(name)
        if _NOTICE not in logger.filters:
            logger.addFilter(_NOTICE)
    if not _SHOWN:
        _SHOWN.append(warnings.showwarning)
        warnings.showwarning = _show_warning
