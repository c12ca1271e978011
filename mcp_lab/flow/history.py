"""The flows' history: every flow this kernel ran, the ones running now, and the answerers flows fall back on.

Spec context: multi round-trip requests can take long (a person answers a form, a tool runs), and a notebook
loses work easily: an interrupted `f = await mcp_lab.call(...)` never assigns `f`. So the kernel keeps every
flow it ran (`mcp_lab.flows`, newest last; `mcp_lab.last()`), which of them are running (so Interrupt and the
Stop button can end them) and why one is being stopped. The answerers consulted when no scripted answer
covers a request live here too: `mcp_lab.forms` registers the live form among them when the extension loads.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.flow.answers import Answerer
    from mcp_lab.flow.flow import Flow

__all__ = ["KEEP_FLOWS", "FlowHistory", "history"]

KEEP_FLOWS = 1000
"""How many flows the kernel remembers; the oldest are forgotten first (a long benchmark makes thousands)."""


class FlowHistory:
    """Flows run in this kernel, the running ones, and the fallback answerers."""

    def __init__(self) -> None:
        self.flows: list[Flow] = []
        """Every flow started or resumed in this kernel, newest (most recently run) last (`mcp_lab.flows`)."""
        self.running: dict[str, tuple[Flow, asyncio.Task[Any]]] = {}
        """Flow id -> (flow, the task it runs in: a cell's or a background one), while it runs."""
        self.stop_requested: dict[str, str] = {}
        """Flow id -> why it is being stopped (Stop button, Interrupt, a command), while its task is cancelled."""
        self.fallback_answerers: list[Answerer] = []
        """Answerers consulted when no scripted answer covers a request (mcp_lab.forms registers the live form)."""
        self.ended: list[Flow] = []
        """Flows that ended since the last one started, to be packed then (`Flow.pack`, flow/kept.py)."""

    def finished(self, flow: Flow) -> None:
        """`flow` ended: pack it when the next flow starts (its caller reads it first, while it is plain)."""
        if flow.done:
            self.ended.append(flow)

    def remember(self, flow: Flow, *, new: bool = False) -> Flow:
        """Record `flow` as this kernel's latest (moving it to the end if it was already known).

        By identity: flows are dataclasses, and comparing them field by field would cost a scan per call.
        """
        flows = self.flows
        if flows and flows[-1] is flow:
            return flow
        if new and self.ended:  # kept flows cost the collector: each full collection visits all of them
            for ended in self.ended:
                ended.pack()
            self.ended.clear()
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

    def reset(self) -> None:
        """Forget every flow (in place: `mcp_lab.flows` is this very list). The answerers stay."""
        self.flows.clear()
        self.ended.clear()
        self.running.clear()
        self.stop_requested.clear()


history = FlowHistory()
"""The kernel's one flow history (composed by `mcp_lab.lab.Lab`)."""
