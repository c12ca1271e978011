"""Shared fixtures: real in-process SDK servers registered in the lab's sandbox."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated

import mcp.types as T
import pytest
from mcp.server.mcpserver import Context, Elicit, ListRoots, Resolve, Sample
from pydantic import BaseModel

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from tests.isolation import pytest_configure, pytest_unconfigure  # noqa: F401 - hooks: each process its own folders

# How `./dev test` shares the suite (it runs pytest twice; MCP_LAB_TEST_PHASE says which part each run takes):
# - "parallel": every test but SERIAL, in pytest-xdist workers, `--dist loadfile`: each test file is one unit,
#   run whole and in order by one worker, so a module's kernel, server or fixture starts once, as in a plain
#   run, and a module's tests see each other's effects as they do there. Files start heaviest first (HEAVY),
#   so that no long file is left to run alone at the end. tests/isolation.py gives each process its own temp,
#   Jupyter and IPython folders and starts its kernels over Unix sockets.
# - "serial": SERIAL alone, with no other test of the suite beside them: tests/servers/test_connect_stdio.py
#   lost one of its two server processes between tests with other workers beside it (seen on an earlier
#   attempt, not understood yet). (tests/classroom/ runs in parallel: the nbgrader kernels use Unix sockets,
#   and after stopping its hub test_hub.py counts a port as held only by a process of that hub, not by a
#   neighbour the OS gave the freed port to.)
# The parallel run starts during the serial one and only collects until `./dev test` opens its gate (tests/startup.py).
# Unset (a plain `pytest`): everything, in collection order.
ROOT = Path(__file__).resolve().parents[1]
SERIAL = ("tests/servers/test_connect_stdio.py",)
# The longest files first (measured in one run of `./dev test`), so none of them is left to run alone at the end;
# a file not named here runs after these, in collection order. Order only: correctness never depends on it.
HEAVY = (
    "tests/classroom/",
    "tests/browser/test_run_all_twice_11.py",  # tutorial 11 alone: the heaviest of them, measured alone
    "tests/browser/test_run_all_twice_",
    "tests/browser/test_live_form.py",
    "tests/browser/",
    "tests/interop/test_conformance.py",
    "tests/audit/test_cli.py",
    "tests/inspector/",
    "tests/audit/test_servers.py",
    "tests/replay/test_own_cli.py",
    "tests/deployment/",
    "tests/replay/test_hostile_collections.py",
    "tests/kernel/",
    "tests/interop/",
    "tests/notebooks/",
)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The serial run reads only SERIAL's files: importing the whole suite to deselect all but SERIAL's
    files costs that process seconds of CPU (every test module and what it imports). The parallel run still
    collects everything and deselects SERIAL below (its workers must all collect the same items)."""
    if os.environ.get("MCP_LAB_TEST_PHASE") != "serial":
        return None
    try:
        relative = collection_path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None  # a path outside the checkout, named on the command line: collected as asked
    if collection_path.is_dir():
        inside = relative + "/"
        return not any(path.startswith(inside) or path == relative for path in SERIAL) and relative != "."
    if not collection_path.name.endswith(".py") or collection_path.name == "conftest.py":
        return None
    return not relative.startswith(SERIAL)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    phase = os.environ.get("MCP_LAB_TEST_PHASE")
    if phase in ("parallel", "serial"):
        chosen = [item for item in items if _file(item).startswith(SERIAL) == (phase == "serial")]
        if len(chosen) != len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
            items[:] = chosen
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # Every worker sorts the same way (xdist checks that all collected the same order); the sort is stable,
        # so a file's tests keep their order.
        items.sort(key=lambda item: _weight(_file(item)))


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _weight(path: str) -> int:
    for rank, prefix in enumerate(HEAVY):
        if path.startswith(prefix):
            return rank
    return len(HEAVY)


class Region(BaseModel):
    region: str


class Confirm(BaseModel):
    ok: bool


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)


