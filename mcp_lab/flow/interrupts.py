"""Ending a wait on the person's request: Interrupt (■) and the Stop button end a running flow at once.

Spec context: a multi round-trip request waits -- for a person's answer, or for a tool -- and the person must
always be able to end that wait. What stood in the way in a kernel, each found by experiment:

- ipykernel turns Interrupt into `future.cancel()` scheduled with a plain `call_soon` from its SIGINT
  handler. While the loop sleeps in `select` waiting for a form, nothing wakes it, so the interrupt lands
  only when some other message arrives (minutes later, or never). The guard below adds one
  `call_soon_threadsafe`, which writes to the loop's self-pipe and wakes it at once.
- The kernel installs its canceller for each cell and restores the old handler after it, so one guard for
  all flows missed every cell after the first while a flow ran in the background: the awaited call then
  ended only when something else woke the loop, with a bare `CancelledError`. Each running flow now puts
  its own guard over the handler it found (`_Guard`), so whichever cell runs, its canceller is reached.
- A cancelled cell raised `CancelledError` through the SDK's internals (a 216-line traceback), and
  `f = await mcp_lab.call(...)` never assigned `f`. Here the cancellation is caught where the flow is
  driven: the flow is marked *interrupted* (its legs kept, resumable with `mcp_lab.resume`), the kernel's
  `mcp_lab.flows` still holds it, and the cell ends with one line (`FlowInterrupted`).
- SIGINT may land in a thread other than the main one, where no Python handler runs until the main thread
  wakes on its own (a flow waiting on a slow server: when the server answered). The extension, and else a
  guarded flow, makes sure the loop is woken by any signal (`waking.waker`, a wakeup fd the loop watches).

A leg that comes back after its flow was interrupted (the flow was stopped from elsewhere while the leg was
in flight) is not written into it (flow.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import TypeVar

from mcp_lab.errors import FlowInterrupted
from mcp_lab.flow.flow import Flow
from mcp_lab.flow.history import history
from mcp_lab.flow.waking import waker

__all__ = ["INTERRUPT_PRESSED", "before_first_leg", "run_interruptibly", "stop", "stop_all"]

INTERRUPT_PRESSED = "interrupted (Interrupt pressed)"

_T = TypeVar("_T")


_KERNEL: list[object] = []
"""The kernel this process was found to run in (asked on every call: once found, it is kept)."""


def _in_kernel() -> bool:
    if _KERNEL:
        return True
    if "ipykernel" not in sys.modules:  # no kernel in this process (a script, a test): asked on every call
        return False
    from IPython import get_ipython

    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None:
        return False
    _KERNEL.append(kernel)
    return True


def _wake() -> None:
    """Nothing: scheduling it from the signal handler wakes the loop (its self-pipe) so the cancel lands now."""


SignalHandler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None
"""What `signal.getsignal` returns and `signal.signal` takes."""

# The C functions under `signal.getsignal` / `signal.signal`. Those wrappers turn SIG_DFL and SIG_IGN into
# enum members by trying `Handlers(handler)`, which for a handler that is a function fails with an exception
# each time: profiled, most of what guarding a flow cost on every call in a kernel (four per call).
_C_SIGNAL = importlib.import_module("_signal")
_getsignal: Callable[[int], SignalHandler] = getattr(_C_SIGNAL, "getsignal", signal.getsignal)
_setsignal: Callable[[int, SignalHandler], SignalHandler] = getattr(_C_SIGNAL, "signal", signal.signal)


class _Guard:
    """One running flow's SIGINT handler, installed over whatever handled SIGINT when the flow started.

    That is the kernel's canceller of the cell then running (ipykernel installs one per cell and puts the
    old handler back afterwards), another flow's guard, or nothing that ends a wait (the kernel between
    cells). Interrupt ends the running cell -- and with it the flow that cell awaits -- and nothing else: a
    flow running in the background (`run = %mcp_call ...`) belongs to no cell and goes on. Only when no
    cell is running does Interrupt end the flows whose guards got it (there is nothing else it could end).
    """

    def __init__(self, flow_id: str, loop: asyncio.AbstractEventLoop, previous: SignalHandler) -> None:
        self.flow_id = flow_id
        self.loop = loop
        self.previous = previous
        self.active = True
        """False once its flow has ended: a guard the kernel restored later only passes the signal on."""
        self.pressed = False
        """Interrupt was pressed while this flow ran (so its cancellation is the person's, not code's)."""

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.relay(signum, frame)
        with contextlib.suppress(RuntimeError):  # a closed loop: nothing left to wake
            self.loop.call_soon_threadsafe(_wake)  # the kernel schedules its cancel without waking the loop

    def relay(self, signum: int, frame: FrameType | None) -> bool:
        """Note the press and pass it on; True when a cell's canceller got it."""
        if self.active:
            self.pressed = True
        previous = self.previous
        if isinstance(previous, _Guard):
            reached = previous.relay(signum, frame)
        elif callable(previous) and previous is not signal.default_int_handler:
            previous(signum, frame)  # the kernel cancels its cell as usual
            reached = True
        else:
            reached = False
        if not reached and self.active:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(stop, self.flow_id, INTERRUPT_PRESSED)
        return reached


