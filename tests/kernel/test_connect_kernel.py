"""`%mcp_connect` in a real ipykernel: a stdio server joins the sandbox, is called, listed, logged, reaped."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from mcp_lab.servers.transports import alive
from tests.kernel.harness import errors_of, run_cells, text_of
from tests.sample_servers.booking import command

CALL = """f = await %mcp_call bk book city=Oslo --answers '{"ask_region": {"region": "north"}}'\nprint(f.text)"""

DISCONNECT = """import mcp_lab
from mcp_lab.servers.transports import alive
pids = mcp_lab.sandbox.get("bk").pids
await %mcp_disconnect bk
print(len(pids), [alive(p) for p in pids], "bk" in mcp_lab.sandbox.servers)"""


LINGER_TOKEN = "mcp-lab-linger-token"

LINGER = f"""import sys
script = '"$0" "$1"; exec "$0" -c "import time; time.sleep(600)" {LINGER_TOKEN}'
linger = await mcp_lab.connect("linger", stdio=["sh", "-c", script, sys.executable, {command("A")[1]!r}])
print(linger.pids)"""
"""A server whose process group outlives its stdin: when the server exits, a sleeper takes its place."""


def _processes_with(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_stdio_server_in_a_notebook_from_connect_to_reaped() -> None:
    crash = f"{sys.executable} -c 'import sys; sys.stderr.write(sys.argv[1]); sys.exit(3)' no-config-file"
    cells = run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        f'%mcp_connect bk --stdio "{shlex.join(command("A"))}"',  # bare: the next cell waits for the connect
        CALL,
        "listing = %mcp_server list\ndisplay(listing)\nmcp_lab.sandbox.get('bk')",
        "%mcp_connect log bk",
        DISCONNECT,
        f'await %mcp_connect crash --stdio "{crash}"',
        "%mcp_connect onlyname",
        "%mcp_disconnect nobody",
        "print('still alive')",
        LINGER,
    )
    assert [len(errors_of(c)) for c in cells] == [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0]
    # The bare magic's display is replaced in place by a live frontend; nbclient keeps what it saw first.
    assert text_of(cells[1]).strip() == "connecting 'bk'..."
    assert text_of(cells[2]).strip() == "Booked Oslo in north"
    listing = text_of(cells[3])
    assert "bk: outside stdio, not ours: keyless view only, stdio: " in listing
    assert "connection 'bk': stdio: " in listing and "protocol 2026-07-28" in listing
    assert "booking server variant A, pid" in text_of(cells[4])
    assert text_of(cells[5]).strip() == "1 [False] False"
    crashed = text_of(cells[6])
    assert (
        crashed.startswith("ConnectionFailed: cannot connect 'crash': the command exited")
        and "no-config-file" in crashed
    )
    assert "usage: %mcp_connect NAME URL" in text_of(cells[7])
    assert text_of(cells[8]).startswith("LabError: no server named 'nobody'")
    assert text_of(cells[9]).strip() == "still alive"
    # The kernel has shut down with "linger" still connected: its exit hook killed the whole process group.
    lingering = [int(p) for p in text_of(cells[10]).strip().strip("[]").split(",")]
    assert len(lingering) == 1
    assert not _processes_with(LINGER_TOKEN) and not alive(lingering[0])
