"""The kernel's side of "waiting questions": a comm that lists every round waiting for a person and takes answers.

Spec context: multi round-trip requests wait for a person. A form lives in the output of the cell that is
waiting; reload the page (or open the notebook in a second tab) and that output is gone while the kernel
still waits -- the cell, and every cell queued behind it, would hang until a restart. JupyterLab's mcp_lab
side panel (labextension/src/plugin.ts) therefore opens a comm with target `mcp_lab.waiting` whenever it
connects to a kernel: the kernel sends `{rounds: [RoundRecord...]}` now and after every change, and takes
the same messages the round's widget sends (with `flow` and `round` added), plus `{event: "cancel_all"}`.

Why a comm: ipykernel >= 7.4 dispatches comm messages while an async cell awaits, so the
panel reaches the kernel exactly when it is needed -- during the wait. JupyterLab may route the comm to a
subshell thread; everything is handed to the kernel's loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from mcp_lab.forms.board import board
from mcp_lab.json_types import JsonObject

if TYPE_CHECKING:
    from comm.base_comm import BaseComm, CommManager

__all__ = ["TARGET", "cancel_all", "register", "snapshot", "unregister"]

TARGET = "mcp_lab.waiting"


def snapshot() -> JsonObject:
    """What the side panel draws: every waiting round, oldest first."""
    return {"rounds": [panel.record() for panel in board.waiting]}


def cancel_all(reason: str = "stopped (cancel every waiting flow)") -> int:
    """End every waiting flow: a running one is stopped; a deferred one has its open forms cancelled."""
    from mcp_lab.flow.interrupts import stop

    ended = 0
    for panel in list(board.waiting):
        if panel.flow_id is not None and stop(panel.flow_id, reason):
            ended += 1
            continue
        for form in panel.forms:
            if form.open:
                form.cancel()
        ended += 1
    return ended


def _handle(data: object) -> None:
    if not isinstance(data, Mapping):
        return
    if data.get("event") == "cancel_all":
        cancel_all()
        return
    for panel in list(board.waiting):
        if panel.flow_id == data.get("flow") and panel.round_index + 1 == data.get("round"):
            panel.handle_event(data)
            return


def _manager(kernel: object) -> CommManager | None:
    manager: CommManager | None = getattr(kernel, "comm_manager", None)
    if manager is None:
        try:
            from comm import get_comm_manager

            manager = get_comm_manager()
        except Exception:
            return None
    return manager


def unregister(kernel: object) -> None:
    """Take the comm target off (the extension unloads); a side panel connecting later finds none."""
    manager = _manager(kernel)
    if manager is not None and TARGET in getattr(manager, "targets", {}):
        manager.unregister_target(TARGET, manager.targets[TARGET])


def register(kernel: object) -> bool:
    """Register the comm target on this kernel (once); False where there is no comm manager."""
    manager = _manager(kernel)
    if manager is None:
        return False
    if TARGET in getattr(manager, "targets", {}):
        return True
    loop = asyncio.get_event_loop()
    main = threading.get_ident()

    def on_loop(callback: Callable[..., object], *args: object) -> None:
        if threading.get_ident() == main or loop.is_closed():
            callback(*args)
        else:
            loop.call_soon_threadsafe(callback, *args)

    def opened(comm: BaseComm, _message: object) -> None:
        def push() -> None:
            comm.send(snapshot())

        unsubscribe = board.on_waiting_changed(push)
        comm.on_msg(lambda message: on_loop(_handle, message.get("content", {}).get("data")))
        comm.on_close(lambda _message: on_loop(unsubscribe))
        on_loop(push)

    manager.register_target(TARGET, opened)
    return True
