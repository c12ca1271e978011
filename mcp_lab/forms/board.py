"""The forms' board: the rounds of questions waiting for a person, the forms shown, the answers arranged ahead.

Spec context: 2026-07-28 multi round-trip requests answered by a person. A round of forms lives in the output
of the cell that waits; reload the page and that output is gone while the kernel still waits. So the kernel
keeps which rounds wait (the JupyterLab side panel lists them, also after a reload: forms/waiting.py), the
rounds and the form shown last (`mcp_lab.forms.current()`, `last()`, `recent()`: a headless cell drives
them), and the answers a notebook arranged for forms not shown yet (`mcp_lab.forms.prearrange`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from mcp_lab.listeners import Listeners

if TYPE_CHECKING:
    from mcp_lab.forms.base import Form
    from mcp_lab.forms.panel import Panel

__all__ = ["KEEP_PANELS", "FormBoard", "FormsMode", "board"]

KEEP_PANELS = 50
"""How many rounds of forms `mcp_lab.forms.recent()` remembers."""

FormsMode = Literal["live", "deferred"]


class FormBoard:
    """What the kernel's forms show and wait for, and the answers arranged for forms to come."""

    def __init__(self) -> None:
        self.waiting: list[Panel] = []
        """Rounds of questions shown and not yet settled, oldest first."""
        self.recent_panels: deque[Panel] = deque(maxlen=KEEP_PANELS)
        """Rounds of forms shown in this kernel, oldest first."""
        self.last_form: Form | None = None
        """The form shown last."""
        self.prearranged_in_order: deque[object] = deque()
        """Answers for forms not shown yet, in order of appearance (`forms.prearrange`)."""
        self.prearranged_keyed: dict[str, deque[object]] = {}
        """Answers for forms not shown yet, by input-request key or resolver name."""
        self.force_mode: FormsMode | None = None
        """`"live"` or `"deferred"` overrides detection (as the MCP_LAB_FORMS_MODE environment variable does)."""
        self.waiting_changed: Listeners[[]] = Listeners()
        """Told whenever a round starts waiting, changes or ends (the side panel's comm)."""
        self.round_shown: Listeners[[Panel]] = Listeners()
        """Told when a round of forms is shown -- every question of the round joined, pre-arranged answers
        applied -- with or without a page to show it on."""
        self._watching: dict[Panel, Callable[[], None]] = {}
        """Waiting round -> the unsubscriber of the board's listener on it."""

    def round_opened(self, panel: Panel) -> None:
        """`panel` waits for a person: listed until it settles (its changes reach `waiting_changed`)."""
        if panel not in self._watching:
            self.waiting.append(panel)
            self._watching[panel] = panel.changed.add(self._round_changed)
        self.waiting_changed.notify()

    def round_closed(self, panel: Panel) -> None:
        unsubscribe = self._watching.pop(panel, None)
        if unsubscribe is not None:
            unsubscribe()
            self.waiting.remove(panel)
        self.waiting_changed.notify()

    def _round_changed(self, panel: Panel) -> None:
        # Told while the round is still listed: a settled round reaches the side panel once, as its record
        # ("what was just sent"), before it leaves the list.
        self.waiting_changed.notify()
        if panel.settled:
            self.round_closed(panel)

    def on_waiting_changed(self, listener: Callable[[], object]) -> Callable[[], None]:
        """Call `listener()` whenever a round starts waiting, changes or ends; returns the unsubscriber."""
        return self.waiting_changed.add(listener)

    def on_round_shown(self, listener: Callable[[Panel], object]) -> Callable[[], None]:
        """Call `listener(panel)` when a round of forms is shown; returns the unsubscriber."""
        return self.round_shown.add(listener)

    def clear_prearranged(self) -> None:
        self.prearranged_in_order.clear()
        self.prearranged_keyed.clear()

    def reset(self) -> None:
        """Forget every waiting round, shown form and pre-arranged answer (listeners and the mode stay)."""
        for unsubscribe in self._watching.values():
            unsubscribe()
        self._watching.clear()
        self.waiting.clear()
        self.recent_panels.clear()
        self.last_form = None
        self.clear_prearranged()


board = FormBoard()
"""The kernel's one forms' board (composed by `mcp_lab.lab.Lab`)."""
