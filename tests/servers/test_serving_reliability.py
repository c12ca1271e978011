"""Serving leaves nothing behind and never listens beyond loopback (threads and sockets counted for real)."""

from __future__ import annotations

import threading

import psutil

import mcp_lab
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import live_servings, serve
from tests.conftest import build_demo


def _listening() -> list[psutil._common.pconn]:
    return [c for c in psutil.Process().net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]


def _threads() -> set[threading.Thread]:
    return set(threading.enumerate())


async def test_100_start_stop_cycles_leave_no_thread_and_no_socket() -> None:
    entry = build_demo()
    await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 1}})  # warm the in-process client
    threads_before, listening_before = _threads(), len(_listening())
    stops = []
    try:
        for cycle in range(100):
            serve(entry)
            if cycle % 20 == 0:  # now and then, really use it before stopping
                flow = await mcp_lab.call("demo", "handmade", {"x": cycle}, answers={"q1": {"n": 1}})
                assert flow.status == "done" and flow.rounds[0].http
            stops.append(entry.stop_http())
        for stopped in stops:
            await stopped
    finally:
        await sandbox.stop_all()
    assert not live_servings()
    # Worker pools (the loop's executor resolving "127.0.0.1" for httpx2, anyio's to_thread) keep idle
    # threads for reuse; anything else new is a leak.
    pools = ("asyncio_", "AnyIO worker thread", "ThreadPoolExecutor")
    extra = [t.name for t in _threads() - threads_before if t.is_alive() and not t.name.startswith(pools)]
    assert extra == []
    assert len(_listening()) == listening_before


async def test_nothing_listens_beyond_loopback() -> None:
    build_demo("one")
    build_demo("two")
    try:
        serve("one")
        serve("two", port=0)
        await sandbox.restart("two")
        await mcp_lab.call("two", "handmade", {"x": 1}, answers={"q1": {"n": 1}})
        mine = {s.port for s in live_servings()}
        sockets = [c for c in _listening() if c.laddr.port in mine]
        assert len(sockets) == 2
        assert all(c.laddr.ip == "127.0.0.1" for c in sockets)
        for serving in live_servings():
            assert serving.url.startswith("http://127.0.0.1:")
    finally:
        await sandbox.stop_all()
