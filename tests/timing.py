"""Where `./dev test`'s time goes: wall and CPU time per test file, summed over its tests.

Why: the suite runs on 2 cores with more test processes than cores, so a file's wall time says little
about what it costs the others; its CPU time does (this process's, plus the kernels, servers and tools it
started and waited for -- a process still running when a file ends, such as a session's JupyterLab, is
counted for the file during which it ends). `./dev test` loads this plugin (`-p tests.timing`) into every
pytest run with MCP_LAB_TEST_TIMES naming a folder; each process writes one JSON file there when it ends,
and `python -m tests.timing FOLDER` prints the heaviest files. Only measures: nothing here changes a test.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pytest

_SPENT: dict[str, list[float]] = {}
"""test file -> [wall seconds, CPU seconds, tests]"""


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _fork_server_cpu()


_CLOCK = os.sysconf("SC_CLK_TCK")


def _fork_server_cpu() -> float:
    """The CPU of this process's multiprocessing fork server and of the children it has reaped: the servers and
    kernels forked there (tests/preforked.py, tests/forked_kernels.py) are not this process's children, and
    the fork server itself is reaped only at exit, after this plugin has written its figures."""
    server = getattr(sys.modules.get("multiprocessing.forkserver"), "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if not pid:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(f) for f in fields[11:15]) / _CLOCK  # utime, stime, cutime, cstime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    wall, cpu = time.perf_counter(), _cpu()
    try:
        return (yield)
    finally:
        spent = _SPENT.setdefault(item.nodeid.split("::", 1)[0], [0.0, 0.0, 0])
        spent[0] += time.perf_counter() - wall
        spent[1] += _cpu() - cpu
        spent[2] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("MCP_LAB_TEST_TIMES")
    if not folder or not _SPENT:
        return
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(folder) / f"{name}-{os.getpid()}.json"
    path.write_text(json.dumps({"process": name, "files": _SPENT}))


def main(folder: str, top: int = 25) -> None:
    files: dict[str, list[float]] = {}
    for path in sorted(Path(folder).glob("*.json")):
        for file, (wall, cpu, tests) in json.loads(path.read_text())["files"].items():
            files[file] = [wall, cpu, tests]
    if not files:
        return
    wall_total, cpu_total = sum(w for w, _, _ in files.values()), sum(c for _, c, _ in files.values())
    print(f"== time per test file: {len(files)} files, {wall_total:.0f} s of test wall time, {cpu_total:.0f} CPU-s")
    print(f"   {'wall s':>7} {'CPU s':>7} {'tests':>5}  file (the {top} with the most CPU time)")
    for file, (wall, cpu, tests) in sorted(files.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"   {wall:7.1f} {cpu:7.1f} {tests:5d}  {file}")


if __name__ == "__main__":
    main(sys.argv[1])
