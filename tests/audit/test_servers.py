"""Every test server, reached in-process, over HTTP and over stdio, fails exactly the checks it breaks.

Spec context: the 2026-07-28 rules `mcp_lab.audit` checks. Each broken server is a well-behaved shop with one
flaw (tests/audit/servers); its module's BREAKS says, per transport, which rules that flaw breaks -- the test
fails when the audit finds one more or one less. The well-behaved MCPServer and lowlevel server keep every
rule that applies (no failure, no warning). The lifetime check waits, so it is tested on its own.
"""

from __future__ import annotations

import pytest

import mcp_lab
from tests.audit.helpers import TRANSPORTS, record, started
from tests.audit.servers import MODULES, load

GOOD = {"good_mcpserver", "good_lowlevel"}


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("name", MODULES)
async def test_fails_exactly_what_it_breaks(name: str, transport: str) -> None:
    module = load(name)
    async with started(module, transport) as connection:
        flows = await record(connection, module.CALLS)
        report = await mcp_lab.audit(connection.name, flows, skip="state-lifetime")
    failed = {c.rule.id for c in report.checks if c.verdict == "fail"}
    assert failed == module.BREAKS[transport], report.text()
    must = any(c.rule.must for c in report.checks if c.verdict == "fail")
    assert report.exit_code == (1 if must else 0)
    if name in GOOD:
        assert {c.verdict for c in report.checks} <= {"pass", "n/a"}, report.text()
        applicable = {c.rule.id for c in report.checks if c.verdict == "pass"}
        expected_na = {"no-affinity"} if transport == "stdio" else set()
        if transport != "http":
            expected_na |= {"header-mismatch", "header-missing", "header-base64", "origin"}
        assert {c.rule.id for c in report.checks if c.verdict == "n/a"} == expected_na, report.text()
        assert len(applicable) == 15 - len(expected_na)
