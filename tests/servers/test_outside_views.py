"""Every keyless view on a user's own servers the kernel did not start (issue 14, item 2).

The user-style servers (tests/sample_servers/own) run as their author runs them: `python -m ... --http PORT` in a
subprocess, and over stdio. Connected with `mcp_lab.connect`, each gets what needs no key: flows with every
HTTP exchange (status, `Mcp-*` headers), `inspect_token(flow)` (the keyless report, never an exception),
`header_table`, the mismatch and list-first labs (HTTP only: stdio has no headers, and says so in one
line), and `describe`.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

import mcp_lab
from mcp_lab.errors import LabError
from mcp_lab.servers.connect import OutsideServer
from mcp_lab.servers.sandbox import sandbox
from tests.sample_servers.changes import ROOT, served

pytestmark = pytest.mark.asyncio(loop_scope="module")

KINDS = ("shop-http", "shop-stdio", "desk-http", "desk-stdio")
BOOK = {"ask_traveller": {"name": "Ada", "seats": 2}}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def connected() -> AsyncIterator[dict[str, OutsideServer]]:
    entries: dict[str, OutsideServer] = {}
    async with (
        served("-m", "tests.sample_servers.own.shop") as shop_url,
        served("-m", "tests.sample_servers.own.desk") as desk_url,
    ):
        try:
            entries["shop-http"] = await mcp_lab.connect("shop-http", shop_url)
            entries["desk-http"] = await mcp_lab.connect("desk-http", desk_url)
            for server in ("shop", "desk"):
                command = [sys.executable, "-m", f"tests.sample_servers.own.{server}"]
                entries[f"{server}-stdio"] = await mcp_lab.connect(f"{server}-stdio", stdio=command, cwd=str(ROOT))
            yield entries
        finally:
            await sandbox.stop_all()


async def _asking_flow(name: str) -> mcp_lab.Flow:
    """A call whose first leg carries a sealed token: shop's `book`, desk's `ticket`."""
    if name.startswith("shop"):
        return await mcp_lab.call(name, "book", {"city": "Oslo"}, answers=BOOK)
    answers = {"details": {"severity": "major"}, "summary": "Printer on fire."}
    return await mcp_lab.call(name, "ticket", {"title": "Printer", "priority": "high"}, answers=answers)


@pytest.mark.parametrize("name", KINDS)
async def test_flows_carry_every_exchange_with_status_and_mcp_headers(
    name: str, connected: dict[str, OutsideServer]
) -> None:
    flow = await _asking_flow(name)
    assert flow.status == "done", flow.summary()
    exchanges = [x for r in flow.rounds for x in r.http]
    if name.endswith("stdio"):
        assert exchanges == []  # no HTTP on stdio: nothing to show, nothing invented
        return
    assert len(exchanges) == len(flow.rounds) == 2
    header = ("mcp-param-city", "Oslo") if name.startswith("shop") else ("mcp-param-priority", "high")
    for exchange in exchanges:
        assert exchange["response"]["status"] == 200
        sent = {k.lower(): v for k, v in exchange["request"]["headers"]}
        assert sent["mcp-method"] == "tools/call" and sent["mcp-protocol-version"] == "2026-07-28"
        assert sent[header[0]] == header[1]
        assert "x-mcp-lab-exchange" not in sent  # the lab tags only requests to its own servers
    text = flow._repr_mimebundle_()["text/plain"]
    assert "no response" not in text


@pytest.mark.parametrize("name", KINDS)
async def test_inspect_token_gives_the_keyless_report_and_never_raises(
    name: str, connected: dict[str, OutsideServer]
) -> None:
    flow = await _asking_flow(name)
    report = mcp_lab.inspect_token(flow)
    assert report.server == name and report.format == "aes-gcm-v1" and report.key_id
    assert report.verdict == "unknown" and not report.verified
    assert any("connected to" in n and "keyless" in n for n in report.notes)
    assert report.expected["t"] == flow.target  # the flow still says which request the token is bound to
    assert mcp_lab.inspect_token(flow, server=name).verdict == "unknown"
    with pytest.raises(LabError, match="connected server the lab did not start: it holds no keys for it"):
        await mcp_lab.tamper_lab(flow)  # tampering needs the keys: one line, not an AttributeError


@pytest.mark.parametrize("name", KINDS)
async def test_header_table_lists_marks_without_a_key(name: str, connected: dict[str, OutsideServer]) -> None:
    table = await mcp_lab.header_table(name)
    record = table.record()
    rows = {t.name: [(r.argument, r.header) for r in t.rows] for t in record.tools}
    if name.startswith("shop"):
        assert rows["forecast"] == [("region", "Mcp-Param-Region")] and rows["book"] == [("city", "Mcp-Param-City")]
    else:
        assert rows["ticket"] == [("priority", "Mcp-Param-Priority")] and rows["login"] == []
    assert record.server == name and record.server_kind == f"outside {name.split('-')[1]}"


@pytest.mark.parametrize("name", ["shop-http", "desk-http"])
async def test_the_mismatch_lab_probes_a_connected_http_server(name: str, connected: dict[str, OutsideServer]) -> None:
    lab = await mcp_lab.mismatch_lab(name)
    verdicts = {p.case: (p.status, p.code) for p in lab.probes}
    assert verdicts["match"] == (200, None) and verdicts["base64"] == (200, None)
    assert verdicts["mismatch"] == (400, -32020) and verdicts["missing"] == (400, -32020)
    assert verdicts["name"] == (400, -32020)
    assert all(p.exchange["response"] is not None for p in lab.probes)
    assert lab.notes == []  # nothing was served for it: the lab probed the server where it runs


@pytest.mark.parametrize("name", ["shop-http", "desk-http"])
async def test_the_list_first_lab_runs_against_a_connected_http_server(
    name: str, connected: dict[str, OutsideServer]
) -> None:
    # desk's only marked tool asks questions: they are answered
    tool, arguments = ("forecast", {"region": "eu-west"}) if name.startswith("shop") else ("ticket", None)
    answers = {"details": {"severity": "minor"}, "summary": "ok"}
    lab = await mcp_lab.list_first_lab(name, tool, arguments, answers=answers if tool == "ticket" else None)
    by_name = {s.name: s for s in lab.scenarios}
    assert by_name["session"].outcome.startswith("raised MCPError -32020")
    assert by_name["client"].outcome.startswith("result") and by_name["listed"].outcome.startswith("result")
    assert by_name["flow"].relisted


@pytest.mark.parametrize("name", ["shop-stdio", "desk-stdio"])
async def test_header_labs_on_stdio_say_why_in_one_line(name: str, connected: dict[str, OutsideServer]) -> None:
    for lab in (mcp_lab.mismatch_lab, mcp_lab.list_first_lab):
        with pytest.raises(LabError, match="stdio connection: header parameters travel in HTTP headers"):
            await lab(name)


@pytest.mark.parametrize("name", KINDS)
async def test_describe_shows_info_capabilities_version_and_every_offering(
    name: str, connected: dict[str, OutsideServer]
) -> None:
    description = await mcp_lab.describe(name)
    record = description.record
    assert record.protocol_version == "2026-07-28" and record.supported_versions == ["2026-07-28"]
    assert record.server_info is not None and record.server_info["name"] == name.split("-")[0]
    assert "tools" in record.capabilities
    if name.startswith("shop"):
        assert [t.name for t in record.tools] == ["forecast", "book", "poem", "workspace", "signin", "newsletter"]
        assert description.tool("forecast").signature == (
            "forecast(region: string [Mcp-Param-Region], days?: integer) -> object"
        )
        assert description.tool("book").signature == "book(city: string [Mcp-Param-City]) -> string"
    else:
        assert description.tool("ticket").headers == {"priority": "Mcp-Param-Priority"}
        assert description.tool("ticket").output_schema["required"] == ["ticket", "severity", "summary"]
        assert "no prompts capability: the server offers no prompts" in record.notes
    text = description._repr_mimebundle_()["text/plain"]
    assert text.splitlines()[0].startswith(f"{name} (outside {name.split('-')[1]}): ")
