"""Waking the kernel's event loop when Interrupt's SIGINT lands in a thread other than the main one.

Spec context: none of the protocol's -- Interrupt ending a waiting flow at once (flow/interrupts.py). Linux
hands a signal sent to a process to any one of its threads. Python runs signal handlers in the main thread
only, and only while that thread runs: when SIGINT lands in another thread (one of the kernel's, or a
server's) while the main thread sleeps in the event loop's `select`, nothing wakes it, and the Interrupt
takes effect only when something else does -- a flow waiting on a slow server was interrupted when the
server answered, 30 s later. A wakeup fd mends that: the interpreter writes a byte to it from whichever
thread got the signal, the loop watches the other end, and the main thread then runs the handlers.

ipykernel sets no wakeup fd. One that someone else set (asyncio's `add_signal_handler` does) is left as it
is: its owner's loop wakes. The waker is set up when the extension loads (or by the first guarded flow of a
loop, when it was not loaded) and taken off when the extension unloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket

__all__ = ["SignalWaker", "waker"]


def _drain(reader: socket.socket) -> None:
    """Empty the waker's socket (the bytes are signal numbers: the handlers themselves run in Python)."""
    with contextlib.suppress(OSError):  # BlockingIOError once it is empty
        while reader.recv(4096):
            pass


class SignalWaker:
    """The process's wakeup fd, watched by one event loop (main thread only, as `signal.set_wakeup_fd`)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the waker was set up for (also when another wakeup fd was found and left in place)."""
        self._sockets: tuple[socket.socket, socket.socket] | None = None

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Make a signal wake `loop`, whichever thread gets it (a no-op once done for this loop)."""
        if self.loop is loop:
            return
        self.remove()
        reader, writer = socket.socketpair()
        reader.setblocking(False)
        writer.setblocking(False)
        try:
            previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except ValueError:  # not the main thread
            reader.close()
            writer.close()
            return
        self.loop = loop
        if previous != -1:  # someone else's: it stays (its owner wakes its loop)
            signal.set_wakeup_fd(previous)
            reader.close()
            writer.close()
            return
        loop.add_reader(reader.fileno(), _drain, reader)
        self._sockets = (reader, writer)

    def remove(self) -> None:
        """Take the waker off: the wakeup fd as it was before, the sockets closed."""
        loop, sockets = self.loop, self._sockets
        self.loop = self._sockets = None
        if sockets is None or loop is None:
            return
        reader, writer = sockets
        with contextlib.suppress(ValueError):  # not the main thread: the fd stays set until the process ends
            current = signal.set_wakeup_fd(-1)
            if current != writer.fileno():  # someone replaced it meanwhile: theirs stays
                signal.set_wakeup_fd(current)
        with contextlib.suppress(Exception):  # a closed loop has no readers left to remove
            loop.remove_reader(reader.fileno())
        reader.close()
        writer.close()


waker = SignalWaker()
"""The process's one waker (a wakeup fd is one per process)."""