async def ask_ok(region: Annotated[Region, Resolve(ask_region)]) -> Elicit[Confirm]:
    return Elicit(f"Proceed in {region.region}?", Confirm)


def write_haiku() -> Sample:
    return Sample([T.SamplingMessage(role="user", content=T.TextContent(type="text", text="a haiku"))], max_tokens=20)


def my_roots() -> ListRoots:
    return ListRoots()


PICK = T.ElicitRequest(
    params=T.ElicitRequestFormParams(
        message="pick a number",
        requested_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    )
)


def build_demo(name: str = "demo", keys: object = None, ttl: float = 600.0) -> LabServer:
    entry = sandbox.new_mcpserver(name, keys=keys, ttl=ttl)
    mcp = entry.server

    @mcp.tool()
    async def book(
        city: str, region: Annotated[Region, Resolve(ask_region)], ok: Annotated[Confirm, Resolve(ask_ok)]
    ) -> str:
        return f"Booked {city} in {region.region} (ok={ok.ok})"

    @mcp.tool()
    async def poem(
        text: Annotated[T.CreateMessageResult, Resolve(write_haiku)],
        roots: Annotated[T.ListRootsResult, Resolve(my_roots)],
    ) -> str:
        reply = text.content.text if isinstance(text.content, T.TextContent) else "?"
        return f"{reply} / {len(roots.roots)} root(s)"

    @mcp.tool()
    async def handmade(x: int, ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            return T.InputRequiredResult(input_requests={"q1": PICK}, request_state=json.dumps({"x": x}))
        answer = ctx.input_responses["q1"]
        assert isinstance(answer, T.ElicitResult) and answer.content is not None
        return f"x={x} n={answer.content['n']} state={ctx.request_state}"

    @mcp.tool()
    async def forever(ctx: Context) -> str | T.InputRequiredResult:
        return T.InputRequiredResult(input_requests={"again": PICK}, request_state="more")

    @mcp.tool()
    async def polling(ctx: Context) -> str | T.InputRequiredResult:
        seen = int(ctx.request_state or "0")
        if seen < 2:
            return T.InputRequiredResult(request_state=str(seen + 1))
        return f"ready after {seen} state-only rounds"

    @mcp.prompt()
    async def briefing(ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("audience")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return T.InputRequiredResult(input_requests={"audience": PICK})
        return f"Write a briefing for {answer.content['n']}."

    @mcp.resource("doc://{docid}")
    async def doc(docid: str, ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("why")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return T.InputRequiredResult(input_requests={"why": PICK})
        return f"doc {docid} for reason {answer.content['n']}"

    return sandbox.register(entry)


@pytest.fixture
async def demo() -> AsyncIterator[LabServer]:
    entry = build_demo()
    try:
        yield entry
    finally:
        mcp_lab.set_principal(None)  # a test may have set the lab's identity; the next one starts without
        await sandbox.stop_all()


@pytest.fixture
async def http_demo() -> AsyncIterator[LabServer]:
    """The demo server, served over loopback HTTP."""
    from mcp_lab.servers.serving import serve

    entry = build_demo()
    serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


@pytest.fixture
async def served_shop() -> AsyncIterator[LabServer]:
    """A server named "shop" with one tool whose `region` travels in Mcp-Param-Region, served over HTTP."""
    from mcp_lab.servers.serving import serve

    entry = sandbox.new_mcpserver("shop")
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    def forecast(region: Annotated[str, mcp_lab.header("Region")]) -> str:
        return f"sunny in {region}"

    sandbox.register(entry)
    serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


@pytest.fixture
async def own_recording(tmp_path: Path) -> AsyncIterator[dict[str, Path]]:
    """The own servers (tests/sample_servers/own) recorded in-process: one saved collection per server."""
    from tests.sample_servers.changes import record

    try:
        yield await record(tmp_path)
    finally:
        await sandbox.stop_all()
