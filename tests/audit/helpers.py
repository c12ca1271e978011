"""Starting the audit's test servers three ways -- in-process, over HTTP (a subprocess), over stdio -- and
recording their calls through the lab, as a person would before auditing."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_lab
from mcp_lab.flow.answers import ScriptedAnswerer
from mcp_lab.flow.flow import Flow
from mcp_lab.servers.sandbox import sandbox
from tests import preforked

ROOT = Path(__file__).resolve().parents[2]
TRANSPORTS = ("in-process", "http", "stdio")


def command(module: ModuleType, flag: str) -> list[str]:
    return [sys.executable, "-m", module.__name__, flag]


@contextlib.asynccontextmanager
async def http_subprocess(module: ModuleType) -> AsyncIterator[str]:
    """The module's server in a process of its own on 127.0.0.1; yields its URL; stops it."""
    # Forked from the test process's preloaded interpreter (tests/preforked.py): the same `python -m MODULE
    # --http` run, without importing the SDK again; the stdio servers are started by the lab itself.
    process = await preforked.start(["-m", module.__name__, "--http"], cwd=ROOT)
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 120)
        url = line.decode().strip()
        assert url.startswith("http://127.0.0.1:"), url
        yield url
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()


@contextlib.asynccontextmanager
async def started(module: ModuleType, transport: str, **build: Any) -> AsyncIterator[Any]:
    """The module's server reached `transport`-wise, registered in the sandbox under its name."""
    name = module.NAME
    try:
        if transport == "in-process":
            yield sandbox.add(module.build(**build))
        elif transport == "http":
            async with http_subprocess(module) as url:
                yield await mcp_lab.connect(name, url)
        else:
            yield await mcp_lab.connect(name, stdio=command(module, "--stdio"), cwd=str(ROOT))
    finally:
        await sandbox.stop_all()


async def record(connection: Any, calls: list[Any]) -> list[Flow]:
    """Each call run through the lab's flow engine with its scripted answers: the recording the audit repeats."""
    flows = []
    for call in calls:
        flow = Flow(server=connection.name, method=call.method, target=call.target, arguments=dict(call.arguments))
        flow.bind(connection, ScriptedAnswerer(call.answers) if call.answers else None)
        flows.append(await flow.run(timeout=60))
    return flows
