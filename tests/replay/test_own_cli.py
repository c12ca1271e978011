"""`python -m mcp_lab replay` against a user's own servers over HTTP and stdio, as a CI job would run it.

The collection is recorded in-process against the originals; the servers then run as the user runs them
-- `python -m tests.sample_servers.own.shop --http PORT` in a subprocess, or started by the CLI over stdio --
where their resolvers are `__main__:...`. The originals exit 0 (each run a `python -m mcp_lab` process of its
own); each deliberately changed copy exits 1 and the printed report names exactly the paths of its change.
The changed copies' runs (each copy served by a process of its own, over HTTP and over stdio) share one
recording and two interpreters (tests/cli_batch.py: the same entry point, its exit code and output per run):
what they test is the report, not the CLI's process start.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import sys
from pathlib import Path

import pytest

from tests.cli_batch import run_batch
from tests.sample_servers.changes import CHANGES, ROOT, Change, changed_copy, named_paths, record, replay_cli, served

SERVERS = ("shop", "desk")
Result = tuple[int, str, str]


async def _over_http(collection: Path, *command: str) -> tuple[int, str, str]:
    async with served(*command) as url:
        return await replay_cli(collection, "--server", url)


async def _over_stdio(collection: Path, *command: str) -> tuple[int, str, str]:
    return await replay_cli(collection, "--stdio", shlex.join([sys.executable, *command]), "--cwd", str(ROOT))


@pytest.mark.parametrize("server", SERVERS)
async def test_the_originals_run_as_scripts_exit_0(server: str, own_recording: dict[str, Path]) -> None:
    module = ("-m", f"tests.sample_servers.own.{server}")
    runs = await asyncio.gather(_over_http(own_recording[server], *module), _over_stdio(own_recording[server], *module))
    for code, out, err in runs:
        assert code == 0, out + err
        assert out.splitlines()[0].endswith("no differences") and "Traceback" not in err


async def _every_change(folder: Path) -> dict[str, dict[str, Result]]:
    (folder / "recording").mkdir()
    recording = await record(folder / "recording")
    copies = {c.name: str(changed_copy(c, folder / f"changed-{i}")) for i, c in enumerate(CHANGES)}
    async with contextlib.AsyncExitStack() as servers:
        urls = await asyncio.gather(*(servers.enter_async_context(served(copies[c.name])) for c in CHANGES))
        http = [["replay", str(recording[c.server]), "--server", url] for c, url in zip(CHANGES, urls, strict=True)]
        stdio = [
            ["replay", str(recording[c.server]), "--stdio", shlex.join([sys.executable, copies[c.name]]), "--cwd", str(ROOT)]
            for c in CHANGES
        ]
        over_http, over_stdio = await asyncio.gather(asyncio.to_thread(run_batch, http), asyncio.to_thread(run_batch, stdio))
    return {c.name: {"http": h, "stdio": s} for c, h, s in zip(CHANGES, over_http, over_stdio, strict=True)}


@pytest.fixture(scope="module")
def every_change(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Result]]:
    """Each changed copy replayed over HTTP and over stdio: its runs' exit code, stdout and stderr."""
    return asyncio.run(_every_change(tmp_path_factory.mktemp("own-cli")))


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_each_changed_copy_exits_1_naming_its_paths(change: Change, every_change: dict[str, dict[str, Result]]) -> None:
    for transport, (code, out, err) in every_change[change.name].items():
        assert code == 1, (transport, out + err)
        assert "1 different" in out.splitlines()[0] or "1 stopped" in out.splitlines()[0], (transport, out)
        assert named_paths(out) == list(change.where), (transport, out)
