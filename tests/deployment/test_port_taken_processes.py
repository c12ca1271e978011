"""A fleet instance whose port another process took: it moves to a fresh port, and nothing of the failed
attempt is left in the process table.

The port is taken first by a plain socket listener (what any other program on the machine could do between
the lab's port choice and uvicorn's bind). After each start, add or restart the test reads the process table:
no uvicorn of the instance may still run on the taken port, and exactly one instance session answers, as
itself, on the new one. `--workers 2` is covered too: its supervisor reports the bind failure in other words
("Address already in use"), which the start once took for an unexplained exit instead of a taken port.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

import mcp_lab.deployment.processes as processes_module
from mcp_lab.deployment.app import ENV_LABEL
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.processes import APP_FACTORY, InstanceProcess, PortTaken, answers_as
from tests.deployment.helpers import SERVER


def uvicorns_on(port: int) -> list[str]:
    """The instance factory's uvicorn processes started for `port`, still running."""
    found = []
    for process in psutil.process_iter():
        try:
            line = " ".join(process.cmdline())
            if APP_FACTORY in line and f"--port {port} " in line + " " and process.status() != psutil.STATUS_ZOMBIE:
                found.append(f"{process.pid} {line[-100:]}")
        except psutil.Error:
            continue
    return found


def of_instance(label: str) -> list[tuple[int, int]]:
    """(pid, session id) of every running process of instance `label`: supervisor and workers alike (they
    inherit its environment, whose ENV_LABEL names it)."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.environ().get(ENV_LABEL) == label and process.status() != psutil.STATUS_ZOMBIE:
                found.append((process.pid, os.getsid(process.pid)))
        except (psutil.Error, OSError):
            continue
    return found


async def gone(*labels: str) -> bool:
    """No process of these instances runs any more: one SIGKILLed a moment ago (a worker whose supervisor is
    gone, so init reaps it) may take a few milliseconds to leave the table."""
    for _ in range(250):
        if not any(of_instance(label) for label in labels):
            return True
        await asyncio.sleep(0.02)
    return False


@pytest.fixture
def taken() -> Iterator[int]:
    """A port held by a plain listening socket (not the lab's)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


@pytest.mark.parametrize("workers", [1, 2])
async def test_start_on_a_taken_port_leaves_no_process_and_moves(tmp_path: Path, taken: int, workers: int) -> None:
    fixed = InstanceProcess(label="fixed#0", index=0, target=SERVER, directory=tmp_path, port=taken, workers=workers)
    moved = InstanceProcess(label="moved#1", index=1, target=SERVER, directory=tmp_path, port=taken, workers=workers)
    try:
        with pytest.raises(PortTaken, match=f"port {taken} on 127.0.0.1 is taken by another process"):
            await fixed.start()
        assert not fixed.running and not uvicorns_on(taken) and await gone("fixed#0")
        await moved.start(new_port_if_taken=True)
        assert moved.port != taken and await answers_as(moved.port, "moved#1")
        assert not uvicorns_on(taken), uvicorns_on(taken)
        # Only the attempt that bound runs: one process, or a supervisor with its workers (and multiprocessing's
        # resource tracker), all in that attempt's session.
        running = of_instance("moved#1")
        assert len(running) == 1 if workers == 1 else len(running) > workers, running
        assert {session for _, session in running} == {moved.pid}, running
    finally:
        await fixed.stop()
        await moved.stop()
    assert await gone("moved#1", "fixed#0"), of_instance("moved#1")


async def test_add_and_restart_onto_a_taken_port_move_and_leave_no_orphan(
    taken: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fleet = await start_fleet(SERVER, name="squatted", instances=1, proxy=None)
    try:
        # add_instance: the port the lab picks for the new instance is the one the listener holds.
        picks = iter([taken])
        real = processes_module.free_port
        monkeypatch.setattr(processes_module, "free_port", lambda: next(picks, None) or real())
        added = await fleet.add_instance()
        assert fleet.processes[-1].port != taken and added.url == fleet.processes[-1].url
        assert not uvicorns_on(taken), uvicorns_on(taken)

        # restart: between the stop and the start, another process binds the instance's port.
        first = fleet.processes[0]
        old_port = first.port
        await first.stop()
        with socket.socket() as squatter:
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the lab's closed connections linger
            squatter.bind(("127.0.0.1", old_port))
            squatter.listen()
            await fleet.restart(first.index)
            assert first.port != old_port and await answers_as(first.port, first.label)
            assert not uvicorns_on(old_port), uvicorns_on(old_port)
        assert fleet.members[0].url == first.url
        for process in fleet.processes:  # each instance: its one process, nothing of a failed attempt
            assert [pid for pid, _ in of_instance(process.label)] == [process.pid], of_instance(process.label)
    finally:
        await fleet.stop()
    assert await gone(*(p.label for p in fleet.processes))
