"""`python -m mcp_lab replay` against a user's own servers over HTTP and stdio, as a CI job would run it.

The collection is recorded in-process against the originals; the servers then run as the user runs them
-- `python -m tests.sample_servers.own.shop --http PORT` in a subprocess, or started by the CLI over stdio --
where their resolvers are `__main__:...`. The originals exit 0; each deliberately changed copy exits 1 and
the printed report names exactly the paths of its change. Every server (original or copy) is a process of
its own over HTTP and over stdio; the replays share one recording and two interpreters (tests/cli_batch.py:
the real entry point per run, its exit code and output): what they test is the report, not the CLI's
process start (tests/replay/test_cli.py runs `python -m mcp_lab replay` as processes of their own).
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import sys
from pathlib import Path

import pytest

from tests.cli_batch import run_batch
from tests.sample_servers.changes import CHANGES, ROOT, Change, changed_copy, named_paths, record, served

SERVERS = ("shop", "desk")
Result = tuple[int, str, str]


async def _every_run(folder: Path) -> dict[str, dict[str, Result]]:
    """The originals (as modules) and each changed copy (as a file), each replayed over HTTP and over stdio."""
    (folder / "recording").mkdir()
    recording = await record(folder / "recording")
    targets = {server: (server, ["-m", f"tests.sample_servers.own.{server}"]) for server in SERVERS}
    for i, change in enumerate(CHANGES):
        targets[change.name] = (change.server, [str(changed_copy(change, folder / f"changed-{i}"))])
    async with contextlib.AsyncExitStack() as servers:
        urls = await asyncio.gather(*(servers.enter_async_context(served(*cmd)) for _, cmd in targets.values()))
        http = [["replay", str(recording[s]), "--server", url] for (s, _), url in zip(targets.values(), urls, strict=True)]
        stdio = [
            ["replay", str(recording[s]), "--stdio", shlex.join([sys.executable, *cmd]), "--cwd", str(ROOT)]
            for s, cmd in targets.values()
        ]
        over_http, over_stdio = await asyncio.gather(asyncio.to_thread(run_batch, http), asyncio.to_thread(run_batch, stdio))
    return {name: {"http": h, "stdio": s} for name, h, s in zip(targets, over_http, over_stdio, strict=True)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Result]]:
    """Server or change name -> transport -> that run's exit code, stdout and stderr."""
    return asyncio.run(_every_run(tmp_path_factory.mktemp("own-cli")))


@pytest.mark.parametrize("server", SERVERS)
def test_the_originals_run_as_scripts_exit_0(server: str, runs: dict[str, dict[str, Result]]) -> None:
    for transport, (code, out, err) in runs[server].items():
        assert code == 0, (transport, out + err)
        assert out.splitlines()[0].endswith("no differences") and "Traceback" not in err, (transport, out + err)


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_each_changed_copy_exits_1_naming_its_paths(change: Change, runs: dict[str, dict[str, Result]]) -> None:
    for transport, (code, out, err) in runs[change.name].items():
        assert code == 1, (transport, out + err)
        assert "1 different" in out.splitlines()[0] or "1 stopped" in out.splitlines()[0], (transport, out)
        assert named_paths(out) == list(change.where), (transport, out)
