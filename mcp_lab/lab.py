"""The Lab: this kernel's state in one object -- its flows, the flows running now, the rounds waiting for a person.

Spec context: multi round-trip requests can take a long time (a person answers a form, a tool runs), and a
notebook loses work easily: an interrupted `f = await mcp_lab.call(...)` never assigns `f`, a reloaded page
forgets the form its cell was waiting on. So the kernel itself keeps what a person would want back: every
flow it ran (`mcp_lab.flows`, newest last; `mcp_lab.last()`), which of them are running (so Interrupt and
the Stop button can end them), and which rounds of questions wait for an answer (so a reloaded page, or the
JupyterLab side panel, can show them again). One object, so a test or a restart can reset it at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.flow.flow import Flow

__all__ = ["KEEP_FLOWS", "Lab", "lab"]

KEEP_FLOWS = 1000
"""How many flows the kernel remembers; the oldest are forgotten first (a long benchmark makes thousands)."""


class Lab:
    """This kernel's flows, running flows and waiting rounds."""

    def __init__(self) -> None:
        self.flows: list[Flow] = []
        """Every flow started or resumed in this kernel, newest (most recently run) last."""
        self.running: dict[str, tuple[Flow, asyncio.Task[Any]]] = {}
        """Flow id -> (flow, the task driving it), while it runs."""
        self.stop_requested: dict[str, str] = {}
        """Flow id -> why it is being stopped (Stop button, Interrupt, a command), while its task is cancelled."""
        self.waiting: list[Any] = []
        """Rounds of questions (forms.Panel) shown and not yet settled, oldest first."""
        self._waiting_listeners: list[Callable[[], None]] = []

    # ---- flows ---------------------------------------------------------------------------------------------
    def remember(self, flow: Flow, *, new: bool = False) -> Flow:
        """Record `flow` as this kernel's latest (moving it to the end if it was already known).

        By identity: flows are dataclasses, and comparing them field by field would cost a scan per call.
        """
        flows = self.flows
        if flows and flows[-1] is flow:
            return flow
        if not new:
            for index in range(len(flows) - 1, -1, -1):
                if flows[index] is flow:
                    del flows[index]
                    break
        flows.append(flow)
        if len(flows) > KEEP_FLOWS:
            del flows[: len(flows) - KEEP_FLOWS]
        return flow

    def last(self) -> Flow | None:
        return self.flows[-1] if self.flows else None

    # ---- waiting rounds ------------------------------------------------------------------------------------
    def round_opened(self, panel: Any) -> None:
        if panel not in self.waiting:
            self.waiting.append(panel)
        self.waiting_changed()

    def round_closed(self, panel: Any) -> None:
        if panel in self.waiting:
            self.waiting.remove(panel)
        self.waiting_changed()

    def on_waiting_changed(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` whenever a round starts waiting, changes or ends; returns the unsubscriber."""
        self._waiting_listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._waiting_listeners:
                self._waiting_listeners.remove(listener)

        return unsubscribe

    def waiting_changed(self) -> None:
        for listener in list(self._waiting_listeners):
            listener()

    def reset(self) -> None:
        """Forget every flow and waiting round (tests; a fresh start)."""
        self.flows.clear()
        self.running.clear()
        self.stop_requested.clear()
        self.waiting.clear()


lab = Lab()
"""The kernel's one Lab."""