def _install_guard(flow_id: str, loop: asyncio.AbstractEventLoop) -> _Guard | None:
    """A guard for this flow while it runs in the main thread (signals reach only that one)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    waker.watch(loop)  # SIGINT landing in another thread must still wake the loop the flow waits in
    guard = _Guard(flow_id, loop, _getsignal(signal.SIGINT))
    _setsignal(signal.SIGINT, guard)
    return guard


def _remove_guard(guard: _Guard | None) -> None:
    if guard is None:
        return
    guard.active = False
    previous = guard.previous
    if _getsignal(signal.SIGINT) is guard:  # else a later handler sits on top: this one stays, passing on
        _setsignal(signal.SIGINT, previous)


def stop(flow_id: str, reason: str = "stopped (Stop pressed)") -> bool:
    """End the running flow `flow_id` as interrupted; False if it is not running."""
    entry = history.running.get(flow_id)
    if entry is None:
        return False
    _flow, task = entry
    history.stop_requested.setdefault(flow_id, reason)
    task.cancel()
    return True


def stop_all(reason: str = "stopped") -> int:
    """End every running flow of this kernel; how many were running."""
    return sum(stop(flow_id, reason) for flow_id in list(history.running))


def run_interruptibly(flow: Flow, timeout: float | None) -> Awaitable[object]:
    """Run `flow` (`flow.driven(timeout)`) so that Interrupt or Stop end it promptly and one-line: awaited,
    outside a kernel its legs themselves (no Interrupt to guard against, so no coroutine of this one around them)."""
    history.remember(flow)
    if not _in_kernel():
        return flow.driven(timeout)
    return _run_guarded(flow, timeout)


async def _run_guarded(flow: Flow, timeout: float | None) -> Flow:
    """Drive `flow` in this very task (a cell's, or a background flow's), its guard over SIGINT meanwhile.

    Interrupt and Stop cancel this task; the cancellation reaches the leg's await at once, the flow is kept
    as interrupted and the cell ends with one line. Run as a child task instead, every call paid two more
    turns of the kernel's event loop, for nothing a cancellation does not already do."""
    task = asyncio.current_task()
    assert task is not None  # awaited, so in a task
    history.running[flow.id] = (flow, task)
    guard = _install_guard(flow.id, task.get_loop())
    try:
        await flow.driven(timeout)
    except asyncio.CancelledError:
        requested = history.stop_requested.pop(flow.id, None)
        if requested is None and guard is not None and guard.pressed:
            requested = INTERRUPT_PRESSED  # the kernel cancelled the cell this flow's call was awaited in
        if requested is None:
            # Cancelled by the code around the call (a timeout scope, a task group), not by the person: the
            # flow is kept as interrupted, and the cancellation goes on as that code expects.
            flow.interrupt("cancelled")
            raise
        flow.interrupt(requested)
        task.uncancel()  # the cancellation is answered by the one-line error below
        raise FlowInterrupted(flow, _message(flow)) from None
    finally:
        _remove_guard(guard)
        history.running.pop(flow.id, None)
        history.stop_requested.pop(flow.id, None)
    return flow


def before_first_leg(flow: Flow, prepare: Awaitable[_T]) -> Awaitable[_T]:
    """`prepare` -- what a call does before its flow runs (the tool listing, which may first connect) -- to be
    awaited so that Interrupt pressed then ends the call as it ends a running flow: one line (`FlowInterrupted`),
    the flow kept as interrupted after 0 legs, not a `CancelledError` raised through the SDK's internals.
    Outside a kernel, `prepare` itself."""
    if not _in_kernel():
        return prepare
    return _first_leg_guarded(flow, prepare)


async def _first_leg_guarded(flow: Flow, prepare: Awaitable[_T]) -> _T:
    guard = _install_guard(flow.id, asyncio.get_running_loop())
    try:
        return await prepare
    except asyncio.CancelledError:
        if guard is None or not guard.pressed:  # cancelled by the code around the call: that code expects it
            raise
        history.remember(flow, new=True)
        flow.interrupt(INTERRUPT_PRESSED)
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()  # the cancellation is answered by the one-line error below
        raise FlowInterrupted(flow, _message(flow)) from None
    finally:
        _remove_guard(guard)


def _message(flow: Flow) -> str:
    legs = len(flow.rounds)
    return (
        f"flow {flow.id} ({flow.method} {flow.target} on {flow.server!r}) {flow.stop_reason} after "
        f"{legs} leg{'s' if legs != 1 else ''}; mcp_lab.last() holds it -- continue with "
        "`await mcp_lab.resume(mcp_lab.last())`"
    )
