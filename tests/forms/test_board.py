"""The forms' board: a waiting round is listed until it settles, and every change reaches the side panel."""

from __future__ import annotations

import asyncio
import json

import pytest

from mcp_lab.forms.board import board
from mcp_lab.forms.waiting import snapshot
from tests.forms.conftest import Probe, ask_with_form, obj

NAME = obj("name", name={"type": "string", "title": "Name", "minLength": 2})


async def test_a_waiting_round_is_listed_until_it_settles_and_each_change_is_told(probe: Probe) -> None:
    task, panel = await ask_with_form(NAME)
    told: list[int] = []
    unsubscribe = board.on_waiting_changed(lambda: told.append(len(board.waiting)))
    try:
        board.round_opened(panel)  # what a kernel does when it shows the round (no shell here)
        board.round_opened(panel)  # shown again (a page reload): still listed once
        assert board.waiting == [panel] and [r["round"] for r in snapshot()["rounds"]] == [1]
        panel[0].keep_draft({"name": "A"})  # a change while it waits: the side panel redraws
        assert panel[0].submit({"name": "Ada"})
        flow = await task
    finally:
        unsubscribe()
    assert json.loads(flow.text)["content"] == {"name": "Ada"}
    assert board.waiting == [] and snapshot() == {"rounds": []}
    assert told[:2] == [1, 1] and told[-1] == 0  # listed, listed again, ... settled: off the list
    assert not panel.changed  # the board no longer listens to a settled round


async def test_reset_forgets_waiting_rounds_and_stops_listening(probe: Probe) -> None:
    task, panel = await ask_with_form(NAME)
    board.round_opened(panel)
    board.reset()
    assert board.waiting == [] and not panel.changed and board.last_form is None
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_settled_round_reaches_the_side_panel_once_as_its_record_before_it_leaves(probe: Probe) -> None:
    task, panel = await ask_with_form(NAME)
    states: list[list[str]] = []
    unsubscribe = board.on_waiting_changed(lambda: states.append([r["state"] for r in snapshot()["rounds"]]))
    try:
        board.round_opened(panel)
        assert panel[0].submit({"name": "Ada"})
        await task
    finally:
        unsubscribe()
    # The panel draws "what was just sent" from the last snapshot holding the round: it must say settled.
    assert ["settled"] in states and states[-1] == []
    assert states.index(["settled"]) < len(states) - 1
