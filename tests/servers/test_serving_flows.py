"""Every flow test of tests/flow/test_flow.py again, with the demo server served over loopback Streamable HTTP.

The flow engine, answerers, step mode, resume, both protocol eras: the same assertions must hold when
the lab's client reaches the server through uvicorn and httpx2 instead of in-process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from tests.conftest import build_demo
from tests.flow import test_flow


@pytest.fixture
async def demo() -> AsyncIterator[LabServer]:
    entry = build_demo()
    serve(entry)
    serving = entry.http
    try:
        yield entry
    finally:
        await sandbox.stop_all()
    assert serving is not None and not serving.alive
    assert serving.book.schemas, "the tools were never listed over HTTP"


for _name in dir(test_flow):
    if _name.startswith("test_"):
        globals()[_name] = getattr(test_flow, _name)
