"""Every view that needs no key, against a TypeScript SDK v2 server (tests/interop/ts_server/server.mjs on the
npm packages tests/interop/package-lock.json pins): calls with scripted answers (form and URL elicitation,
sampling, roots, several questions at once, two rounds, state in a signed requestState), a prompt and a
template resource that ask, describe, the header table, the mismatch and list-first labs, keyless token
inspection, replay against itself (exit 0) and against a changed copy (exit 1), and the audit.

Spec context: 2026-07-28 multi round-trip requests and header parameters, as another SDK implements them.
What the server received is read from the HTTP exchanges the lab recorded (the fixture is not ours to
instrument), and from what it answered.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
from pathlib import Path
from typing import Any

import mcp_lab
from mcp_lab.audit.tokens import reveal
from mcp_lab.flow.view import token_brief
from mcp_lab.forms import FormAnswerer, Panel, current
from mcp_lab.lab import lab
from mcp_lab.servers.sandbox import sandbox
from tests.interop.node import ts_server
from tests.kernel.harness import ROOT

ROOTS = [{"uri": "file:///work/project", "name": "project"}]
SAMPLED = "Paris"
CALLS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("test_input_required_result_elicitation", {}, {"user_name": {"name": "Ada"}}, "Hello, Ada!"),
    ("open_dashboard", {}, {"visit": {"action": "accept"}}, "dashboard: accept"),
    ("test_input_required_result_sampling", {}, {"capital_question": SAMPLED}, "Sampling response: Paris"),
    ("test_input_required_result_list_roots", {}, {"client_roots": ROOTS}, "Client exposed 1 root(s): file:///work/project"),
    ("test_input_required_result_request_state", {}, {"confirm": {"ok": True}}, "state-ok: requestState verified"),
    (
        "test_input_required_result_multiple_inputs",
        {},
        {"user_name": {"name": "Ada"}, "greeting": SAMPLED, "client_roots": ROOTS},
        "Paris Ada (1 root(s))",
    ),
    (
        "test_input_required_result_multi_round",
        {},
        {"step1": {"name": "Ada"}, "step2": {"color": "teal"}},
        "Multi-round complete: Ada likes teal",
    ),
    ("test_x_mcp_header", {"region": "eu-west"}, {}, "region=eu-west"),
]


def _text(flow: mcp_lab.Flow) -> str:
    result = flow.rounds[-1].result or {}
    if "messages" in result:
        return str(result["messages"][0]["content"]["text"])
    if "contents" in result:
        return str(result["contents"][0]["text"])
    return str(result["content"][0]["text"])


def _sent_headers(flow: mcp_lab.Flow) -> dict[str, str]:
    exchange = flow.rounds[-1].http[-1]
    return {k.lower(): v for k, v in exchange["request"]["headers"]}


async def _shown(before: Panel | None) -> Panel:
    """The next round of live forms, once the lab says it is shown."""
    panel = current()
    if panel is not None and panel is not before and panel.revealed:
        return panel
    shown: asyncio.Future[Panel] = asyncio.get_running_loop().create_future()

    def on_shown(panel: Panel) -> None:
        if panel is not before and not shown.done():
            shown.set_result(panel)

    unsubscribe = lab.board.on_round_shown(on_shown)
    try:
        return await asyncio.wait_for(shown, 60)  # a bound against a hang, not a timing claim
    finally:
        unsubscribe()


async def _cli(*args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcp_lab", *args, env=env, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_every_keyless_view_works_on_a_typescript_server(tmp_path: Path) -> None:
    async with ts_server() as url, ts_server("changed") as changed_url:
        try:
            # A credential given by any header name is sent and recorded as <redacted> (this server ignores it).
            await mcp_lab.connect("ts", url, headers={"X-Api-Key": "k-s3cr3t-value", "X-Tenant-Token": "t-s3cr3t"})
            flows = []
            for tool, arguments, answers, expected in CALLS:
                flow = await mcp_lab.call("ts", tool, arguments, answers=answers)
                assert flow.status == "done" and _text(flow) == expected, (tool, flow.notes, flow.rounds[-1].error)
                flows.append(flow)
            assert len(flows[6].rounds) == 3  # two rounds of questions, then the result
            assert _sent_headers(flows[-1])["mcp-param-region"] == "eu-west"  # the server saw the header
            assert _sent_headers(flows[-1])["x-api-key"] == _sent_headers(flows[-1])["x-tenant-token"] == "<redacted>"
            assert not any("s3cr3t" in f.to_json() for f in flows)
            # Live forms: the form and the URL question the TypeScript server asks, answered as a person does.
            for tool, values, expected in (
                ("test_input_required_result_elicitation", {"name": "Grace"}, "Hello, Grace!"),
                ("open_dashboard", None, "dashboard: accept"),
            ):
                before = current()
                running = asyncio.ensure_future(mcp_lab.call("ts", tool, {}, answers=FormAnswerer()))
                panel = await _shown(before)
                assert [type(f).__name__ for f in panel.forms] == ["ElicitForm" if values else "UrlForm"]
                if values:
                    panel.fill(**values)
                assert panel.submit()
                answered = await running
                assert answered.status == "done" and answered.text == expected
            prompt = await mcp_lab.get_prompt(
                "ts", "test_input_required_result_prompt", answers={"user_context": {"context": "tea"}}
            )
            assert prompt.status == "done" and _text(prompt) == "Use the following context: tea"
            report = await mcp_lab.read_resource("ts", "report://2025", answers={"format": {"format": "csv"}})
            assert report.status == "done" and _text(report) == "report 2025 as csv"
            assert len(report.rounds) == 2 and report.rounds[0].input_requests is not None

            # describe and the header table read the server's own listing.
            description = await mcp_lab.describe("ts")
            assert description.tool("test_x_mcp_header").headers == {"region": "Mcp-Param-Region"}
            signature = description.tool("test_x_mcp_header").signature
            assert signature.startswith("test_x_mcp_header(region: string [Mcp-Param-Region]"), signature
            assert repr(description) == "<ServerDescription 'ts': 13 tools, 1 prompts, 1 resources>"
            table = await mcp_lab.header_table("ts")
            (marked,) = [t for t in table.tools if t.rows]
            assert marked.name == "test_x_mcp_header" and marked.rows[0].header == "Mcp-Param-Region"

            # The mismatch lab: the TypeScript SDK rejects a disagreeing or missing header (400, -32020).
            lab = await mcp_lab.mismatch_lab("ts")
            verdicts = {p.case: (p.status, p.code) for p in lab.probes}
            assert verdicts["match"] == (200, None) and verdicts["base64"] == (200, None)
            assert verdicts["mismatch"] == (400, -32020) and verdicts["missing"] == (400, -32020)
            first = await mcp_lab.list_first_lab("ts", "test_x_mcp_header", {"region": "eu"})
            scenario = {s.name: s for s in first.scenarios}
            # The SDK Client re-lists after -32020 and resends; a bare session does not; the lab's engine does.
            assert [e["response"]["status"] for e in scenario["client"].exchanges] == [400, 200, 200]
            assert scenario["client"].outcome == "result: region=eu" and "-32020" in scenario["session"].outcome
            assert scenario["flow"].relisted and scenario["listed"].outcome == "result: region=eu"

            # Keyless token inspection: signed, not encrypted, readable; accepted by the server in that flow.
            stateful = flows[4]
            token = stateful.rounds[0].request_state
            assert token is not None and token.startswith("v1.") and token.count(".") == 2
            inspected = mcp_lab.inspect_token(stateful)
            assert inspected.format == "signed-v1" and inspected.confidential is False
            assert inspected.verdict != "malformed" and inspected.problem is None
            assert "encrypted" not in inspected.can_open.replace("not encrypted", "")
            assert any("anyone holding this token can read its payload" in n for n in inspected.notes)
            assert any(n.startswith("expiry: exp ") for n in inspected.notes)
            assert any(n.startswith("binding: none") for n in inspected.notes)
            assert any("the server accepted it: round 2" in n for n in inspected.notes), inspected.notes
            assert inspected.anatomy is not None and inspected.anatomy.claims["p"]["cart"] == ["tea"]
            assert inspected.claim_rows == []  # the Python SDK's claim rows do not describe this format
            payload = token.split(".")[1]
            decoded = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            assert inspected.anatomy.claims == decoded
            shown = reveal(token)  # the audit's reading is the inspector's
            assert shown is not None and shown.value == decoded
            assert token_brief(token).startswith("SIGNED, NOT ENCRYPTED")

            # The audit, in-process: the TypeScript SDK keeps every MUST but Origin (it accepts any Origin).
            audited = await mcp_lab.audit("ts", [flows[0], flows[4], flows[-1]])
            verdict = {c.rule.id: c.verdict for c in audited.record.checks}
            assert verdict["origin"] == "fail" and verdict["state-integrity"] == "pass"
            assert verdict["state-readable"] == "warn" and verdict["header-mismatch"] == "pass"
            assert verdict["header-missing"] == "pass" and verdict["capabilities"] == "pass"
            (readable,) = next(c for c in audited.record.checks if c.rule.id == "state-readable").probes
            assert readable.note.startswith("signed v1 (") and "anyone holding this token can read" in readable.note

            # Replay: the same server gives the same answers; the changed copy words one differently.
            collection = mcp_lab.save_flows(tmp_path / "ts.flows.json", [flows[0], flows[4], flows[-1]])
            same = await _cli("replay", str(collection), "--server", url)
            assert same[0] == 0, same
            other = await _cli("replay", str(collection), "--server", changed_url)
            assert other[0] == 1 and "Hello, Ada!" in other[1] and "Hi there, Ada!" in other[1], other
        finally:
            await sandbox.stop_all()
