"""The audit's inputs and outputs: which recorded calls it repeats, which checks run, and the report's
renderings (stable text, JUnit, JSON) and evidence (the flows its probes sent).

Spec context: the 2026-07-28 rules `mcp_lab.audit` checks; the audit only repeats calls the user recorded.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.audit.rules import RULES
from mcp_lab.audit.runner import CHECKS, select
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow
from mcp_lab.lab import lab
from mcp_lab.record_schema import KINDS
from mcp_lab.servers.serving import serve
from tests.audit.helpers import record, started
from tests.audit.servers import load


def test_one_check_per_rule_each_quoting_its_words() -> None:
    assert list(CHECKS) == [r.id for r in RULES] and len(RULES) == 16
    for rule in RULES:
        assert rule.section and rule.url.startswith("https://") and rule.transports
        assert rule.level in ("MUST", "MUST NOT", "SHOULD"), rule.id
        if rule.id in ("state-readable", "no-affinity"):  # no normative word in the source: said so, in the quote
            assert "the audit holds it as a SHOULD" in rule.quote, rule.id
        else:
            assert rule.level.split()[0] in rule.quote, rule.id
        assert rule.source.startswith(("docs/specification/2026-07-28/", "MCP Python SDK docs")), rule.id
    assert KINDS["audit"].__name__ == "AuditRecord"


def test_only_and_skip_choose_checks_and_an_unknown_one_is_one_line() -> None:
    assert select("origin,ir-methods") == ["ir-methods", "origin"]
    assert select(None, ["state-lifetime", "origin"]) == [c for c in CHECKS if c not in ("state-lifetime", "origin")]
    with pytest.raises(LabError, match="no check named 'state-nonsense'; the checks are: ir-methods, "):
        select("state-nonsense")


async def test_this_kernels_flows_a_collection_and_a_list_give_the_same_verdicts(tmp_path: Path) -> None:
    module = load("refund_plaintext")
    async with started(module, "in-process") as entry:
        lab.reset()
        for call in module.CALLS:  # as a person records: through the public API, remembered by the kernel
            await mcp_lab.call(entry.name, call.target, call.arguments, answers=call.answers or None)
        mine = await mcp_lab.audit(entry.name, skip="state-lifetime")
        path = mcp_lab.save_flows(tmp_path / "calls.json", mcp_lab.flows)
        assert "request_state" not in path.read_text() or "<request_state, not saved>" in path.read_text()
        saved = await mcp_lab.audit(entry.name, path, skip="state-lifetime")
        given = await mcp_lab.audit(entry.name, list(mcp_lab.flows), skip="state-lifetime")
    assert mine.verdicts() == saved.verdicts() == given.verdicts()
    assert mine.failed() == ["state-integrity", "state-binding"]
    assert mine.text() == saved.text() == given.text()  # stable: no times, no tokens


async def test_without_recorded_calls_only_listings_and_transport_checks_run() -> None:
    module = load("bad_annotation")
    async with started(module, "in-process") as entry:
        lab.reset()
        report = await mcp_lab.audit(entry.name)
    assert report.record.flows == [] and "no recorded call for 'bad-annotation'" in report.record.notes[0]
    assert report.verdicts()["ir-methods"] == "pass"
    assert report.verdicts()["header-annotations"] == "fail"
    assert report.check("header-annotations").probes[1].came_back.startswith("invalid: property 'kg'")
    assert {report.verdicts()[c] for c in ("state-integrity", "capabilities", "answers-missing")} == {"n/a"}


async def test_legacy_flows_are_left_out_and_bad_options_are_one_line() -> None:
    module = load("good_mcpserver")
    async with started(module, "in-process") as entry:
        legacy = await mcp_lab.call(entry.name, "stock", {"title": "Dune", "region": "eu"}, legacy=True)
        report = await mcp_lab.audit(entry.name, [legacy], only="ir-methods")
        assert report.record.notes[0].startswith("1 recorded call(s) of the 2025-11-25 era left out")
        with pytest.raises(LabError, match="max_wait must be a positive number of seconds"):
            await mcp_lab.audit(entry.name, [legacy], max_wait=0)
        with pytest.raises(LabError, match="flows= takes a collection path or a list of flows"):
            await mcp_lab.audit(entry.name, 42)  # type: ignore[arg-type]
        with pytest.raises(LabError, match="no server named 'nobody'"):
            await mcp_lab.audit("nobody")


async def test_a_lab_served_server_is_audited_with_the_connections_own_credentials() -> None:
    module = load("good_mcpserver")
    async with started(module, "in-process") as entry:
        serve(entry.name)  # the lab's loopback HTTP serving (its clients carry whatever access it requires)
        flows = await record(entry, module.CALLS)
        report = await mcp_lab.audit(entry.name, flows, skip="state-lifetime")
    assert report.exit_code == 0 and set(report.verdicts().values()) == {"pass"}, report.text()
    origin = report.check("origin").probes[0]
    assert origin.status == 403 and origin.exchanges[0].request.headers  # the exchange as it was sent
    sent = dict(origin.exchanges[0].request.headers)
    assert sent.get("Origin") == "https://mcp-lab-audit.invalid"
    text = report.text()
    assert "127.0.0.1" not in text and "v1." not in text  # stable in CI logs and nbval: no port, no token


async def test_the_renderings_and_the_evidence(tmp_path: Path) -> None:
    module = load("unbound_sealed")
    async with started(module, "in-process") as entry:
        flows = await record(entry, module.CALLS)
        report = await mcp_lab.audit(entry.name, flows, skip="state-lifetime")
    assert report.failed() == ["state-binding"] and report.exit_code == 0  # a SHOULD: no CI failure
    bundle = report._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "application/vnd.mcp-lab.audit+json"}
    assert bundle["text/plain"] == report.text() and "mcp-lab-audit" in bundle["text/html"]
    assert json.loads(report.to_json()) == bundle["application/vnd.mcp-lab.audit+json"]
    root = ET.fromstring(report.junit().split("\n", 1)[1])
    assert root.get("tests") == "15" and root.get("failures") == "1"
    failure = root.find(
        ".//testcase[@name='state-binding: requestState is bound to the request that minted it']/failure"
    )
    assert failure is not None and failure.get("type") == "SHOULD"
    evidence = report.flows("state-binding")
    assert evidence and all(isinstance(f, Flow) for f in evidence)
    acted = next(f for f in evidence if f.status == "done")
    assert acted.notes == ['audit: requestState minted for tools/call refund {"order": 1}']
    assert acted.text == "Refunded order 2 (25 EUR)"  # the state of order 1 paid out on order 2
    saved = mcp_lab.save_flows(tmp_path / "evidence.json", evidence)
    assert len(mcp_lab.load_flows(saved)) == len(evidence)
    with pytest.raises(LabError, match="this audit has no check 'state-lifetime'"):
        report.check("state-lifetime")
