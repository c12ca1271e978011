"""The SDK docs' distributed client: one process writes the state down, another resumes the flow.

Both processes run the same server (same name, so the same audience, and the same key ring), as a fleet
behind a load balancer would; the token sealed by the first is verified by the second.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.kernel.harness import ROOT, kernel_env

SCRIPT = """
import asyncio, sys
import mcp_lab
from tests.conftest import build_demo

KEYS = [b"k" * 32]

async def first(path):
    build_demo(keys=KEYS)
    flow = await mcp_lab.call("demo", "book", {"city": "Lima"}, answers={"ask_region": {"region": "sa"}})
    open(path, "w").write(flow.to_json())
    print(flow.status, len(flow.rounds))

async def second(path):
    build_demo(keys=KEYS)
    flow = await mcp_lab.resume(open(path).read(), answers={"ask_ok": {"ok": True}})
    print(flow.status, len(flow.rounds), flow.text)

asyncio.run({"first": first, "second": second}[sys.argv[1]](sys.argv[2]))
"""


def _run(step: str, path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, step, str(path)],
        cwd=ROOT,
        env=kernel_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_flow_written_down_in_one_process_resumes_in_another(tmp_path: Path) -> None:
    saved = tmp_path / "flow.json"
    assert _run("first", saved) == "input_required 2"
    data = json.loads(saved.read_text())
    assert data["rounds"][-1]["request_state"].startswith("v1.")
    assert "k" * 32 not in saved.read_text()  # the file holds the sealed token, never the key
    assert _run("second", saved) == "done 3 Booked Lima in sa (ok=True)"
