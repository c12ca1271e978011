"""`Listeners`: the one subscribe / notify helper the flows, the forms and the forms' board use."""

from __future__ import annotations

from mcp_lab.listeners import Listeners


def test_listeners_are_told_in_order_and_unsubscribe_by_identity() -> None:
    heard: list[str] = []
    listeners: Listeners[[str]] = Listeners()
    first = listeners.add(lambda word: heard.append(f"a:{word}"))
    listeners.add(lambda word: heard.append(f"b:{word}"))
    listeners.notify("x")
    first()
    first()  # a second unsubscribe does nothing
    listeners.notify("y")
    assert heard == ["a:x", "b:x", "b:y"] and len(listeners) == 1


def test_a_listener_may_unsubscribe_itself_or_subscribe_another_while_it_is_told() -> None:
    heard: list[str] = []
    listeners: Listeners[[]] = Listeners()

    def once() -> None:
        heard.append("once")
        unsubscribe()
        listeners.add(lambda: heard.append("later"))

    unsubscribe = listeners.add(once)
    listeners.notify()  # the new listener is told from the next notify on
    listeners.notify()
    assert heard == ["once", "later"]


def test_the_same_function_twice_is_two_subscriptions() -> None:
    heard: list[int] = []
    listeners: Listeners[[int]] = Listeners()

    def hear(n: int) -> None:
        heard.append(n)

    drop = listeners.add(hear)
    listeners.add(hear)
    listeners.notify(1)
    drop()
    listeners.notify(2)
    listeners.clear()
    listeners.notify(3)
    assert heard == [1, 1, 2] and not listeners
