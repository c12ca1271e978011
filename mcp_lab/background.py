"""The tasks nobody awaits, held until they end: clients closing, a restart, a flow continuing after its form.

The event loop holds tasks only weakly: a task nobody references may be collected half-way. Whoever starts
such a task hands it to `background.keep(task)`; it is held until it is done, then dropped. Nothing here
imports a feature: servers, flows, forms and magics all keep their tasks here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

__all__ = ["BackgroundTasks", "background"]

T = TypeVar("T")


class BackgroundTasks:
    """The kernel's tasks that nobody awaits, held until done."""

    def __init__(self) -> None:
        self.tasks: set[Awaitable[object]] = set()
        """The tasks still running (a task is an awaitable of its result)."""

    def keep(self, task: asyncio.Task[T]) -> asyncio.Task[T]:
        """Hold `task` until it ends (the event loop holds tasks only weakly)."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def __iter__(self) -> Iterator[Awaitable[object]]:
        return iter(list(self.tasks))


background = BackgroundTasks()
"""The kernel's one holder of background tasks (composed by `mcp_lab.lab.Lab`)."""
