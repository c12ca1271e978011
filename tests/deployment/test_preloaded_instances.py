"""Instances forked by the kernel's preloaded launcher are the same processes the exec path starts.

Each one is its own OS process, in its own session, on its own port, with its own default key (a retry on a
sibling is refused), its command line and environment in /proc as exec would have left them, stdin on
/dev/null and stdout/stderr on its log. The launcher dies with its parent (here a plain Python process
standing in for the kernel, SIGKILLed: no exit hook runs) and the instances die with the launcher; a killed
launcher is started again by the next start, and one that cannot start leaves the instances to exec.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

import mcp_lab.deployment.launcher as launcher_module
import mcp_lab.deployment.processes as processes_module
from mcp_lab.deployment.app import ENV_LABEL
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.launcher import ForkedProcess, Launcher, launcher
from mcp_lab.deployment.processes import APP_FACTORY, InstanceProcess, answers_as
from tests.deployment.helpers import SERVER, alive, no_process_left, orders, refused

MARK = "MCP_LAB_PRELOAD_TEST_MARK"
ROOT = Path(__file__).resolve().parents[2]


async def test_forked_instances_are_separate_sessions_with_their_own_keys_and_their_own_proc_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(MARK, "set in the kernel after the launcher may have started")
    fleet = await start_fleet(SERVER, name="forked", instances=3)
    try:
        processes = fleet.processes
        assert all(isinstance(p.process, ForkedProcess) for p in processes), [p.process for p in processes]
        pids = [p.pid for p in processes]
        assert len(set(pids)) == 3 and launcher.pid not in pids and os.getpid() not in pids
        for process in processes:
            assert process.pid is not None
            seen = psutil.Process(process.pid)
            assert os.getsid(process.pid) == process.pid == os.getpgid(process.pid)  # a session of its own
            assert seen.ppid() == launcher.pid and os.getsid(launcher.pid or 0) == launcher.pid
            line = " ".join(seen.cmdline())
            assert line == " ".join(process.command()) and APP_FACTORY in line and f"--port {process.port} " in line
            environ = seen.environ()
            assert environ == process._environment() and environ[ENV_LABEL] == process.label and MARK in environ
            assert seen.cwd() == str(process.directory) and umask(process.pid) == umask(os.getpid())
            assert os.readlink(f"/proc/{process.pid}/fd/0") == os.devnull
            assert os.readlink(f"/proc/{process.pid}/fd/1") == os.readlink(f"/proc/{process.pid}/fd/2") == str(process.log_path)
            assert await answers_as(process.port, process.label)
            assert process.state()["pid"] == process.pid  # the app was built in the child
        assert set(pids) < set(fleet.pids()) and launcher.pid not in fleet.pids()  # not in any instance's session
        flows = await orders(fleet, 6)  # round robin: every retry lands on a sibling, whose key differs
        assert len([f for f in flows if refused(f)]) == 6, [f.summary() for f in flows]

        old = processes[0].pid
        await fleet.restart(processes[0].index)  # a new process: a new pid, a new key
        assert processes[0].pid != old and not alive(old or 0) and isinstance(processes[0].process, ForkedProcess)
        assert await answers_as(processes[0].port, processes[0].label)
        ports = fleet.ports()
        pids = fleet.pids()

        child = os.fork()  # a process forked from the kernel is not the launcher's parent: it would start its own
        if child == 0:
            os._exit(0 if launcher.control is None and launcher.process is None else 1)
        assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0
        assert launcher.alive and await answers_as(processes[1].port, processes[1].label)
    finally:
        await fleet.stop()
    assert no_process_left(pids, ports)
    assert launcher.alive  # it stays for the kernel's next fleet


def umask(pid: int) -> str:
    return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Umask:"))


async def test_a_killed_launcher_takes_its_instances_and_the_next_start_starts_it_again(tmp_path: Path) -> None:
    first = InstanceProcess(label="orphan#0", index=0, target=SERVER, directory=tmp_path)
    second = InstanceProcess(label="orphan#1", index=1, target=SERVER, directory=tmp_path)
    try:
        await first.start()
        await second.start()
        assert isinstance(first.process, ForkedProcess) and launcher.pid is not None
        killed, instances = launcher.pid, [first.pid, second.pid]
        os.kill(killed, signal.SIGKILL)
        for _ in range(500):  # the instances get SIGTERM from Linux as the launcher dies, and shut down
            if not first.running and not any(alive(p or 0) for p in instances):
                break
            await asyncio.sleep(0.02)
        assert not first.running and not any(alive(p or 0) for p in instances)
        assert first.process is not None and first.process.returncode is not None
        await first.restart()  # the next start: a new launcher forks it
        assert launcher.pid not in (None, killed) and isinstance(first.process, ForkedProcess)
        assert first.pid not in instances and await answers_as(first.port, first.label)
        assert not second.running  # first asked after the new launcher started: its old one never reports it
    finally:
        await first.stop()
        await second.stop()


async def test_a_launcher_that_cannot_start_leaves_the_instance_to_exec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(launcher_module, "LAUNCHER_MODULE", "mcp_lab.deployment.no_such_launcher")
    broken = Launcher()
    monkeypatch.setattr(processes_module, "launcher", broken)
    instance = InstanceProcess(label="execd#0", index=0, target=SERVER, directory=tmp_path)
    try:
        await instance.start()
        assert broken.failure and not broken.alive
        assert isinstance(instance.process, subprocess.Popen) and instance.pid is not None
        assert " ".join(psutil.Process(instance.pid).cmdline()) == " ".join(instance.command())
        assert os.getsid(instance.pid) == instance.pid and await answers_as(instance.port, instance.label)
    finally:
        await instance.stop()
    assert not instance.running


KERNEL = """
import asyncio, json, sys
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.launcher import launcher

async def main():
    fleet = await start_fleet("tests.deployment.shop_server:mcp", name="doomed", instances=2, proxy=None)
    print(json.dumps({"pids": fleet.pids(), "ports": fleet.ports(), "launcher": launcher.pid}), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_sigkilled_parent_leaves_no_instance_and_no_launcher() -> None:
    parent = subprocess.Popen([sys.executable, "-c", KERNEL], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        facts = json.loads(parent.stdout.readline())
        everything = [*facts["pids"], facts["launcher"]]
        assert len(facts["pids"]) == 2 and all(alive(p) for p in everything), facts
        assert all(psutil.Process(p).ppid() == facts["launcher"] for p in facts["pids"])
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not no_process_left(everything, facts["ports"]):
            time.sleep(0.05)
        assert no_process_left(everything, facts["ports"]), [p for p in everything if alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()



async def test_an_interpreter_setting_the_launcher_did_not_start_with_is_started_by_exec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await launcher.usable()  # started without it
    monkeypatch.setenv("PYTHONHASHSEED", "7")  # read by an interpreter as it starts: a fork cannot have it
    instance = InstanceProcess(label="seeded#0", index=0, target=SERVER, directory=tmp_path)
    try:
        await instance.start()
        assert isinstance(instance.process, subprocess.Popen) and instance.pid is not None
        assert psutil.Process(instance.pid).environ()["PYTHONHASHSEED"] == "7"
        assert await answers_as(instance.port, instance.label)
    finally:
        await instance.stop()
