"""A stdio server replaced after it died: a late failure report from the old session, and two callers at once.

A leg that failed on a process that died can report it (`drop_session`) after another caller already started
the replacement; that healthy process must stay. Two callers finding the dead process at once share one
replacement: no second process, none left out of `pids` (nothing would stop it on a disconnect).
"""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import mcp_lab
from mcp_lab.protocol.eras import MODERN
from mcp_lab.servers.transports import alive
from tests.sample_servers.booking import command

pytestmark = pytest.mark.asyncio


async def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    while alive(pid):  # the real condition: the process is gone
        await asyncio.sleep(0.01)


async def test_a_late_drop_of_the_dead_session_keeps_its_replacement() -> None:
    entry = await mcp_lab.connect("bk-replace", stdio=command("A"))
    try:
        stale = await entry.session(MODERN)
        await _kill(entry.pids[0])
        fresh = await entry.session(MODERN)
        assert fresh is not stale and len(entry.pids) == 1
        await entry.drop_session(MODERN, stale)  # the failed leg reports its (old) session
        assert len(entry.pids) == 1 and all(alive(p) for p in entry.pids)
        assert await entry.session(MODERN) is fresh
        flow = await mcp_lab.call("bk-replace", "echo", {"text": "still here"})
        assert flow.text == "still here"
    finally:
        await mcp_lab.disconnect("bk-replace")


async def test_two_callers_after_a_death_share_one_new_process() -> None:
    entry = await mcp_lab.connect("bk-replace2", stdio=command("A"))
    try:
        await _kill(entry.pids[0])
        first, second = await asyncio.gather(entry.session(MODERN), entry.session(MODERN))
        assert first is second and len(entry.pids) == 1
    finally:
        pids = entry.pids
        await mcp_lab.disconnect("bk-replace2")
    assert not [p for p in pids if alive(p)]
