"""A task a cell started that the notebook can await or display: the one base of `FlowRun` and `Pending`.

Spec context: a multi round-trip request can wait on a person, and connecting or auditing a server takes a
while; IPython magics are plain functions that cannot await, so a magic starts the work as a task and returns one of
these -- `x = await %magic ...` waits for the value, a bare `%magic ...` displays it and shows how it ends.
`mcp_lab.background` holds the task until it ends (the event loop holds tasks only weakly), so a result nobody awaits is
not lost half-way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any, Generic, Literal, TypeVar

from mcp_lab.background import background

__all__ = ["Ending", "ShownTask"]

T = TypeVar("T")

Ending = Literal["running", "cancelled", "failed", "done"]


class ShownTask(Generic[T]):
    """Await it for the work's value; subclasses draw it (`_ipython_display_`) from `ending()`."""

    def __init__(self, work: Coroutine[Any, Any, T], label: str) -> None:
        self.label = label
        self.task: asyncio.Task[T] = asyncio.get_running_loop().create_task(work)
        background.keep(self.task)

    def __await__(self) -> Generator[Any, None, T]:
        return self.task.__await__()

    def done(self) -> bool:
        return self.task.done()

    def ending(self) -> tuple[Ending, Any]:
        """How the work ended: ("done", value), ("failed", exception), ("cancelled", None) or ("running", None).

        Reading it marks a failure as retrieved, so a failure shown in the notebook is not logged again."""
        task = self.task
        if not task.done():
            return "running", None
        if task.cancelled():
            return "cancelled", None
        failure = task.exception()
        if failure is not None:
            return "failed", failure
        return "done", task.result()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label}: {'finished' if self.task.done() else 'running'}>"
