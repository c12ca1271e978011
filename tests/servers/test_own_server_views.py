"""Every view on a user's own servers brought into the kernel (issue 14, "Tests"): adopted with its own
keys in-process, adopted and served over the lab's HTTP, and adopted with the lab holding the keys.

(The same servers connected over HTTP in a subprocess and over stdio: tests/test_outside_views.py.) The
servers are tests/sample_servers/own: `shop` (MCPServer, resolvers, header parameters) and `desk` (lowlevel, its
own RequestStateBoundary). The lab-keys kind adopts a fresh copy of the module: taking the keys changes
the server object.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from mcp_lab.servers.view import ServerList
from tests.sample_servers.changes import import_copy
from tests.sample_servers.own import desk, shop

KINDS = ("own-keys", "own-keys-served", "lab-keys")
SERVERS = ("shop", "desk")
BOOK = {"ask_traveller": {"name": "Ada", "seats": 2}}
TICKET = {"details": {"severity": "major"}, "summary": "Printer on fire."}


@pytest.fixture(params=[(s, k) for s in SERVERS for k in KINDS], ids=lambda p: f"{p[0]}-{p[1]}")
async def own(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[LabServer]:
    server_name, kind = request.param
    module = shop if server_name == "shop" else desk
    copy_name = None
    if kind == "lab-keys":
        copy_name = f"{server_name}_lab_keys_copy"
        path = tmp_path / f"{copy_name}.py"
        path.write_text(Path(module.__file__ or "").read_text())
        module = import_copy(path, copy_name)
    server = module.mcp if server_name == "shop" else module.server
    entry = mcp_lab.adopt(server, name=server_name, take_keys=kind == "lab-keys")
    if kind == "own-keys-served":
        serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()
        if copy_name is not None:
            del sys.modules[copy_name]


async def _asking_flow(entry: LabServer) -> mcp_lab.Flow:
    if entry.name == "shop":
        return await mcp_lab.call("shop", "book", {"city": "Oslo"}, answers=BOOK)
    return await mcp_lab.call("desk", "ticket", {"title": "Printer", "priority": "high"}, answers=TICKET)


async def test_flows_and_their_http_exchanges(own: LabServer) -> None:
    flow = await _asking_flow(own)
    assert flow.status == "done", flow.summary()
    exchanges = [x for r in flow.rounds for x in r.http]
    if own.http is None:
        assert exchanges == []
        return
    assert len(exchanges) == 2 and {x["response"]["status"] for x in exchanges} == {200}
    header = "mcp-param-city" if own.name == "shop" else "mcp-param-priority"
    assert all(header in {k.lower() for k, _ in x["request"]["headers"]} for x in exchanges)


async def test_inspect_token_opens_and_verifies_with_whichever_keys_seal(own: LabServer) -> None:
    flow = await _asking_flow(own)
    report = mcp_lab.inspect_token(flow)
    assert report.verdict == "ok" and report.verified and report.slot == 0
    assert report.expected["aud"] == own.name  # the server's own audience: here, its own name
    row = next(r for r in ServerList.from_sandbox(sandbox).rows if r.name == own.name)
    assert report.key_id == row.key_ids[0]
    assert row.sealing == ("lab-generated key" if own.ring is not None else "its own keys")


async def test_header_table_and_describe(own: LabServer) -> None:
    table = (await mcp_lab.header_table(own.name)).record()
    description = (await mcp_lab.describe(own.name)).record
    marked = {t.name: [r.header for r in t.rows] for t in table.tools}
    if own.name == "shop":
        assert marked["forecast"] == ["Mcp-Param-Region"]
        assert description.tools[0].signature.startswith("forecast(region: string [Mcp-Param-Region]")
        text = (await mcp_lab.describe(own.name))._repr_mimebundle_()["text/plain"]
        assert "  prompts: none listed" in text and "  resources: none listed" in text  # declared, empty
    else:
        assert marked["ticket"] == ["Mcp-Param-Priority"]
        assert [t.name for t in description.tools] == ["ticket", "login"]
    assert description.protocol_version == "2026-07-28" and description.server_kind == own.kind


async def test_the_header_labs(own: LabServer) -> None:
    served_before = own.http is not None
    lab = await mcp_lab.mismatch_lab(own.name)
    verdicts = {p.case: (p.status, p.code) for p in lab.probes}
    assert verdicts["match"] == (200, None) and verdicts["mismatch"] == (400, -32020)
    assert lab.notes == (
        []
        if served_before
        else [f"{own.name!r} was not served over HTTP; the lab now serves it (%mcp_server list shows where)"]
    )
    tool, arguments, answers = (
        ("forecast", {"region": "eu-west"}, None) if own.name == "shop" else ("ticket", None, TICKET)
    )
    first = await mcp_lab.list_first_lab(own.name, tool, arguments, answers=answers)
    by_name = {s.name: s for s in first.scenarios}
    assert by_name["session"].outcome.startswith("raised MCPError -32020") and by_name["flow"].relisted
