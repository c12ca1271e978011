"""The Lab: this kernel's state in one object -- its flows and servers, the answers it falls back on, the
identity it acts as, the tasks it keeps alive and the forms it showed.

Spec context: multi round-trip requests can take a long time (a person answers a form, a tool runs), and a
notebook loses work easily: an interrupted `f = await mcp_lab.call(...)` never assigns `f`, a reloaded page
forgets the form its cell was waiting on. So the kernel itself keeps what a person would want back: every
flow it ran (`mcp_lab.flows`, newest last; `mcp_lab.last()`), which of them are running (so Interrupt and
the Stop button can end them), and which rounds of questions wait for an answer (so a reloaded page, or the
JupyterLab side panel, can show them again). The servers it started or connected to, the HTTP servings,
the principal that `lab_principal` servers see and the forms' pre-arranged answers live here too, so one
object is the kernel's state: a test or a restart resets it at once, and nothing else in the package keeps
mutable module-level state (locks, context variables, caches and constants aside).

This module imports no feature: features import it. What it holds is typed here by the feature modules
that define it only where those modules never import the Lab (records and models); the rest is typed where
it is used (e.g. `Sandbox.servers`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.exchanges.record import LegCapture
    from mcp_lab.flow.answers import Answerer
    from mcp_lab.flow.flow import Flow

__all__ = ["KEEP_FLOWS", "KEEP_PANELS", "Lab", "lab"]

KEEP_FLOWS = 1000
"""How many flows the kernel remembers; the oldest are forgotten first (a long benchmark makes thousands)."""

KEEP_PANELS = 50
"""How many rounds of forms `mcp_lab.forms.recent()` remembers."""

KEEP_PENDING = 1000
"""Tagged HTTP requests waiting for a lab server to claim them; more means they never reached one."""


class Lab:
    """This kernel's state: flows, servers, fallback answerers, principal, background tasks and forms."""

    def __init__(self) -> None:
        # ---- flows
        self.flows: list[Flow] = []
        """Every flow started or resumed in this kernel, newest (most recently run) last."""
        self.running: dict[str, tuple[Flow, asyncio.Task[Any]]] = {}
        """Flow id -> (flow, the task driving it), while it runs."""
        self.stop_requested: dict[str, str] = {}
        """Flow id -> why it is being stopped (Stop button, Interrupt, a command), while its task is cancelled."""
        self.fallback_answerers: list[Answerer] = []
        """Answerers consulted when no scripted answer covers a request (mcp_lab.forms registers the live form)."""
        # ---- servers
        self.servers: dict[str, Any] = {}
        """Name -> every server the kernel started (LabServer) or connected to (OutsideServer)."""
        self.servings: set[Any] = set()
        """HTTP servings (servers.loopback.HttpServing) whose thread has not ended yet."""
        self.stdio_pids: set[int] = set()
        """Processes of connected stdio servers, reaped when the kernel shuts down."""
        self.stdio_logs: dict[str, Path] = {}
        """Server name -> the file its stdio server's stderr goes to."""
        self.stdio_log_dirs: list[Path] = []
        """The temporary folder holding those files (made on first use)."""
        self.server_logs: dict[str, deque[str]] = {}
        """Server name -> what its own logging emitted while the lab ran it (servers.log_book), newest last."""
        self.leg_servers: dict[int, str] = {}
        """id(LegCapture) -> the server whose leg it is, while the leg runs (servers.log_book routes records)."""
        self.capturing: list[LegCapture] = []
        """Legs running now against lab servers: the server's logged reasons are routed to them."""
        self.token_formats: dict[str, Callable[[str], Any]] = {}
        """Token prefix -> its keyless reader (protocol.anatomy.register_format; the lab codecs register theirs)."""
        self.principal: str | None = None
        """The lab identity that servers bound with `lab_principal` see (`set_principal`)."""
        # ---- HTTP exchanges
        self.pending_exchanges: dict[str, Any] = {}
        """Tag -> an exchange (exchanges.recorder.Exchange) a lab client sent, until the lab server it reached claims it (threads: lock it)."""
        self.exchange_tags = itertools.count(1)
        # ---- forms
        self.waiting: list[Any] = []
        """Rounds of questions (forms.Panel) shown and not yet settled, oldest first."""
        self.recent_panels: deque[Any] = deque(maxlen=KEEP_PANELS)
        """Rounds of forms (forms.Panel) shown in this kernel, oldest first."""
        self.last_form: Any = None
        """The form (forms.Form) shown last."""
        self.prearranged_in_order: deque[Any] = deque()
        """Answers for forms not shown yet, in order of appearance (`forms.prearrange`)."""
        self.prearranged_keyed: dict[str, deque[Any]] = {}
        """Answers for forms not shown yet, by input-request key or resolver name."""
        # ---- tasks
        self.background: set[asyncio.Task[Any]] = set()
        """Tasks nobody awaits (clients closing, a restart, a flow continuing after its form): held until done."""
        self._waiting_listeners: list[Callable[[], None]] = []
        self._shown_listeners: list[Callable[[Any], None]] = []

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

    # ---- tasks ---------------------------------------------------------------------------------------------
    def keep(self, task: asyncio.Task[Any]) -> asyncio.Task[Any]:
        """Hold `task` until it ends (the event loop holds tasks only weakly)."""
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    # ---- HTTP exchanges ------------------------------------------------------------------------------------
    def tag_exchange(self, exchange: Any) -> str:
        """A new tag for `exchange`, which the lab server it reaches claims with `claim_exchange` (caller locks)."""
        if len(self.pending_exchanges) > KEEP_PENDING:  # requests that never reached a lab server
            self.pending_exchanges.clear()
        tag = str(next(self.exchange_tags))
        self.pending_exchanges[tag] = exchange
        return tag

    def claim_exchange(self, tag: str) -> Any:
        return self.pending_exchanges.pop(tag, None)

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

    def on_round_shown(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        """Call `listener(panel)` when a round of forms is shown -- every question of the round has joined its
        panel, pre-arranged answers applied -- with or without a page to show it on; returns the unsubscriber."""
        self._shown_listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._shown_listeners:
                self._shown_listeners.remove(listener)

        return unsubscribe

    def round_shown(self, panel: Any) -> None:
        for listener in list(self._shown_listeners):
            listener(panel)

    def reset(self) -> None:
        """Forget every flow, waiting round and shown form (tests; a fresh start). Servers, servings, tasks
        and answerers stay (they own threads, processes and sockets that only stopping them releases), and so
        do the token formats the codecs registered."""
        self.flows.clear()
        self.running.clear()
        self.stop_requested.clear()
        self.waiting.clear()
        self.recent_panels.clear()
        self.last_form = None
        self.prearranged_in_order.clear()
        self.prearranged_keyed.clear()


lab = Lab()
"""The kernel's one Lab."""
