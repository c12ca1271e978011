"""Deliberately changed copies of the own servers (tests/sample_servers/own), one change per kind replay must catch.

A change is what a developer's edit does to a server file: `changed_copy` copies `shop.py` or `desk.py`
with one passage rewritten (the passage must occur exactly once), so the copy runs as the original does --
imported in-process, or as a script over stdio or HTTP. `recording` records the original in-process: the
collection each copy is replayed against. `served` runs a server file over HTTP in a subprocess.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import mcp_lab
from mcp_lab.deployment.ports import free_port
from mcp_lab.flow.flow import Flow
from mcp_lab.servers.sandbox import sandbox
from tests import preforked
from tests.ports import listening_ports
from tests.sample_servers.own import desk, shop

ROOT = Path(__file__).resolve().parents[2]
OWN = Path(__file__).resolve().parent / "own"
SHOP_KEY = "tests.sample_servers.own.shop"
"""The module part of the recorded resolver keys (the recording imports the package)."""


@dataclass(frozen=True)
class Change:
    name: str
    server: str
    """`shop` (MCPServer) or `desk` (lowlevel)."""
    old: str
    new: str
    where: tuple[str, ...]
    """Every path the replay names for this change, in the report's order."""


def _poem(key: str) -> str:
    return f"$.rounds[0].inputRequests['{SHOP_KEY}:{key}']"


CHANGES = [
    Change(
        "sampling prompt text",
        "shop",
        'f"Write a haiku about {topic}."',
        'f"Write a limerick about {topic}."',
        (_poem("write_poem") + ".params.messages[0].content.text",),
    ),
    Change(
        "URL-mode url host",
        "desk",
        "https://sso.example.com/desk",
        "https://sso.example.net/desk",
        ("$.rounds[0].inputRequests.login.params.url",),
    ),
    Change(
        "x-mcp-header mark removed",
        "shop",
        'region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]',
        "region: str",
        ("$.tools.forecast.headers.region", "$.tools.forecast.inputSchema.properties.region['x-mcp-header']"),
    ),
    Change(
        "structuredContent field",
        "desk",
        '"severity": str(severity),',
        '"severity": str(severity).upper(),',
        ("$.result.structuredContent.severity",),
    ),
    Change(
        "elicitation schema",
        "desk",
        '"enum": ["minor", "major"]',
        '"enum": ["minor", "major", "critical"]',
        ("$.rounds[0].inputRequests.details.params.requestedSchema.properties.severity.enum[2]",),
    ),
    Change(
        "roots no longer asked",
        "shop",
        "async def workspace(roots: Annotated[ListRootsResult, Resolve(project_roots)]) -> str:\n"
        '    """Which folders the client lets the shop see."""\n'
        '    return "roots: " + ", ".join(str(root.uri) for root in roots.roots)',
        "async def workspace() -> str:\n"
        '    """Which folders the client lets the shop see."""\n'
        '    return "roots: file:///srv/shop"',
        (
            _poem("project_roots"),
            "$.rounds",
            "$.result.content[0].text",
            "$.result.structuredContent.result",
        ),
    ),
    Change(
        "tool input schema",
        "shop",
        "days: int = 3) -> Forecast:",
        "days: Annotated[int, Field(le=7)] = 3) -> Forecast:",
        ("$.tools.forecast.inputSchema.properties.days.maximum",),
    ),
]


FINER = [
    Change(
        "sampling system prompt",
        "shop",
        'system_prompt="You are a terse poet."',
        'system_prompt="You are a verbose poet."',
        (_poem("write_poem") + ".params.systemPrompt",),
    ),
    Change(
        "sampling max tokens", "shop", "max_tokens=60,", "max_tokens=80,", (_poem("write_poem") + ".params.maxTokens",)
    ),
    Change(
        "sampling model preferences",
        "shop",
        "intelligence_priority=0.7",
        "intelligence_priority=0.9",
        (_poem("write_poem") + ".params.modelPreferences.intelligencePriority",),
    ),
    Change(
        "elicitation message",
        "shop",
        'f"Who travels to {city}?"',
        'f"Who flies to {city}?"',
        (_poem("ask_traveller") + ".params.message",),
    ),
    Change(
        "header renamed",
        "shop",
        '{"x-mcp-header": "City"}',
        '{"x-mcp-header": "Destination"}',
        ("$.tools.book.headers.city", "$.tools.book.inputSchema.properties.city['x-mcp-header']"),
    ),
]
"""Finer changes of the same kinds, checked in-process (the transports are covered by CHANGES)."""


