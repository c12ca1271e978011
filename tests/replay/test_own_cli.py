"""`python -m mcp_lab replay` against a user's own servers over HTTP and stdio, as a CI job would run it.

The collection is recorded in-process against the originals; the servers then run as the user runs them
-- `python -m tests.sample_servers.own.shop --http PORT` in a subprocess, or started by the CLI over stdio --
where their resolvers are `__main__:...`. The originals exit 0; each deliberately changed copy exits 1 and
the printed report names exactly the paths of its change.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from tests.sample_servers.changes import CHANGES, ROOT, Change, changed_copy, named_paths, replay_cli, served

SERVERS = ("shop", "desk")


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


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
async def test_each_changed_copy_exits_1_naming_its_paths(
    change: Change, own_recording: dict[str, Path], tmp_path: Path
) -> None:
    copy = str(changed_copy(change, tmp_path / "changed"))
    collection = own_recording[change.server]
    runs = await asyncio.gather(_over_http(collection, copy), _over_stdio(collection, copy))
    for transport, (code, out, err) in zip(("http", "stdio"), runs, strict=True):
        assert code == 1, (transport, out + err)
        assert "1 different" in out.splitlines()[0] or "1 stopped" in out.splitlines()[0], (transport, out)
        assert named_paths(out) == list(change.where), (transport, out)
