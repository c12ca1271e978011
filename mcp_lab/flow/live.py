"""A flow running in the background, shown live -- and the place its live forms appear.

Spec context: multi round-trip requests take several legs, and a leg may wait for a person. Awaited
(`flow = await %mcp_call ...`) the cell simply waits and forms appear in it. Left bare (`%mcp_call ...`)
the cell ends at once while the flow goes on as a task; output sent after a cell has finished is dropped
by JupyterLab, so a bare run shows an ipywidgets `Output` pair while its cell still runs -- one area for
the flow's view, redrawn after every leg, one for its forms -- and widget state (unlike late cell output)
still reaches the page. `LiveArea` is how the forms find that second area (a context variable the task
inherits when it is created).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import Coroutine, Generator
from typing import Any

from mcp_lab.flow.flow import Flow
from mcp_lab.shown_task import ShownTask

__all__ = ["LIVE_AREA", "FlowRun", "LiveArea", "say_if_failed"]


class LiveArea:
    """Where a background flow's view and forms go, once a cell has displayed it (else None)."""

    def __init__(self) -> None:
        self.view: Any = None
        self.forms: Any = None


LIVE_AREA: contextvars.ContextVar[LiveArea | None] = contextvars.ContextVar("mcp_lab_live_area", default=None)


class FlowRun(ShownTask[Flow]):
    """A flow running as a task: await it for the `Flow`, or display it to watch it live."""

    def __init__(self, flow_factory: Coroutine[Any, Any, Flow], label: str) -> None:
        self.flow: Flow | None = None
        self.area = LiveArea()
        token = LIVE_AREA.set(self.area)  # the task copies this context: its forms will find the area
        try:
            super().__init__(flow_factory, label)
        finally:
            LIVE_AREA.reset(token)

    def __await__(self) -> Generator[Any, None, Flow]:
        flow = yield from self.task.__await__()
        say_if_failed(flow)
        return flow

    def attach(self, flow: Flow) -> None:
        self.flow = flow
        flow.on_round(self._redraw)

    def _redraw(self, flow: object) -> None:
        view = self.area.view
        if view is not None:
            view.outputs = ()
            view.append_display_data(flow)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        ending, value = self.ending()
        if ending == "done":
            display(value)
            return
        import ipywidgets as W

        self.area.view, self.area.forms = W.Output(), W.Output()
        if self.flow is not None:
            self._redraw(self.flow)
        else:
            self.area.view.append_stdout(f"{self.label}: starting...\n")
        display(W.VBox([self.area.view, self.area.forms]))
        self.task.add_done_callback(self._finished)

    def _finished(self, _: asyncio.Task[Flow]) -> None:
        view = self.area.view
        if view is None:
            return
        ending, value = self.ending()
        if ending == "cancelled":
            view.append_stdout(f"{self.label}: cancelled\n")
        elif ending == "failed":
            view.outputs = ()
            view.append_stdout(f"{self.label}: {value}\n")
        else:
            self._redraw(value)


def failure_line(flow: Flow) -> str | None:
    """The one line a flow that did not end well is announced with (None for a finished or paused flow)."""
    paused = flow.status == "input_required" and not flow.stop_reason  # `--step`: it waits, by request
    if flow.status in ("done", "new") or paused:
        return None
    return f"{flow.summary()} (the flow is kept: mcp_lab.last())"


def say_if_failed(flow: Flow) -> None:
    """After this cell, print the flow's failure in one line -- unless the cell displayed the flow.

    `f = await %mcp_prompt rs nosuch` assigns the flow, so nothing displays it and a failure would pass
    unseen; a bare line displays the flow, whose view says it already. The check runs when the cell has
    finished (IPython's post_run_cell event), after its last expression was displayed, and only if
    the cell did not fail (an exception's one line already says what went wrong).
    """
    line = failure_line(flow)
    if line is None:
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return
    shell = get_ipython()
    if shell is None:
        return
    shown = flow.displays

    def after_cell(result: object) -> None:
        shell.events.unregister("post_run_cell", after_cell)
        # A cell that failed (`f.raise_for_status()`) has said so already, in its own one line.
        if flow.displays == shown and getattr(result, "success", True):
            print(line, file=sys.stderr)

    shell.events.register("post_run_cell", after_cell)
