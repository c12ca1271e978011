"""The servers' registry: every server this kernel started or connected to, and what they leave running.

Spec context: a 2026-07-28 server's name is the audience of the tokens it seals; a notebook names its servers
(`%%mcp_server NAME`, `%mcp_connect NAME`) and every call finds them in the sandbox. What a server leaves
running is kept so nothing outlives the kernel: loopback HTTP servings (threads), stdio server processes and
their stderr logs, the header files holding bearer secrets. The servers' own logging, kept per server instead
of printed into cells, and the logging hooks the extension installs are the servers' state too.

Each part lives in the module that uses it and defines what it holds (so it is typed without an import
cycle): the sandbox in sandbox.py, the servings in loopback.py, the stdio processes in transports.py, the log
book in log_book.py, the hooks in logging_hooks.py, the header files in header_files.py. This module, above
them all in the feature, names them together for the Lab.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_lab.servers.header_files import WrittenHeaderFiles, written_header_files
from mcp_lab.servers.log_book import ServerLogs, server_logs
from mcp_lab.servers.logging_hooks import LoggingHooks, hooks
from mcp_lab.servers.loopback import Servings, servings
from mcp_lab.servers.sandbox import Sandbox, sandbox
from mcp_lab.servers.transports import StdioProcesses, stdio

__all__ = ["ServerRegistry", "registry"]


@dataclass(frozen=True)
class ServerRegistry:
    """The servers' state, part by part (each part is mutable; which parts there are is not)."""

    sandbox: Sandbox
    """Name -> every server the kernel started (LabServer) or connected to (OutsideServer)."""
    servings: Servings
    """Loopback HTTP servings whose thread has not ended yet."""
    stdio: StdioProcesses
    """Connected stdio servers' processes and stderr logs."""
    logs: ServerLogs
    """What each server logged, and the legs log records belong to."""
    hooks: LoggingHooks
    """What the lab put on Python's logging and warnings."""
    header_files: WrittenHeaderFiles
    """Header files (bearer secrets) this process wrote."""

    def parts(self) -> tuple[object, ...]:
        return (self.sandbox, self.servings, self.stdio, self.logs, self.hooks, self.header_files)


registry = ServerRegistry(sandbox, servings, stdio, server_logs, hooks, written_header_files)
"""The kernel's servers' state (composed by `mcp_lab.lab.Lab`)."""
