"""Credentials per kernel (issue 25): two real kernels serving a server of the same name each keep their own
private header file; stopping one leaves the other's; a kernel's file goes when it shuts down or restarts;
and the audit CLI, given a file with `--header-file` (or a header with `--header`), never shows the secret
-- not on a succeeding run, not on a failing one, not when argparse refuses an unquoted header.

The header files are what `%mcp_server url NAME` writes; the test reads them only to pass their path on and
to find the secret it then looks for in every output.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from jupyter_client.manager import KernelManager

from tests.cli_batch import run_batch
from tests.kernel.harness import ROOT, kernel_env

SERVE = '''%load_ext mcp_lab
'''
CELL = '''%%mcp_server shop --http
@mcp.tool()
def forecast(region: str) -> str:
    """Today's weather."""
    return f"sunny in {region}"
'''
URL = "%mcp_server url shop"
RECORD = """
import mcp_lab
flow = await mcp_lab.call("shop", "forecast", {"region": "eu-west"})
mcp_lab.save_flows(COLLECTION, [flow])
print(flow.status)
"""


class Kernel:
    """One real ipykernel and a way to run a cell in it and read what it printed."""

    def __init__(self, env: dict[str, str]) -> None:
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env, cwd=str(ROOT))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)

    def run(self, code: str) -> str:
        parts: list[str] = []

        def hook(message: dict[str, Any]) -> None:
            content = message["content"]
            if message["msg_type"] == "stream":
                parts.append(content["text"])
            elif message["msg_type"] in ("execute_result", "display_data"):
                parts.append(content["data"].get("text/plain", ""))
            elif message["msg_type"] == "error":
                parts.append(f"{content['ename']}: {content['evalue']}")

        self.client.execute_interactive(code, output_hook=hook, timeout=60)
        return "".join(parts)

    def pid(self) -> int:
        return int(self.run("import os; print(os.getpid())").strip())

    def stop(self) -> None:
        self.client.stop_channels()
        if self.manager.is_alive():
            self.manager.shutdown_kernel(now=False)  # a shutdown request, as Jupyter sends it


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    env = {**kernel_env(), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    yield tmp_path / "runtime" / "mcp_lab", env


def _header_path(printed: str) -> Path:
    (line,) = [line for line in printed.splitlines() if "header line written to" in line]
    return Path(line.split("written to ", 1)[1].split(" (readable", 1)[0])


def _url(printed: str) -> str:
    return printed.split("is served at ", 1)[1].split()[0]


class Run(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def test_two_kernels_one_server_name_and_the_audit_cli_never_shows_the_secret(
    runtime: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    folder, env = runtime
    first, second = Kernel(env), Kernel(env)
    try:
        printed = []
        for kernel in (first, second):
            kernel.run(SERVE)
            assert "serving 'shop'" in kernel.run(CELL)
            printed.append(kernel.run(URL))
        paths = [_header_path(p) for p in printed]
        assert paths[0] != paths[1] and all(p.exists() for p in paths), printed
        for path, pid in zip(paths, (first.pid(), second.pid()), strict=True):
            assert path.parent == folder and f".{pid}.header" in path.name  # kernel id and process id
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        secrets = [p.read_text().split("Bearer ", 1)[1].strip() for p in paths]
        assert secrets[0] != secrets[1] and not any(s in text for s in secrets for text in printed)

        # A symlink planted where the second kernel will write is replaced, never followed.
        target = tmp_path / "victim"
        target.write_text("untouched")
        paths[1].unlink()
        paths[1].symlink_to(target)
        again = second.run(URL)
        assert _header_path(again) == paths[1] and not paths[1].is_symlink()
        assert target.read_text() == "untouched" and stat.S_IMODE(paths[1].stat().st_mode) == 0o600
        secrets[1] = paths[1].read_text().split("Bearer ", 1)[1].strip()

        # Stopping the server in one kernel leaves the other kernel's file alone.
        first.run("%mcp_server stop shop")
        assert not paths[0].exists() and paths[1].exists()

        # The audit CLI with the second kernel's file: it runs, and no output holds the secret.
        collection = tmp_path / "shop.flows.json"
        assert "done" in second.run(f"COLLECTION = {str(collection)!r}\n" + RECORD)
        url = _url(again)
        # The five runs in one interpreter (tests/cli_batch.py: the real entry point per run, its exit code and
        # output captured at the file-descriptor level): what they test is what each prints, not its start.
        cases = {
            "header file": [str(collection), "--server", url, "--header-file", str(paths[1])],
            "header": [str(collection), "--server", url, "--header", f"Authorization: Bearer {secrets[1]}"],
            "wrong secret": [str(collection), "--server", url, "--header", f"Authorization: Bearer {secrets[0]}"],
            "unquoted": [str(collection), "--server", url, "--header", "Authorization:", "Bearer", secrets[1]],
            "password in the URL": [
                str(collection), "--server", f"http://user:{secrets[1]}@127.0.0.1:9/mcp", "--connect-timeout", "5"
            ],
        }  # fmt: skip
        results = run_batch([["audit", *argv] for argv in cases.values()])
        runs = {name: Run(*result) for name, result in zip(cases, results, strict=True)}
        assert runs["header file"].returncode == 0, runs["header file"].stdout + runs["header file"].stderr
        assert runs["header"].returncode == 0
        assert "audit of 'shop'" in runs["header file"].stdout
        for failing in ("wrong secret", "unquoted", "password in the URL"):
            assert runs[failing].returncode == 2, failing
            assert runs[failing].stderr.strip(), failing
        assert "requires a credential (HTTP 401)" in runs["wrong secret"].stderr
        assert "unrecognized arguments: *** *** (not shown" in runs["unquoted"].stderr
        assert "nothing answers at http://127.0.0.1:9/mcp" in runs["password in the URL"].stderr
        for name, run in runs.items():
            for secret in secrets:
                assert secret not in run.stdout and secret not in run.stderr, name

        # Shutting a kernel down removes its file; a restarted kernel's file goes with the old process.
        second.stop()
        assert not paths[1].exists()
        first.run(CELL)
        path = _header_path(first.run(URL))
        assert path.exists()
        first.manager.restart_kernel(now=False)
        assert not path.exists()
        assert list(folder.glob("*.header")) == []
    finally:
        for kernel in (first, second):
            kernel.stop()
    assert os.listdir(folder) == []
