"""After a hub stops, a port still held counts against it only when one of the hub's processes holds it.

tests/classroom/test_hub.py runs beside the rest of the suite, where the OS may hand a port the hub freed to
a neighbour; `still_listening` tells the two apart by what a process of the hub carries (its working folder,
HOME or command line inside the hub's directory), whoever its parent is now. Proved here with two real
listeners on loopback: one started inside a hub's directory and left running, one a neighbour's.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.classroom.hub import still_listening, wait_for

LISTEN = (
    "import socket, sys, time\n"
    "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n"
    "print(s.getsockname()[1], flush=True); time.sleep(120)\n"
)


Listener = Callable[[Path], tuple[subprocess.Popen[str], int]]


@pytest.fixture
def listener() -> Iterator[Listener]:
    """Starts a process in a folder that listens on a free loopback port: the process and its port."""
    started: list[subprocess.Popen[str]] = []

    def start(cwd: Path) -> tuple[subprocess.Popen[str], int]:
        cwd.mkdir(parents=True, exist_ok=True)
        process = subprocess.Popen([sys.executable, "-c", LISTEN], cwd=cwd, stdout=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stdout is not None
        return process, int(process.stdout.readline())

    yield start
    for process in started:
        process.kill()
        process.wait()


def test_a_port_counts_as_held_only_by_a_process_of_the_hub(tmp_path: Path, listener: Listener) -> None:
    hub = tmp_path / "hub1"
    leaked, leaked_port = listener(hub / "homes" / "ada")  # left behind by the hub, under its directory
    neighbour, neighbour_port = listener(tmp_path / "hub10")  # a name that merely starts like the hub's
    ports = {leaked_port, neighbour_port}
    found = wait_for("both listeners", lambda: still_listening(ports, set(), hub) or None, 10)
    assert set(found) == {leaked_port}, found
    assert f"pid {leaked.pid}" in found[leaked_port]
    # A pid of the recorded tree counts wherever it runs.
    assert set(still_listening(ports, {neighbour.pid}, hub)) == ports
    leaked.kill()
    leaked.wait()
    assert still_listening(ports, set(), hub) == {}
