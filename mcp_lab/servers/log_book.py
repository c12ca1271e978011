"""A server's own logging, kept in the lab's per-server log instead of printed into every later cell.

Spec context: none of the protocol's -- running someone's server inside a kernel. Server code often sets up
logging for itself: `MCPServer(...)` with its default `log_level="INFO"` calls `logging.basicConfig` on the
root logger, a script calls `logging.basicConfig(level=logging.INFO)`. In a kernel the root
logger is everybody's, so each later cell would print `HTTP Request: POST ...` lines from the lab's own HTTP
client and whatever the server logs. While the lab runs a server's code (a `%%mcp_server` cell, a `--from`
import or factory, an adoption) it watches the root logger: handlers that code added are taken back off,
and the records they would have printed go to that server's log (`%mcp_server log NAME`,
`mcp_lab.server_log(NAME)`). A record belongs to the server whose leg is running when it is emitted (its
handler, or the lab's client in that leg), else to the server that configured logging last. Everyone
else's records keep the root's earlier behaviour: what printed before still prints, as Python printed it.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Iterator

from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import current_capture

__all__ = [
    "MAX_LINES",
    "RootRouter",
    "ServerLogs",
    "contained",
    "leg_began",
    "leg_ended",
    "leg_server_names",
    "log_lines",
    "note",
    "running_server",
    "server_logs",
    "take_sdk_handlers",
    "uninstall_root_router",
]

MAX_LINES = 2000
"""Each server keeps its latest lines; older ones are dropped (a chatty server must not fill the kernel)."""


class ServerLogs:
    """The servers' own logging, kept per server, and the legs log records belong to."""

    def __init__(self) -> None:
        self.lines: dict[str, deque[str]] = {}
        """Server name -> what its own logging emitted while the lab ran it, newest last."""
        self.leg_servers: dict[int, str] = {}
        """id(LegCapture) -> the server whose leg it is, while the leg runs."""
        self.capturing: list[LegCapture] = []
        """Legs running now against lab servers: the server's logged reasons are routed to them."""
        self.running_code: list[str] = []
        """Servers whose code (`contained`) is running now, innermost last."""
        self.root_router: RootRouter | None = None
        """The handler on the root logger once a server's code configured it (made on first need)."""


server_logs = ServerLogs()
"""The kernel's one book of server logs (part of `mcp_lab.servers.registry`)."""

def note(name: str, line: str) -> None:
    server_logs.lines.setdefault(name, deque(maxlen=MAX_LINES)).append(line)


def log_lines(name: str) -> list[str]:
    return list(server_logs.lines.get(name, ()))


def leg_began(capture: LegCapture, name: str) -> None:
    server_logs.leg_servers[id(capture)] = name


def leg_ended(capture: LegCapture) -> None:
    server_logs.leg_servers.pop(id(capture), None)


def _leg_server() -> str | None:
    capture = current_capture()
    return server_logs.leg_servers.get(id(capture)) if capture is not None else None


def leg_server_names() -> list[str]:
    """The server whose leg is running here, else every server with a leg running now."""
    own = _leg_server()
    return [own] if own is not None else sorted(set(server_logs.leg_servers.values()))


def running_server() -> str | None:
    """The server whose code (`contained`) is running now, innermost."""
    running = server_logs.running_code
    return running[-1] if running else None


class RootRouter(logging.Handler):
    """On the root logger once a server's code configured it: server records to that server's log, the rest
    as the root handled them before (its own handlers, or Python's last resort at its old level)."""

    def __init__(self, level_before: int, handlers_before: bool) -> None:
        super().__init__(logging.NOTSET)
        self.level_before = level_before
        self.handlers_before = handlers_before
        self.owner: str | None = None
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        name = _leg_server()
        if name is None and record.levelno >= self.level_before:
            last = logging.lastResort
            if not self.handlers_before and last is not None and record.levelno >= last.level:
                last.handle(record)  # printed before the server touched logging: still printed
            return
        name = name or self.owner
        if name is not None:
            try:
                note(name, self.format(record))
            except Exception:  # a record that cannot be formatted is dropped, as logging's own handlers do
                return


def _router(level_before: int) -> RootRouter:
    root = logging.getLogger()
    router = server_logs.root_router
    if router is None:
        handlers_before = any(not isinstance(h, RootRouter) for h in root.handlers)
        router = server_logs.root_router = RootRouter(level_before, handlers_before)
    if router not in root.handlers:
        logging.Logger.addHandler(root, router)  # the class's method: `contained` may be intercepting
    return router


def uninstall_root_router() -> None:
    """Take the router off the root logger (the extension unloads); records go where Python sends them."""
    router = server_logs.root_router
    if router is not None:
        logging.getLogger().removeHandler(router)
        server_logs.root_router = None


def _level_before(default: int) -> int:
    router = server_logs.root_router
    return router.level_before if router is not None else default


def _take(name: str, added: list[logging.Handler], level_before: int, level_after: int, announce: bool = True) -> None:
    root = logging.getLogger()
    for handler in added:
        root.removeHandler(handler)
    router = _router(level_before)
    root.setLevel(min(level_after, level_before))
    if not announce:  # the lab's own MCPServer(...): it asked for nothing, so it owns no one's records
        router.owner = router.owner or name
        return
    router.owner = name
    what = f"{len(added)} handler(s)" if added else "no handler"
    note(
        name,
        f"[mcp_lab] {name!r} configured the root logger (level {logging.getLevelName(level_after)}, {what}); "
        "its records are kept here, not printed in the notebook",
    )


@contextlib.contextmanager
def contained(name: str, *, announce: bool = True) -> Iterator[None]:
    """Run a server's code (`name`'s cell, import or factory); undo what it did to the root logger.

    Handlers the code adds to the root never go on it (they would print records logged while the code still
    runs): the lab's router takes their place at once. `announce=False` for the lab's own `MCPServer(...)`
    calls (the SDK's basicConfig at WARNING): no note in the log."""
    root = logging.getLogger()
    routed = [h for h in root.handlers if isinstance(h, RootRouter)]
    for router in routed:  # off while the code runs: basicConfig() does nothing on a root with handlers
        root.removeHandler(router)
    handlers, level = list(root.handlers), root.level
    before = _level_before(level)
    taken: list[logging.Handler] = []

    def intercept(handler: logging.Handler) -> None:
        if isinstance(handler, RootRouter):
            logging.Logger.addHandler(root, handler)
            return
        taken.append(handler)
        router = _router(before)  # in place at once: records the code logs while it still runs go to its log
        if announce or router.owner is None:
            router.owner = name

    setattr(root, "addHandler", intercept)  # noqa: B010 - an instance attribute shadows the method, undone below
    server_logs.running_code.append(name)
    try:
        yield
    finally:
        server_logs.running_code.pop()
        del root.addHandler
        added = taken + [h for h in root.handlers if h not in handlers and not isinstance(h, RootRouter)]
        for router in routed:
            if router not in root.handlers:
                logging.Logger.addHandler(root, router)
        if added or root.level < level:
            _take(name, added, before, root.level, announce)


def take_sdk_handlers(name: str) -> None:
    """For a server built before the lab saw it (`mcp_lab.adopt(obj)`): the handler `MCPServer`'s default
    `log_level="INFO"` put on the root logger (`basicConfig(format="%(message)s")`) goes, as `contained` would."""
    root = logging.getLogger()
    added = [
        h for h in root.handlers if not isinstance(h, RootRouter) and getattr(h.formatter, "_fmt", None) == "%(message)s"
    ]
    if added and root.level < logging.WARNING:
        _take(name, added, _level_before(logging.WARNING), root.level)
