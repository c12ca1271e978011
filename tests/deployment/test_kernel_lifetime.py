"""Nothing left behind: a fleet started in a real kernel dies with it -- on shutdown and on SIGKILL.

The instances and Caddy run under `mcp_lab.deployment.guard` (prctl PR_SET_PDEATHSIG): the Linux kernel
signals them when their parent, the ipykernel, dies, even when it never ran an exit hook. Instances forked
by the kernel's preloaded launcher die with the launcher, which dies with the kernel: it is checked too.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
from pathlib import Path

from jupyter_client.manager import start_new_kernel

from mcp_lab.deployment.ports import port_is_free
from tests.deployment.helpers import alive
from tests.kernel.harness import ROOT, kernel_env

CELL = """%%mcp_server hats
from typing import Annotated

from mcp.server.mcpserver import Resolve

from tests.deployment.shop_server import Size, ask_size


@mcp.tool()
async def hat(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
    return f"a {item} hat, size {size.size}"
"""

START = """
import json
from mcp_lab.deployment.launcher import launcher
fleet = await mcp_lab.start_fleet("hats", instances=2, keys="shared")  # the cell above, as a module
flow = await mcp_lab.call("hats-fleet", "hat", {"item": "red"}, answers={"ask_size": {"size": "7"}})
facts = {"pids": fleet.pids(), "ports": fleet.ports(), "status": flow.status, "text": flow.text}
print(json.dumps({**facts, "launcher": launcher.pid}))
"""

SETUP = """
%load_ext mcp_lab
import mcp_lab, tempfile
from pathlib import Path
from mcp_lab.deployment.source import resolve_source
%mcp_server till --from tests.deployment.shop_server:mcp
print("adopted source:", resolve_source("till", Path(tempfile.mkdtemp())).target)
"""


def _run(client, code: str) -> str:  # type: ignore[no-untyped-def]
    out: list[str] = []

    def keep(msg):  # type: ignore[no-untyped-def]
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            out.append(f"{msg['content']['ename']}: {msg['content']['evalue']}")

    client.execute_interactive(code, output_hook=keep, timeout=120)
    return "".join(out)


def _gone(pids: list[int], ports: list[int], within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not [p for p in pids if alive(p)] and all(port_is_free(p) for p in ports):
            return True
        time.sleep(0.1)
    return False


def test_sigkill_restart_or_shutdown_of_the_kernel_leaves_no_process_and_no_port() -> None:
    for how in ("sigkill", "restart", "shutdown"):
        manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT), env=kernel_env())
        try:
            assert "adopted source: tests.deployment.shop_server:mcp" in _run(client, SETUP)
            _run(client, CELL)
            started = _run(client, START)
            facts = json.loads(started.strip().splitlines()[-1])
            assert facts["status"] == "done" and len(facts["pids"]) == 3, facts
            assert facts["text"] == "a red hat, size 7"
            assert all(alive(p) for p in facts["pids"])
            facts["pids"].append(facts["launcher"])  # the kernel's instance launcher goes with it too
            assert all(alive(p) for p in facts["pids"])
            if how == "sigkill":
                os.kill(manager.provisioner.process.pid, signal.SIGKILL)
            elif how == "restart":
                manager.restart_kernel(now=False)
            else:
                manager.shutdown_kernel(now=False)
            assert _gone(facts["pids"], facts["ports"]), (how, [p for p in facts["pids"] if alive(p)])
        finally:
            client.stop_channels()
            if manager.is_alive():
                manager.shutdown_kernel(now=True)
    # The killed kernel's directory (logs, Caddyfile; no keys) went with the next kernel's first fleet.
    left = [d for d in Path(tempfile.gettempdir()).glob("mcp_lab-fleet-*") if not _owner_alive(d)]
    assert not left, left


def _owner_alive(directory: Path) -> bool:
    try:
        return Path(f"/proc/{int((directory / 'owner.pid').read_text())}").exists()
    except (OSError, ValueError):
        return True  # not a fleet directory of this version: not ours to judge
