"""Listeners: the one way a piece of mcp_lab says "this changed" to whoever subscribed.

A flow tells its live view that a leg ended, a form tells its round's widget that it changed or settled,
the forms' board tells the side panel that the waiting rounds changed. Each keeps a `Listeners` and calls
`notify(...)`; subscribing returns the function that unsubscribes. Listeners are called in the order they
subscribed, from a copy of the list, so a listener may unsubscribe itself (or subscribe another) while it
is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec

__all__ = ["Listeners"]

P = ParamSpec("P")


class Listeners(Generic[P]):
    """The functions to call when something happens, each with the arguments `notify` is given."""

    __slots__ = ("_listeners",)

    def __init__(self) -> None:
        self._listeners: list[Callable[P, object]] = []

    def add(self, listener: Callable[P, object]) -> Callable[[], None]:
        """Call `listener` on every `notify` from now on; returns the unsubscriber (safe to call twice)."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            self.discard(listener)

        return unsubscribe

    def discard(self, listener: Callable[P, object]) -> None:
        for index, known in enumerate(self._listeners):
            if known is listener:
                del self._listeners[index]
                return

    def notify(self, *args: P.args, **kwargs: P.kwargs) -> None:
        if self._listeners:
            for listener in list(self._listeners):
                listener(*args, **kwargs)

    def clear(self) -> None:
        self._listeners.clear()

    def __len__(self) -> int:
        return len(self._listeners)

    def __bool__(self) -> bool:
        return bool(self._listeners)