def changed_copy(change: Change, folder: Path) -> Path:
    """`folder/<server>.py`: the server's file with the change's passage rewritten."""
    text = (OWN / f"{change.server}.py").read_text(encoding="utf-8")
    assert text.count(change.old) == 1, f"{change.name}: the passage must occur once in {change.server}.py"
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f"{change.server}.py"
    copy.write_text(text.replace(change.old, change.new), encoding="utf-8")
    return copy


def import_copy(path: Path, module_name: str) -> ModuleType:
    """Import a server file under its own module name (its resolver keys become `module_name:...`)."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # pydantic resolves the models' annotations through it
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


async def record(folder: Path) -> dict[str, Path]:
    """The originals, in-process: every tool called once, answered by script, saved per server."""
    mcp_lab.adopt(shop.mcp, name="shop")
    mcp_lab.adopt(desk.server, name="desk")
    shop_flows = [
        await mcp_lab.call("shop", "forecast", {"region": "eu-west", "days": 2}),
        await mcp_lab.call("shop", "book", {"city": "Oslo"}, answers={"ask_traveller": {"name": "Ada", "seats": 2}}),
        await mcp_lab.call("shop", "poem", {"topic": "rain"}, answers={"write_poem": "soft rain on the roof"}),
        await mcp_lab.call("shop", "workspace", answers={"project_roots": ["file:///work/shop"]}),
        await mcp_lab.call("shop", "signin", {"account": "ada"}, answers={"signin": {}}),
    ]
    desk_flows = [
        await mcp_lab.call(
            "desk",
            "ticket",
            {"title": "printer", "priority": "high"},
            answers={"details": {"severity": "major"}, "summary": "the printer jams"},
        ),
        await mcp_lab.call("desk", "login", {"account": "ada"}, answers={"login": {}}),
    ]
    _all_done(shop_flows + desk_flows)
    paths = {
        "shop": mcp_lab.save_flows(folder / "shop.flows.json", shop_flows),
        "desk": mcp_lab.save_flows(folder / "desk.flows.json", desk_flows),
    }
    await sandbox.stop_all()
    return paths


def _all_done(flows: list[Flow]) -> None:
    assert all(f.status == "done" for f in flows), [f.summary() for f in flows]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


@contextlib.asynccontextmanager
async def served(*command: str) -> AsyncIterator[str]:
    """`python COMMAND --http PORT` in a process of its own (cwd: the repository); yields its URL once it
    listens. Forked from the test process's preloaded interpreter (tests/preforked.py): the module or file
    runs as `__main__` as the interpreter runs it, without importing the SDK again.

    A free port is free only when it is chosen: a server started beside this one (here or in another test
    worker) can take it first, and an `accept` on it would then be that server's. So the URL is yielded only
    once this process itself listens on the port, and a server that lost the port is started again on another.
    """
    for _ in range(5):
        port = free_port()
        process = await preforked.start([*command, "--http", str(port)], cwd=ROOT, env=environment())
        try:
            for _ in range(3000):  # 30 s at most: the server imports the SDK first
                if process.returncode is not None or port in listening_ports([process.pid]):
                    break
                await asyncio.sleep(0.01)
            else:
                raise RuntimeError("the server did not start listening")
            if process.returncode is None:
                yield f"http://127.0.0.1:{port}/mcp"
                return
            err = (await process.stderr.read()).decode()
            if "address already in use" not in err.lower():
                raise RuntimeError(f"the server exited: {err[-2000:]}")
        finally:
            if process.returncode is None:
                process.terminate()
            await process.wait()
    raise RuntimeError("five ports in a row were taken before the server could listen")


async def replay_cli(collection: Path, *target: str) -> tuple[int, str, str]:
    """`python -m mcp_lab replay COLLECTION TARGET...` in a subprocess: exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "mcp_lab",
        "replay",
        str(collection),
        *target,
        cwd=ROOT,
        env=environment(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def named_paths(report_text: str) -> list[str]:
    """The path each difference line of a text report starts with (`      - PATH: ...` / `PATH (...)`)."""
    paths = []
    for line in report_text.splitlines():
        if line.startswith("      - $"):
            item = line[len("      - ") :]
            cut = min(i for i in (item.find(": "), item.find(" ("), len(item)) if i >= 0)
            paths.append(item[:cut])
    return paths
