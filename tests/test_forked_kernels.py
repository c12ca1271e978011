"""A kernel forked for a test (tests/forked_kernels.py) is, to the code it runs, the kernel `python -m
ipykernel_launcher` execs: one of each, started alike, compared on what a cell can see of its process.

Why: the suite's kernels are forked from a preloaded interpreter to save ~1.4 CPU-s each; a test is only
worth its name if the kernel under it is the one a user's Jupyter starts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.provisioning.factory import KernelProvisionerFactory

from tests import forked_kernels
from tests.kernel.harness import run_cells, text_of

PROBE = r"""
import json, multiprocessing, os, sys
from ipykernel.kernelapp import IPKernelApp
app = IPKernelApp.instance()
environ = dict(v.split("=", 1) for v in open("/proc/self/environ").read().split("\0") if "=" in v)
print(json.dumps({
    "path": sys.path,
    "argv": sys.argv[1:2] + sys.argv[3:],
    "cwd": os.getcwd(),
    "environ": dict(os.environ),
    "proc_environ": environ,
    "cmdline": open("/proc/self/cmdline").read().split("\0")[:4] + open("/proc/self/cmdline").read().split("\0")[5:],
    "own_session": os.getsid(0) == os.getpid() == os.getpgid(0),
    "lab_loaded": "mcp_lab" in sys.modules,
    "process": multiprocessing.current_process().name,
    "parent_process": multiprocessing.parent_process() is None,
    "parent_handle": app.parent_handle == int(os.environ["JPY_PARENT_PID"]),
    "bytecode": sys.dont_write_bytecode,
    "main": sys.modules["__main__"].__name__,
}))
"""
LOAD = "%load_ext mcp_lab\nimport mcp_lab\nprint(mcp_lab.__version__, 'mcp_call' in get_ipython().magics_manager.magics['line'])"
AT_EXIT = "import atexit\natexit.register(lambda: open({path!r}, 'w').write('ran'))"


def _kernel_facts(provisioner: str, monkeypatch: pytest.MonkeyPatch, exit_file: Path) -> dict[str, Any]:
    monkeypatch.setattr(KernelProvisionerFactory.instance(), "default_provisioner_name", provisioner)
    probe, load, _ = run_cells(PROBE, LOAD, AT_EXIT.format(path=str(exit_file)), allow_errors=False)
    facts: dict[str, Any] = json.loads(text_of(probe))
    facts["load"] = text_of(load).strip()
    facts["at_exit"] = exit_file.read_text() if exit_file.exists() else None
    return facts


def test_a_forked_kernel_is_what_an_execd_one_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if os.environ.get("MCP_LAB_TEST_KERNELS") == "exec":
        pytest.skip("forked kernels are turned off (MCP_LAB_TEST_KERNELS=exec)")
    forked_kernels.install()
    seen: list[int] = []
    original = forked_kernels._fork

    def counted(*args: Any) -> Any:
        process = original(*args)
        seen.append(process.pid)
        return process

    monkeypatch.setattr(forked_kernels, "_fork", counted)
    execd = _kernel_facts("local-provisioner", monkeypatch, tmp_path / "execd")
    assert not seen
    forked = _kernel_facts(forked_kernels.NAME, monkeypatch, tmp_path / "forked")
    assert len(seen) == 1, "the second kernel was forked"
    for key in ("environ", "proc_environ"):  # first, so that a difference reads as one
        assert set(forked[key].items()) ^ set(execd[key].items()) == set(), key
    assert forked == execd
    assert execd["own_session"] and not execd["lab_loaded"] and execd["process"] == "MainProcess"
    assert execd["parent_handle"] and execd["main"] == "__main__"
    assert execd["cmdline"][1:3] == ["-m", "ipykernel_launcher"]
    assert execd["load"] == "0.1.0 True" and execd["at_exit"] == "ran"
