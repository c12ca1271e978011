"""The own-deployment check against a fleet the lab did not start: plain uvicorn command lines behind Caddy.

`python -m mcp_lab deploy-check URL COLLECTION [--instance URL ...]` exits 0 when every instance verifies what
its siblings sealed, 1 when some retries were refused, 2 when it cannot run -- one line, no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import mcp_lab
from mcp_lab.deployment.check import check_deployment
from mcp_lab.deployment.ports import port_is_free
from mcp_lab.deployment.processes import free_port
from mcp_lab.deployment.proxy import caddy_binary, caddyfile
from tests.deployment.helpers import SIZE
from tests.kernel.harness import ROOT

CLI = [sys.executable, "-m", "mcp_lab", "deploy-check"]


def _wait(port: int) -> None:
    deadline = time.monotonic() + 60
    while port_is_free(port):
        assert time.monotonic() < deadline, f"nothing listens on {port}"
        time.sleep(0.05)


@contextmanager
def outside_fleet(tmp: Path, shared: bool) -> Iterator[tuple[str, list[str]]]:
    """Two `uvicorn` processes and a Caddy, started as a person would start them (no mcp_lab involved)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if shared:
        key = tmp / "shop.key"
        key.write_text(os.urandom(32).hex())
        key.chmod(0o600)
        env["SHOP_KEY_FILE"] = str(key)
    ports = [free_port(), free_port()]
    proxy_port = free_port()
    started = []
    for port in ports:
        command = [sys.executable, "-m", "uvicorn", "tests.deployment.outside_app:app", "--host", "127.0.0.1"]
        started.append(subprocess.Popen([*command, "--port", str(port), "--log-level", "warning"], env=env, cwd=ROOT))
    config = tmp / "Caddyfile"
    pools: dict[str | None, list[str]] = {None: [f"127.0.0.1:{p}" for p in ports]}
    config.write_text(caddyfile(proxy_port, pools, admin_socket=tmp / "admin.sock", storage=tmp / "data"))
    home = {"HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp), "XDG_DATA_HOME": str(tmp)}
    binary = caddy_binary()
    assert binary is not None
    started.append(
        subprocess.Popen([binary, "run", "--config", str(config), "--adapter", "caddyfile"], env={**os.environ, **home})
    )
    try:
        for port in [*ports, proxy_port]:
            _wait(port)
        yield f"http://127.0.0.1:{proxy_port}/mcp", [f"http://127.0.0.1:{p}/mcp" for p in ports]
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(10)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)


async def test_the_check_passes_with_shared_keys_fails_with_default_keys_and_says_when_it_cannot_run(
    tmp_path: Path,
) -> None:
    collection = tmp_path / "orders.json"
    with outside_fleet(tmp_path, shared=True) as (url, instances):
        await mcp_lab.connect("recorder", instances[0])  # recorded against one instance: nothing crosses
        try:
            recorded = await mcp_lab.call("recorder", "order", {"item": "scarf"}, answers=SIZE)
        finally:
            await mcp_lab.disconnect("recorder")
        assert recorded.status == "done"
        mcp_lab.save_flows(collection, [recorded])
        report = await check_deployment(url, collection, instances=instances, times=4)
        assert report.ok and (report.flows, report.verified, report.refused) == (4, 4, 0), report.text()
        assert len(report.pairs) == 2 and all(p["ok"] for p in report.pairs)
        assert "no Mcp-Lab-Instance header" in report.text()
        done = _cli(url, str(collection), "--instance", instances[0], "--instance", instances[1], "--times", "3")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "every retry verified" in done.stdout and "2 of 2 verify each other" in done.stdout

    with outside_fleet(tmp_path, shared=False) as (url, instances):
        done = _cli(url, str(collection), "--instance", instances[0], "--instance", instances[1], "--times", "4")
        assert done.returncode == 1, done.stdout + done.stderr
        assert "some retries were refused" in done.stdout and "4 refused" in done.stdout, done.stdout
        assert "0 of 2 verify each other" in done.stdout

    nowhere = _cli(f"http://127.0.0.1:{free_port()}/mcp", str(collection))
    assert nowhere.returncode == 2 and len(nowhere.stderr.strip().splitlines()) == 1, nowhere.stderr
    assert nowhere.stderr.startswith("mcp_lab deploy-check: error: cannot connect")
    missing = _cli("http://127.0.0.1:9/mcp", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1, missing.stderr
