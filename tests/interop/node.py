"""The Node side of tests/interop: the pinned Node binary, the TypeScript SDK fixture server, the suite.

Everything here comes from tests/interop/package-lock.json, installed by ./dev (`npm ci --prefix
tests/interop`), never fetched at test time. In CI (`CI` set) a missing install fails the test instead of
skipping it: nothing is skipped silently there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
MODULES = HERE / "node_modules"
NODE = MODULES / ".bin" / "node"
FIXTURE = HERE / "ts_server" / "server.mjs"
CONFORMANCE = MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
SERVER_VERSION = "2.4.0"
CONFORMANCE_VERSION = "0.2.0-alpha.12"


def installed() -> None:
    """Fail (in CI) or skip (elsewhere) unless ./dev installed the pinned packages."""
    if NODE.exists() and CONFORMANCE.exists() and (MODULES / "@modelcontextprotocol" / "server").exists():
        return
    message = "tests/interop's npm packages are not installed (./dev installs them: npm ci --prefix tests/interop)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def node_env() -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{NODE.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "npm_config_offline": "true",
        "npm_config_update_notifier": "false",
    }


@contextlib.asynccontextmanager
async def ts_server(variant: str | None = None) -> AsyncIterator[str]:
    """The TypeScript SDK fixture on 127.0.0.1 (a free port); its URL. Stopped (and reaped) afterwards."""
    installed()
    env = node_env()
    if variant is not None:
        env["FIXTURE_VARIANT"] = variant
    process = await asyncio.create_subprocess_exec(
        str(NODE), str(FIXTURE), "0", env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+/mcp", line)
        assert found is not None, f"the fixture did not start: {line!r}"
        yield found.group()
    finally:
        if process.returncode is None:
            process.terminate()
        with contextlib.suppress(ProcessLookupError):
            await asyncio.wait_for(process.wait(), 10)
