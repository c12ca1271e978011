"""A stepper widget for key rotation: "Next phase", rolled to every instance or to one at a time.

Spec context: the three-phase rotation. The widget only renders a `RotationStepper`'s data and calls its
methods; every matrix it shows comes from real verifications on the fleet's instances. Clicks schedule
the stepper's coroutines on the kernel's loop (never blocking it); output goes through
`Output.append_display_data`, which reaches the notebook even when no cell is running.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from mcp_lab.errors import LabError
from mcp_lab.markup import MimeBundle, widget_view

if TYPE_CHECKING:
    from mcp_lab.rotation.stepper import RotationStepper

__all__ = ["StepperWidget"]


class StepperWidget:
    """`display(StepperWidget(stepper))`; `await widget.next_phase()` does what the button does."""

    def __init__(self, stepper: RotationStepper, flows_per_step: int = 4) -> None:
        import ipywidgets as W

        from mcp_lab.rotation.stepper import RotationStepper

        if not isinstance(stepper, RotationStepper):
            raise LabError(f"StepperWidget shows a RotationStepper, not {type(stepper).__name__}")
        if isinstance(flows_per_step, bool) or not isinstance(flows_per_step, int) or not 1 <= flows_per_step <= 100:
            raise LabError(f"flows_per_step is a whole number from 1 to 100, not {flows_per_step!r}")
        self.stepper = stepper
        self.flows_per_step = flows_per_step
        count = len(stepper.fleet.instances)
        self.target = W.Dropdown(
            options=[("all instances", -1)] + [(f"instance #{i} only", i) for i in range(count)],
            value=-1,
            description="roll to",
        )
        self.button = W.Button(description="Next phase", button_style="primary")
        self.status = W.HTML(self._status_html())
        self.output = W.Output()
        self.button.on_click(lambda _: self._schedule())
        self.box = W.VBox([self.status, W.HBox([self.target, self.button]), self.output])
        self._tasks: set[asyncio.Task[Any]] = set()

    def _status_html(self) -> str:
        state = "rotation complete" if self.stepper.done else "in progress"
        return f"<b>{self.stepper.fleet.name}</b>: {self.stepper.describe()} ({state})"

    def _schedule(self) -> None:
        task = asyncio.get_running_loop().create_task(self.next_phase())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def next_phase(self) -> object:
        self.button.disabled = True
        try:
            await self.stepper.start_flows(self.flows_per_step)
            instance = None if self.target.value == -1 else int(self.target.value)
            matrix = await self.stepper.next_phase(instance)
            in_flight = self.stepper.history[-1]["in_flight"]
            dropped = [o for o in in_flight if o["outcome"] == "dropped"]
            self.output.append_display_data(matrix)
            summary = f"in-flight flows: {len(in_flight) - len(dropped)} finished, {len(dropped)} dropped"
            details = "".join(f"; {o['minted_by']} -> {o['retried_on']}: {o['reason']}" for o in dropped)
            self.output.append_stdout(summary + details + "\n")
            return matrix
        finally:
            self.status.value = self._status_html()
            self.button.disabled = self.stepper.done

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        """The live widget, with a text and HTML account of the stepper for any page without it."""
        return {
            "text/plain": repr(self),
            "text/html": f"<div>{self._status_html()}</div>",
            "application/vnd.jupyter.widget-view+json": widget_view(self.box),
        }

    def __repr__(self) -> str:
        state = "rotation complete" if self.stepper.done else "in progress"
        return f"StepperWidget for {self.stepper.fleet.name!r}: {self.stepper.describe()} ({state})"
