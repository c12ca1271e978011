"""HTTP exchanges on their way to a lab server: the tag the lab's client adds, until the server claims it.

Spec context: 2026-07-28 Streamable HTTP. For a server the lab serves itself, the lab's client tags each
request with one header (`x-mcp-lab-exchange`, recorder.py) so the server thread -- which has no access to
the kernel's context -- finds the same exchange and the leg it belongs to. The kernel's task sends, a server
thread claims: every access holds the lock.
"""

from __future__ import annotations

import itertools
import threading
from typing import Generic, TypeVar

__all__ = ["KEEP_PENDING", "PendingExchanges"]

E = TypeVar("E")

KEEP_PENDING = 1000
"""Tagged HTTP requests waiting for a lab server to claim them; more means they never reached one."""


class PendingExchanges(Generic[E]):
    """Tag -> the exchange a lab client sent, until the lab server it reached claims it (thread-safe).

    Generic in the exchange, so this module needs nothing from the recorder that keeps the one instance
    (`recorder.pending_exchanges`, of its `Exchange`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._exchanges: dict[str, E] = {}
        self._tags = itertools.count(1)

    def tag(self, exchange: E) -> str:
        """A new tag for `exchange`, which the lab server it reaches claims with `claim`."""
        with self._lock:
            if len(self._exchanges) > KEEP_PENDING:  # requests that never reached a lab server
                self._exchanges.clear()
            tag = str(next(self._tags))
            self._exchanges[tag] = exchange
        return tag

    def claim(self, tag: str) -> E | None:
        with self._lock:
            return self._exchanges.pop(tag, None)

    def __len__(self) -> int:
        return len(self._exchanges)
