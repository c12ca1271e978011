"""The signal waker (flow/waking.py): its wakeup fd set when none was, someone else's left in place, and the
fd as it was once it comes off. That it makes Interrupt land at once in a real kernel is
tests/kernel/test_hostile_engine_kernel.py's; that unloading the extension takes it off, test_extension_reload_kernel.py's."""

from __future__ import annotations

import asyncio
import signal
import socket

from mcp_lab.flow.waking import SignalWaker


def _wakeup_fd() -> int:
    fd = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(fd)
    return fd


async def test_the_waker_sets_its_fd_once_per_loop_and_comes_off_leaving_none() -> None:
    previous = signal.set_wakeup_fd(-1)
    waker = SignalWaker()
    try:
        waker.watch(asyncio.get_running_loop())
        mine = _wakeup_fd()
        assert mine != -1
        waker.watch(asyncio.get_running_loop())  # the same loop: nothing changes
        assert _wakeup_fd() == mine
        waker.remove()
        assert _wakeup_fd() == -1 and waker.loop is None
    finally:
        waker.remove()
        signal.set_wakeup_fd(previous)


async def test_a_wakeup_fd_someone_else_set_stays_theirs() -> None:
    theirs, other_end = socket.socketpair()
    theirs.setblocking(False)
    previous = signal.set_wakeup_fd(theirs.fileno())
    waker = SignalWaker()
    try:
        waker.watch(asyncio.get_running_loop())
        assert _wakeup_fd() == theirs.fileno()
        waker.remove()
        assert _wakeup_fd() == theirs.fileno()
    finally:
        signal.set_wakeup_fd(previous)
        theirs.close()
        other_end.close()
