"""The fleets of real server processes this kernel started and has not stopped: stopped at interpreter exit.

The one list is a component of the kernel's Lab (`mcp_lab.lab`); the fleet module adds and removes fleets.
"""

from __future__ import annotations

import atexit
from typing import Generic, Protocol, TypeVar

__all__ = ["LiveFleets", "Stoppable"]


class Stoppable(Protocol):
    """What the list needs of a fleet: its name and a way to stop it without an event loop."""

    @property
    def name(self) -> str: ...

    def stop_now(self) -> None: ...


F = TypeVar("F", bound=Stoppable)


class LiveFleets(Generic[F]):
    """The live fleets, oldest first; interpreter exit stops them (registered once, with the first fleet)."""

    def __init__(self) -> None:
        self.fleets: list[F] = []
        self.exit_hooked = False

    def add(self, fleet: F) -> None:
        self.fleets.append(fleet)
        if not self.exit_hooked:
            self.exit_hooked = True
            atexit.register(self.stop_all_now)

    def discard(self, fleet: F) -> None:
        if fleet in self.fleets:
            self.fleets.remove(fleet)

    def named(self, name: str) -> list[F]:
        return [fleet for fleet in self.fleets if fleet.name == name]

    def stop_all_now(self) -> None:
        for fleet in list(self.fleets):
            fleet.stop_now()
        self.fleets.clear()
